package vocab

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// BenchmarkSnapshotDecode times reading the file of the terms (the vocabulary's start when a
// workspace opens, the file read from the disk apart) at the sizes of a large workspace's
// vocabulary: the benchsearch workspaces hold 69,000 terms at 100,000 pages, a real crawl of
// a million pages (URL words, numbers, several languages) a few million.
func BenchmarkSnapshotDecode(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000, 5_000_000} {
		s := syntheticSnapshot(n)
		file := s.encode()
		b.Run(fmt.Sprintf("terms=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(file)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decodeSnapshot(file); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// syntheticSnapshot is a vocabulary of n distinct terms of 2 to 14 letters, sorted.
func syntheticSnapshot(n int) *snapshot {
	r := rand.New(rand.NewPCG(1, uint64(n)))
	seen := make(map[string]bool, n)
	terms := make([]string, 0, n)
	buf := make([]byte, 0, 16)
	for len(terms) < n {
		buf = buf[:0]
		for range 2 + r.IntN(13) {
			buf = append(buf, byte('a'+r.IntN(26)))
		}
		if t := string(buf); !seen[t] {
			seen[t] = true
			terms = append(terms, t)
		}
	}
	slices.Sort(terms)
	weight := make([]uint32, n)
	for i := range weight {
		weight[i] = uint32(r.IntN(1 << 20))
	}
	return &snapshot{workspace: "w", gen: 1, covered: []originSpan{{1, 1000}}, terms: terms, weight: weight}
}

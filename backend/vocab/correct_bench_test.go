package vocab

import (
	"context"
	"fmt"
	"mundaneum/backend/query"
	"mundaneum/backend/searchtest"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"mundaneum/backend/store"
)

// BenchmarkCorrect times the spelling correction alone (Vocabulary.Correct, which search
// runs when a query finds nothing) of one-edit typos at every position of some words, over
// the workspace named by $MUND_BENCH_DB (words from synthweb's word list, as in
// benchsearch's workspaces) or else a small test workspace of several segments. It
// reports p50 and p99 per correction.
func BenchmarkCorrect(b *testing.B) {
	ctx := context.Background()
	var s *Vocabulary
	words := []string{"catalogue", "classification", "universal", "decimal", "repertory", "librarian", "until"}
	if path := os.Getenv("MUND_BENCH_DB"); path != "" {
		s = New(searchtest.Open(b, filepath.Clean(path), store.Options{ReadOnly: true}).SearchDB())
		words = []string{"squashiest", "rationalist", "disrepute", "catalyst", "drollery", "unavailing",
			"reprisals", "pendulums", "contradict", "relaxants", "strangely", "journals", "professor",
			"recycle", "cowboy", "conjunctive", "infamously", "orthogonal", "cheerleader", "underwriting"}
	} else {
		s = New(searchtest.Segments(b).SearchDB())
	}
	var queries []string
	for _, w := range words {
		for i, typo := range typos(w) {
			if i%3 != 0 {
				continue // a third of them: every kind of edit, most positions
			}
			if known, err := s.known(ctx, typo); err != nil {
				b.Fatal(err)
			} else if !known {
				queries = append(queries, typo)
			}
		}
	}
	if len(queries) == 0 {
		b.Fatal("no typos to correct")
	}
	for _, q := range queries[:min(len(queries), 20)] { // warm the caches
		if _, err := s.Correct(ctx, q, query.Parse(q).Root); err != nil {
			b.Fatal(err)
		}
	}
	ds := make([]time.Duration, 0, b.N)
	fixed := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := queries[i%len(queries)]
		t0 := time.Now()
		fix, err := s.Correct(ctx, q, query.Parse(q).Root)
		if err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t0))
		if fix != "" {
			fixed++
		}
	}
	b.StopTimer()
	slices.Sort(ds)
	b.ReportMetric(ms(ds[len(ds)/2]), "p50-ms")
	b.ReportMetric(ms(ds[len(ds)*99/100]), "p99-ms")
	b.ReportMetric(float64(fixed)/float64(b.N), "fixed/op")
	if testing.Verbose() {
		fmt.Fprintf(os.Stderr, "%d typos of %d words\n", len(queries), len(words))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

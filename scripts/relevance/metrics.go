package main

import (
	"sort"
	"time"
)

// cutoff is the rank depth of every metric (MRR@10, success@10).
const cutoff = 10

// result is one engine's answer to one query.
type result struct {
	Rank int   // 1-based rank of the expected page; 0 when not in the first cutoff hits
	Hits []hit // what the engine returned, best first
	Took time.Duration
	Err  string // the search failed: counted as a miss
}

// rr is the reciprocal rank.
func (r result) rr() float64 {
	if r.Rank == 0 {
		return 0
	}
	return 1 / float64(r.Rank)
}

// rankOf is the 1-based position of want in hits, 0 if absent; a page listed twice
// counts where it first appears.
func rankOf(hits []hit, want string) int {
	for i, h := range hits {
		if i == cutoff {
			break
		}
		if h.Path == want {
			return i + 1
		}
	}
	return 0
}

// summary holds the metrics over a set of queries.
type summary struct {
	MRR, S1, S10 float64
	N            int
}

// summarize computes MRR@10, success@1 and success@10 over the results whose index
// keep accepts (nil: all).
func summarize(rs []result, keep func(i int) bool) summary {
	var s summary
	for i, r := range rs {
		if keep != nil && !keep(i) {
			continue
		}
		s.N++
		s.MRR += r.rr()
		if r.Rank == 1 {
			s.S1++
		}
		if r.Rank >= 1 && r.Rank <= cutoff {
			s.S10++
		}
	}
	if s.N > 0 {
		s.MRR /= float64(s.N)
		s.S1 /= float64(s.N)
		s.S10 /= float64(s.N)
	}
	return s
}

// medianTook is the median time an engine took per query, process start included.
func medianTook(rs []result) time.Duration {
	if len(rs) == 0 {
		return 0
	}
	ds := make([]time.Duration, len(rs))
	for i, r := range rs {
		ds[i] = r.Took
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

// worst orders query indexes from the first engine's worst to its best; ties put first
// the queries another engine answers better, then keep file order.
func worst(mine, other []result) []int {
	idx := make([]int, len(mine))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		i, j := idx[a], idx[b]
		if mine[i].rr() != mine[j].rr() {
			return mine[i].rr() < mine[j].rr()
		}
		if other != nil {
			return other[i].rr()-mine[i].rr() > other[j].rr()-mine[j].rr()
		}
		return false
	})
	return idx
}

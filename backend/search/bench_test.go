package search

import (
	"context"
	"fmt"
	"mundaneum/backend/searchtest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"mundaneum/backend/store"
)

// benchQueries cover every kind of query; words are from synthweb's vocabulary
// (/usr/share/dict/words), so they also match the test library's Zipf pages.
var benchQueries = []string{
	"squashiest", "rationalist", "disrepute correggio", "catalyst squashiest drollery",
	`"rationalist unavailing"`, "correggio OR catalyst", "squashiest -disrepute", "catal*",
	"NEAR(squashiest disrepute, 5)", "title:rationalist", "anchor:catalyst", "url:img",
	"site:127.0.3.12 squashiest", "type:image", "ext:png catalyst", "status:404", "is:broken",
	"after:2020 squashiest", "inlinks:http://127.0.3.11:8411/", `url:/p\/1[0-9]\.html$/`,
	"title:/^ration/", "squashiest OR site:127.0.3.13", "rationalistt", "-squashiest",
}

// BenchmarkQueries runs benchQueries over the workspace named by $MUND_BENCH_DB (for
// example a synthweb crawl) and reports p50 and p99 latency per query, first page of 20
// results with snippets. Without $MUND_BENCH_DB it uses the small test library.
func BenchmarkQueries(b *testing.B) {
	ctx := context.Background()
	var db *searchtest.Workspace
	if path := os.Getenv("MUND_BENCH_DB"); path != "" {
		db = searchtest.Open(b, filepath.Clean(path), store.Options{})
		if err := db.Index.Wait(ctx, nil); err != nil {
			b.Fatal(err)
		}
	} else {
		db = searchtest.Build(b, searchtest.Corpus)
	}
	s := New(db.SearchDB())
	facets := os.Getenv("MUND_BENCH_FACETS") != ""
	for _, q := range benchQueries {
		s.Search(ctx, Request{Query: q, Limit: 20, Facets: facets}) // warm caches
	}
	b.ResetTimer()
	var all []time.Duration
	for _, q := range benchQueries {
		var ds []time.Duration
		var total int
		for i := 0; i < max(b.N, 5); i++ {
			t0 := time.Now()
			res, err := s.Search(ctx, Request{Query: q, Limit: 20, Facets: facets})
			if err != nil {
				b.Fatal(err)
			}
			ds = append(ds, time.Since(t0))
			total = res.Total
		}
		slices.Sort(ds)
		all = append(all, ds...)
		fmt.Fprintf(os.Stderr, "%-40s %6d hits  p50 %7.2f ms  max %7.2f ms\n", strings.ReplaceAll(q, "\n", " "), total, ms(ds[len(ds)/2]), ms(ds[len(ds)-1]))
	}
	slices.Sort(all)
	fmt.Fprintf(os.Stderr, "all: p50 %.2f ms, p99 %.2f ms over %d searches\n", ms(all[len(all)/2]), ms(all[len(all)*99/100]), len(all))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

package main

import (
	"context"
	"fmt"
	"time"

	"mundaneum/backend/index"
)

// coldReads drops the OS cache of the workspace's files, opens it without readying the
// searcher (no Prepare: nothing reads beside the queries), asks the queries qs one after
// the other and says, for each, how long it took and how many bytes the process read from
// the disk meanwhile; then how much of each file is in the OS cache. It shows what a query
// on a cold workspace reads, apart from Prepare's reading of the files.
func coldReads(ctx context.Context, path string, qs []string, limit int, facets bool) error {
	if err := evictCache(path); err != nil {
		return err
	}
	r0, t0 := diskReads(), time.Now()
	sr, err := openSearch(ctx, path)
	if err != nil {
		return err
	}
	defer sr.Close()
	e := newEngine(sr.idx.SearchDB(), facets)
	fmt.Printf("open: %.1f ms, %.2f MB read\n", ms(time.Since(t0)), mb(diskReads()-r0))
	for _, q := range qs {
		r, t := diskReads(), time.Now()
		o, err := e.run(ctx, q, limit)
		if err != nil {
			return fmt.Errorf("query %q: %w", q, err)
		}
		fmt.Printf("%-40q %8.1f ms, %8.2f MB read, %d results of %d\n", q, ms(time.Since(t)), mb(diskReads()-r), o.results, o.total)
	}
	for _, f := range append([]string{path}, index.Path(path)) {
		in, size := cached(f)
		fmt.Printf("%s: %.1f of %.1f MB in the OS cache\n", f, mb(in), mb(size))
	}
	return nil
}

func mb(n int64) float64 { return float64(n) / 1e6 }

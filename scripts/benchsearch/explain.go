package main

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"time"
)

// explain prints SQLite's plan for query and times it on the workspace's read pool (the
// first run and the median of five more), to find out where a slow query class spends.
func explain(ctx context.Context, path, query string) error {
	sr, err := openSearch(ctx, path)
	if err != nil {
		return err
	}
	defer sr.Close()
	db := sr.idx.SearchDB()
	rows, err := db.QueryContext(ctx, "EXPLAIN QUERY PLAN "+query)
	if err != nil {
		return fmt.Errorf("explain: %w", err)
	}
	fmt.Println("plan:")
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			rows.Close()
			return err
		}
		fmt.Printf("  %3d %3d  %s\n", id, parent, detail)
	}
	rows.Close()
	runtime.LockOSThread() // the thread's CPU time is the query's (see runMix)
	defer runtime.UnlockOSThread()
	var ds, cs []time.Duration
	n := 0
	for i := range 6 {
		t, c := time.Now(), threadCPU()
		rows, err := db.QueryContext(ctx, query)
		if err != nil {
			return err
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for j := range vals {
			ptrs[j] = &vals[j]
		}
		n = 0
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return err
			}
			if i == 0 && n < 5 {
				fmt.Printf("  row: %v\n", vals)
			}
			n++
		}
		if err := rows.Close(); err != nil {
			return err
		}
		ds = append(ds, time.Since(t))
		cs = append(cs, threadCPU()-c)
	}
	med := func(d []time.Duration) float64 {
		d = slices.Clone(d[1:])
		slices.Sort(d)
		return ms(d[len(d)/2])
	}
	fmt.Printf("%d rows; first run %.2f ms (cpu %.2f), median of 5 more %.2f ms (cpu %.2f)\n", n, ms(ds[0]), ms(cs[0]), med(ds), med(cs))
	return nil
}

// timeOne runs one query through the engine six times and prints its timings and count.
func timeOne(ctx context.Context, path, q string, limit int, facets bool, cpuprofile string) error {
	sr, err := openSearch(ctx, path)
	if err != nil {
		return err
	}
	defer sr.Close()
	e := newEngine(sr.idx.SearchDB(), facets)
	stop, err := startProfile(cpuprofile, "")
	if err != nil {
		return err
	}
	defer stop()
	for i := range 6 {
		t, c := time.Now(), cpuTime() // the process's: snippets are cut on another thread
		o, err := e.run(ctx, q, limit)
		if err != nil {
			return err
		}
		fmt.Printf("run %d: %.2f ms (cpu %.2f), %d hits (capped %v), %d results, %d with snippets, corrected %v\n",
			i+1, ms(time.Since(t)), ms(cpuTime()-c), o.total, o.approx, o.results, o.snippets, o.corrected)
	}
	return nil
}

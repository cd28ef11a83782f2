// Command benchfollow measures the index stage following a crawl past index.PairsMinRows,
// where a row's pairs row used to cost more than its word row (issue 30): on a copy of a
// large workspace whose index is built (the 100k bench-search workspace), it notes the
// last -pages rows' pages as changed in the workspace's index_log, as a crawl fetching
// them again does, opens the workspace as a crawl's process would and times the index
// catching up (Wait: every page searchable) and then its idle work (Settle: the pair
// index complete, segments merged), with the process's CPU for each:
//
//	cp -a /tmp/ci/bsdir/p100000-s1-b150-600-g1 /tmp/copy
//	go run ./scripts/benchfollow -workspace /tmp/copy/workspace.mundaneum -pages 20000
//
// The copy is changed: use a fresh one for every run.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"log"
	"os"
	"syscall"
	"time"

	_ "modernc.org/sqlite"

	"mundaneum/backend/index"
	"mundaneum/backend/store"
)

func main() {
	ws := flag.String("workspace", "", "a copy of a workspace with its index built (changed by the run)")
	pages := flag.Int("pages", 20000, "rows to rewrite: the last ones of the index")
	flag.Parse()
	if *ws == "" {
		log.Fatal("benchfollow: -workspace is required")
	}
	ctx := context.Background()
	n, err := note(ctx, *ws, *pages)
	if err != nil {
		log.Fatalf("benchfollow: %v", err)
	}
	cpu0, t0 := cpu(), time.Now()
	st, err := store.Open(ctx, *ws, store.Options{})
	if err != nil {
		log.Fatalf("benchfollow: %v", err)
	}
	defer st.Close()
	idx, err := index.Open(ctx, st)
	if err != nil {
		log.Fatalf("benchfollow: %v", err)
	}
	defer idx.Close()
	if err := idx.Wait(ctx, nil); err != nil {
		log.Fatalf("benchfollow: %v", err)
	}
	cpu1, t1 := cpu(), time.Now()
	p1 := idx.Progress(ctx)
	if err := idx.Settle(ctx, nil); err != nil {
		log.Fatalf("benchfollow: %v", err)
	}
	cpu2, t2 := cpu(), time.Now()
	p2 := idx.Progress(ctx)
	per := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
	fmt.Printf("rows rewritten: %d\n", n)
	fmt.Printf("searchable (Wait): wall %.1f s, CPU %.1f s, %.3f ms/page; %s; pairs %+v\n",
		t1.Sub(t0).Seconds(), (cpu1 - cpu0).Seconds(), per(cpu1-cpu0), p1, p1.Pairs)
	fmt.Printf("idle work (Settle): wall %.1f s, CPU %.1f s, %.3f ms/page; pairs %+v\n",
		t2.Sub(t1).Seconds(), (cpu2 - cpu1).Seconds(), per(cpu2-cpu1), p2.Pairs)
	fmt.Printf("total: wall %.1f s, CPU %.1f s, %.3f ms/page\n", t2.Sub(t0).Seconds(), (cpu2 - cpu0).Seconds(), per(cpu2-cpu0))
	if fi, err := os.Stat(index.Path(*ws)); err == nil {
		fmt.Printf("index file: %.1f MB\n", float64(fi.Size())/1e6)
	}
}

// note adds a note of the workspace's index_log for each of the index's last rows, after
// every note the index applied; it returns how many.
func note(ctx context.Context, ws string, rows int) (int, error) {
	db, err := sql.Open("sqlite", "file:"+ws+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, `ATTACH ? AS x`, index.Path(ws)); err != nil {
		return 0, err
	}
	var after int64
	if err := db.QueryRowContext(ctx, `SELECT max((SELECT applied FROM x.index_state), coalesce((SELECT max(seq) FROM index_log), 0))`).Scan(&after); err != nil {
		return 0, err
	}
	res, err := db.ExecContext(ctx, `INSERT INTO index_log(seq, page_id, anchors)
		SELECT ? + row_number() OVER (ORDER BY id), id, 0 FROM (SELECT id FROM x.page_fts_docsize ORDER BY id DESC LIMIT ?)`, after, rows)
	if err != nil {
		return 0, err
	}
	k, err := res.RowsAffected()
	return int(k), err
}

// cpu is the process's user and system CPU time so far.
func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

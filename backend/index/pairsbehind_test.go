package index

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"mundaneum/backend/store/dbtest"
)

// pairsBehindFixture is a workspace whose pair index is built (words chosen from 300
// pages), then followed by a "crawl": 300 new pages, 100 pages fetched again with other
// text and 10 that no longer have a row (3 of them among the 100). The stage is never idle long enough for its idle
// work (MaintainDelay), so the pairs rows of what it writes are left missing.
func pairsBehindFixture(t *testing.T) *fixture {
	t.Helper()
	oldMin, oldStep, oldDelay := PairsMinRows, pairsStep, MaintainDelay
	PairsMinRows, pairsStep, MaintainDelay = 100, 20, time.Hour
	t.Cleanup(func() { PairsMinRows, pairsStep, MaintainDelay = oldMin, oldStep, oldDelay })
	f := newFixture(t)
	pg := func(i int, v string) page {
		body := fmt.Sprintf("the cat sat on the mat w%dx and then %s", i, v)
		if i%3 == 0 {
			body = fmt.Sprintf("on the cat the mat sat q%dq then and %s", i, v)
		}
		return page{url: fmt.Sprintf("http://a.test/p%d", i), title: "a title " + v, body: body}
	}
	var first []page
	for i := 1; i <= 300; i++ {
		first = append(first, pg(i, ""))
	}
	f.visit(first...)
	if err := f.idx.Settle(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if p := f.idx.Progress(context.Background()).Pairs; !p.Complete || p.Missing != 0 || p.Words < 8 {
		t.Fatalf("pair index built: %+v", p)
	}
	var crawl []page
	for i := 301; i <= 600; i++ {
		crawl = append(crawl, pg(i, ""))
	}
	for i := 1; i <= 100; i++ {
		crawl = append(crawl, pg(i*3-1, "then the cat")) // no new frequent words: a rebuild chooses the same
	}
	for i := 1; i <= 10; i++ {
		p := pg(i*7, "gone")
		p.noindex = true
		crawl = append(crawl, p)
	}
	f.visit(crawl...)
	f.wait()
	return f
}

// checkPairsRows checks that every row of the word index either has its pairs row (every
// page of the fixtures has frequent pairs) or is noted missing, never both, and that
// nothing else is noted; it returns the rows noted.
func checkPairsRows(t *testing.T, db *sql.DB) int {
	t.Helper()
	var rows, bad, missing int
	dbtest.Scan(t, db.QueryRow(`SELECT
		(SELECT count(*) FROM page_fts_docsize),
		(SELECT count(*) FROM page_fts_docsize d
			WHERE (d.id IN (SELECT id FROM page_pairs_docsize)) = (d.id IN (SELECT page_id FROM pair_missing))),
		(SELECT count(*) FROM pair_missing)`), &rows, &bad, &missing)
	var stray int
	dbtest.Scan(t, db.QueryRow(`SELECT
		(SELECT count(*) FROM pair_missing WHERE page_id NOT IN (SELECT id FROM page_fts_docsize)) +
		(SELECT count(*) FROM page_pairs_docsize WHERE id NOT IN (SELECT id FROM page_fts_docsize))`), &stray)
	if bad != 0 || stray != 0 {
		t.Fatalf("%d of %d rows have both or neither a pairs row and a note; %d pairs rows or notes without a row", bad, rows, stray)
	}
	return missing
}

// checkTotals checks FTS5's averages records against the rows there are (see totals.go).
func checkTotals(t *testing.T, db *sql.DB) {
	t.Helper()
	for _, table := range []string{"page_fts", "page_pairs"} {
		var block []byte
		dbtest.Scan(t, db.QueryRow(`SELECT block FROM `+table+`_data WHERE id = 1`), &block)
		rows, err := db.Query(`SELECT sz FROM ` + table + `_docsize`)
		if err != nil {
			t.Fatal(err)
		}
		var want totals
		for rows.Next() {
			var sz []byte
			if err := rows.Scan(&sz); err != nil {
				t.Fatal(err)
			}
			want.addSizes(sz)
		}
		rows.Close()
		got := decodeVarints(block)
		if len(got) != 6 || got[0] != want.Rows || [5]int64(got[1:]) != want.Cols {
			t.Fatalf("%s's averages record: %v, the rows sum to %+v", table, got, want)
		}
	}
}

// TestPairsBehindCrawl: rows written while the stage follows a crawl lack their pairs rows
// and are noted, in the same transactions; search is told the pair index is incomplete and
// Progress how far behind it is; the idle work writes them, and the index is then the one
// a rebuild makes, totals included.
func TestPairsBehindCrawl(t *testing.T) {
	f := pairsBehindFixture(t)
	ctx := context.Background()
	missing := checkPairsRows(t, f.idx.SearchDB())
	// The 300 new pages and the 97 fetched again that still have a row: written without
	// their pairs rows.
	if missing != 397 {
		t.Fatalf("%d rows noted missing their pairs rows, want 397", missing)
	}
	if complete, err := PairsComplete(ctx, f.idx.SearchDB()); err != nil || complete {
		t.Fatalf("PairsComplete with rows missing: %v %v", complete, err)
	}
	if p := f.idx.Progress(ctx).Pairs; p.Complete || p.Missing != 397 || p.Done != 590-397 || p.Total != 590 {
		t.Fatalf("progress with rows missing: %+v", p)
	}
	checkTotals(t, f.idx.SearchDB())
	// A batch that only takes a row away (a page now noindex, with its pairs row, none
	// noted missing) still moves the progress's total.
	p3 := page{url: "http://a.test/p3", title: "a title ", body: "on the cat the mat sat q3q then and ", noindex: true}
	f.visit(p3)
	f.wait()
	if p := f.idx.Progress(ctx).Pairs; p.Missing != 397 || p.Total != 589 || p.Done != 589-397 {
		t.Fatalf("progress after a row was taken away: %+v", p)
	}
	// What another process (read-only) sees.
	ro := openReadOnly(t, f.path)
	if p := ro.Progress(ctx).Pairs; p.Complete || p.Missing != 397 {
		t.Fatalf("read-only progress with rows missing: %+v", p)
	}
	ro.Close()
	if err := f.idx.Settle(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if n := checkPairsRows(t, f.idx.SearchDB()); n != 0 {
		t.Fatalf("%d rows still missing after Settle", n)
	}
	if complete, err := PairsComplete(ctx, f.idx.SearchDB()); err != nil || !complete {
		t.Fatalf("PairsComplete after Settle: %v %v", complete, err)
	}
	if p := f.idx.Progress(ctx).Pairs; !p.Complete || p.Missing != 0 || p.Done != 589 {
		t.Fatalf("progress after Settle: %+v", p)
	}
	checkTotals(t, f.idx.SearchDB())
	var n int
	dbtest.Scan(t, f.idx.SearchDB().QueryRow(`SELECT count(*) FROM page_pairs WHERE page_pairs MATCH '"cat0sat sat0on"'`), &n)
	if want := len(f.match(`"cat sat on"`)); n != want || n < 300 {
		t.Fatalf("phrase in the pair index: %d pages, in the word index %d", n, want)
	}
	filled := snapshot(t, f.path)
	if err := f.idx.Rebuild(ctx, nil); err != nil {
		t.Fatal(err)
	}
	sameSnapshots(t, "filled vs rebuilt", filled, snapshot(t, f.path))
	// An index of the format before pair_missing (read while an older version writes it):
	// the pair index is not used, and search goes on.
	f.close()
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(Path(f.path))+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`DROP TABLE pair_missing`); err != nil {
		t.Fatal(err)
	}
	if complete, err := PairsComplete(ctx, db); err != nil || complete {
		t.Fatalf("PairsComplete without pair_missing: %v %v", complete, err)
	}
}

// TestPairsFillResumes stops the idle work in the middle of filling the missing pairs
// rows (the index closed, as a kill would, a step committed or not): nothing is lost, the
// notes stay right, and the fill finishes after reopening.
func TestPairsFillResumes(t *testing.T) {
	f := pairsBehindFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.idx.Settle(ctx, nil) }()
	deadline := time.Now().Add(time.Minute)
	for {
		var n int
		dbtest.Scan(t, f.idx.SearchDB().QueryRow(`SELECT count(*) FROM pair_missing`), &n)
		if n > 0 && n < 397 {
			break
		}
		if n == 0 || time.Now().After(deadline) {
			t.Fatalf("never caught the fill half done: %d missing", n)
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	<-done
	// Close the index while the stage may be in a step's transaction, and read the file as
	// the stop left it (a reopened index does its idle work at once: nothing has kept it
	// busy since it opened).
	f.close()
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(Path(f.path))+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	left := checkPairsRows(t, db)
	if left == 0 || left >= 397 {
		t.Fatalf("%d rows missing after the stop", left)
	}
	checkTotals(t, db)
	db.Close()
	f.open()
	if err := f.idx.Settle(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if n := checkPairsRows(t, f.idx.SearchDB()); n != 0 {
		t.Fatalf("%d rows still missing after resuming", n)
	}
	checkTotals(t, f.idx.SearchDB())
	filled := snapshot(t, f.path)
	if err := f.idx.Rebuild(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	sameSnapshots(t, "resumed vs rebuilt", filled, snapshot(t, f.path))
}

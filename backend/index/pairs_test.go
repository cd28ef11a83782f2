package index

import (
	"context"
	"fmt"
	"testing"
	"time"

	"mundaneum/backend/store/dbtest"
)

// TestPairIndexBuildResumes builds the pair index a step at a time, closes the workspace in
// the middle (as a kill would, after a committed step) and finishes after reopening: every
// row ends up with its pairs row, and the index is the one a rebuild makes.
func TestPairIndexBuildResumes(t *testing.T) {
	oldMin, oldStep := PairsMinRows, pairsStep
	PairsMinRows, pairsStep = 100, 20
	t.Cleanup(func() { PairsMinRows, pairsStep = oldMin, oldStep })
	f := newFixture(t)
	var ps []page
	for i := 1; i <= 600; i++ {
		body := fmt.Sprintf("the cat sat on the mat w%dx and then", i)
		if i%3 == 0 {
			body = fmt.Sprintf("on the cat the mat sat q%dq then and", i)
		}
		ps = append(ps, page{url: fmt.Sprintf("http://a.test/p%d", i), title: "a title", body: body})
	}
	f.visit(ps...)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.idx.Settle(ctx, nil) }()
	deadline := time.Now().Add(time.Minute)
	for {
		var builtTo int64
		var complete bool
		// No row yet until the build starts: an aggregate always gives one.
		dbtest.Scan(t, f.idx.SearchDB().QueryRow(`SELECT coalesce(max(built_to), 0), coalesce(max(complete), 0) FROM pair_state`),
			&builtTo, &complete)
		if builtTo > 0 && !complete {
			break
		}
		if complete || time.Now().After(deadline) {
			t.Fatalf("never caught the pair index half built: %d %v", builtTo, complete)
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	<-done
	f.reopen()
	if err := f.idx.Settle(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	p := f.idx.Progress(context.Background()).Pairs
	if !p.Complete || p.Words < 8 || p.Done != 600 {
		t.Fatalf("pair index after resuming: %+v", p)
	}
	var rows, pairRows int
	dbtest.Scan(t, f.idx.SearchDB().QueryRow(`SELECT (SELECT count(*) FROM page_fts_docsize), (SELECT count(*) FROM page_pairs_docsize)`), &rows, &pairRows)
	if rows != 600 || pairRows != 600 {
		t.Fatalf("%d rows, %d pairs rows", rows, pairRows)
	}
	if got := f.match(`"cat sat on"`); len(got) != 400 {
		t.Fatalf("phrase in the word index: %d pages", len(got))
	}
	var n int
	dbtest.Scan(t, f.idx.SearchDB().QueryRow(`SELECT count(*) FROM page_pairs WHERE page_pairs MATCH '"cat0sat sat0on"'`), &n)
	if n != 400 {
		t.Fatalf("phrase in the pair index: %d pages", n)
	}
	built := snapshot(t, f.path)
	if err := f.idx.Rebuild(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	sameSnapshots(t, "resumed vs rebuilt", built, snapshot(t, f.path))
}

package store

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// frontierRows counts a crawl's frontier rows as the tables hold them.
func frontierRows(t testing.TB, st *Store, crawl int64) int {
	t.Helper()
	var n int
	if err := st.read.QueryRowContext(context.Background(), `SELECT count(*) FROM frontier WHERE crawl_id = ?`, crawl).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A resumed crawl (the process killed, the workspace opened again) gets its URLs back from
// the workspace: links to pages it queued before are not queued again, links to new ones
// are, and the page ids are the tables'.
func TestCrawlSetResumesFromWorkspace(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.mundaneum")
	st, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	id := newCrawl(t, st)
	var ts []Target
	for i := range 50 {
		ts = append(ts, target(fmt.Sprintf("http://a.test/p%d", i), 1, 0))
	}
	skipped := Target{URL: "http://b.test/off", Origin: "http://b.test", Kind: "a", Skip: "scope"}
	if added, err := st.Enqueue(ctx, id, append(ts, skipped)); err != nil || added != 50 {
		t.Fatalf("added %d, %v", added, err)
	}
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.StartRun(ctx, id, []byte(`{}`), false); err != nil {
		t.Fatal(err)
	}
	more := append(ts[:0:0], ts...)
	more = append(more, skipped, target("http://a.test/new", 1, 0))
	added, err := st.Enqueue(ctx, id, more)
	if err != nil || added != 1 {
		t.Fatalf("after resume added %d, %v; want 1 (only the new page)", added, err)
	}
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if n := frontierRows(t, st, id); n != 51 {
		t.Fatalf("frontier rows %d, want 51", n)
	}
	// The set was loaded from the workspace with the pages and their frontier rows.
	set := st.ids.sets.crawls[id]
	if set == nil {
		t.Fatal("no set for the resumed crawl")
	}
	for i, tg := range append(ts, skipped) {
		got, queued, ok := st.ids.sets.get(set, tg.URL)
		var want int64
		if err := st.read.QueryRowContext(ctx, `SELECT id FROM pages WHERE url = ?`, tg.URL).Scan(&want); err != nil {
			t.Fatal(err)
		}
		if !ok || got != want || queued != (i < 50) {
			t.Fatalf("%s: set has %d queued %v ok %v, table %d", tg.URL, got, queued, ok, want)
		}
	}
}

// Two crawls in one workspace share pages but not frontiers: a page one crawl queued is
// queued by the other when it links to it too.
func TestCrawlSetPerCrawl(t *testing.T) {
	ctx := context.Background()
	st := openTest(t)
	a, b := newCrawl(t, st), newCrawl(t, st)
	ts := []Target{target("http://a.test/x", 1, 0), target("http://a.test/y", 1, 0)}
	for round := range 2 { // the second round runs from the sets
		for _, c := range []int64{a, b} {
			added, err := st.Enqueue(ctx, c, ts)
			want := 2
			if round == 1 {
				want = 0
			}
			if err != nil || added != want {
				t.Fatalf("round %d crawl %d: added %d, %v; want %d", round, c, added, err, want)
			}
			if err := st.Writer().Flush(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	if frontierRows(t, st, a) != 2 || frontierRows(t, st, b) != 2 {
		t.Fatalf("frontiers %d and %d, want 2 each", frontierRows(t, st, a), frontierRows(t, st, b))
	}
}

// A fresh run empties the crawl's frontier; its seeds must enter the queue again, though
// the set had them queued. (StartRun commits before it returns; with an hour's batch the
// enqueue after it still runs before any other commit.)
func TestCrawlSetFreshRunInOneBatch(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(t.TempDir(), "w.mundaneum"), Options{BatchDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	id := newCrawl(t, st)
	seed := []Target{target("http://a.test/", 0, 0)}
	if added, err := st.Enqueue(ctx, id, seed); err != nil || added != 1 {
		t.Fatalf("added %d, %v", added, err)
	}
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if added, err := st.Enqueue(ctx, id, seed); err != nil || added != 0 { // from the set
		t.Fatalf("again: added %d, %v", added, err)
	}
	if err := st.StartRun(ctx, id, []byte(`{}`), true); err != nil {
		t.Fatal(err)
	}
	if added, err := st.Enqueue(ctx, id, seed); err != nil || added != 1 {
		t.Fatalf("after a fresh start in the same batch: added %d, %v; want 1", added, err)
	}
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if n := frontierRows(t, st, id); n != 1 {
		t.Fatalf("frontier rows %d, want 1", n)
	}
}

// A key whose check bits differ is a collision: the set answers "unknown" and keeps the
// URL it had.
func TestCrawlSetCollision(t *testing.T) {
	var c crawlSets
	c.init()
	set := &crawlSet{m: map[uint64]uint64{}}
	c.put(set, "http://a.test/1", 7, true)
	key, check := c.hash("http://a.test/1")
	if id, q, ok := c.get(set, "http://a.test/1"); !ok || id != 7 || !q {
		t.Fatalf("get = %d %v %v", id, q, ok)
	}
	set.m[key] = (check^1)<<(setIDBits+1) | 7<<1 | 1 // another URL with the same key
	if _, _, ok := c.get(set, "http://a.test/1"); ok {
		t.Fatal("a colliding entry was taken for the URL")
	}
	c.put(set, "http://a.test/1", 9, false)
	if set.m[key]>>1&(1<<setIDBits-1) != 7 {
		t.Fatal("a colliding put replaced the entry")
	}
	// Ids beyond the bits kept, and the bound, leave URLs out.
	c.put(set, "http://a.test/big", 1<<setIDBits, false)
	if _, _, ok := c.get(set, "http://a.test/big"); ok {
		t.Fatal("an id too large was kept")
	}
	c.n = setMax
	c.put(set, "http://a.test/over", 3, false)
	if _, _, ok := c.get(set, "http://a.test/over"); ok {
		t.Fatal("a URL over the bound was kept")
	}
}

// BenchmarkCrawlSetLoad loads the set of a crawl of 100,000 URLs (its frontier and pages),
// as a resumed crawl does at its first write, and reports the bytes a URL costs.
//
//	CGO_ENABLED=0 go test -run '^$' -bench CrawlSetLoad -benchtime 5x ./backend/store/
func BenchmarkCrawlSetLoad(b *testing.B) {
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(b.TempDir(), "w.mundaneum"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	c, err := st.CreateCrawl(ctx, "key", []string{"http://a.test/"}, "site", []byte(`{}`))
	if err != nil {
		b.Fatal(err)
	}
	id := c.ID
	const urls = 100_000
	for lo := 0; lo < urls; lo += 1000 {
		var ts []Target
		for i := lo; i < lo+1000; i++ {
			tg := target(fmt.Sprintf("http://a.test/section-%d/page-%d.html", i%97, i), 2, 0)
			tg.Follow = i%4 != 0
			tg.Skip = "scope"
			ts = append(ts, tg)
		}
		if _, err := st.Enqueue(ctx, id, ts); err != nil {
			b.Fatal(err)
		}
	}
	if err := st.Writer().Flush(ctx); err != nil {
		b.Fatal(err)
	}
	var before, after runtime.MemStats
	b.ResetTimer()
	for range b.N {
		st.ids.sets = crawlSets{}
		st.ids.sets.init()
		runtime.GC()
		runtime.ReadMemStats(&before)
		set, err := st.loadCrawlSet(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		if len(set.m) != urls {
			b.Fatalf("loaded %d urls, want %d", len(set.m), urls)
		}
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/urls, "B/url")
		runtime.KeepAlive(set)
		b.StartTimer()
	}
}

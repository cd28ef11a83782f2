package store

import (
	"context"
	"strings"
	"testing"
)

func newCrawl(t *testing.T, st *Store) int64 {
	t.Helper()
	ctx := context.Background()
	c, err := st.CreateCrawl(ctx, "key", []string{"http://a.test/"}, "site", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.StartRun(ctx, c.ID, []byte(`{}`), true); err != nil {
		t.Fatal(err)
	}
	return c.ID
}

func target(url string, depth, prio int) Target {
	origin := url[:strings.Index(url[8:], "/")+8]
	return Target{URL: url, Origin: origin, Kind: "a", Follow: true, Depth: depth, Priority: prio}
}

func TestLeaseOrderAndResume(t *testing.T) {
	ctx := context.Background()
	st := openTest(t)
	id := newCrawl(t, st)
	added, err := st.Enqueue(ctx, id, []Target{
		target("http://a.test/deep", 3, 0),
		target("http://a.test/shallow", 1, 0),
		target("http://b.test/newhost", 2, 1),
		target("http://a.test/shallow2", 1, 0),
		target("http://a.test/shallow", 1, 0), // already queued
	})
	if err != nil || added != 4 {
		t.Fatalf("added = %d, %v", added, err)
	}
	ls, err := st.Lease(ctx, id, 3)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range ls {
		got = append(got, l.URL)
	}
	want := "http://b.test/newhost http://a.test/shallow http://a.test/shallow2"
	if strings.Join(got, " ") != want {
		t.Fatalf("lease order = %v, want %s", got, want)
	}
	if ls[0].Origin != "http://b.test" || ls[0].State != StateQueued {
		t.Fatalf("lease = %+v", ls[0])
	}
	// A restart (StartRun without fresh) returns leased pages to the queue.
	if err := st.StartRun(ctx, id, []byte(`{}`), false); err != nil {
		t.Fatal(err)
	}
	ls, _ = st.Lease(ctx, id, 10)
	if len(ls) != 4 {
		t.Fatalf("after restart leased %d, want 4", len(ls))
	}
	c, _ := st.Crawl(ctx, id)
	if c.Queued != 4 {
		t.Fatalf("queued = %d", c.Queued)
	}
}

func TestSaveResultIndexesDedupsAndLinks(t *testing.T) {
	ctx := context.Background()
	st := openTest(t)
	id := newCrawl(t, st)
	st.Enqueue(ctx, id, []Target{target("http://a.test/", 0, 1), target("http://a.test/copy", 0, 0)})
	ls, _ := st.Lease(ctx, id, 10)
	home, cp := ls[0], ls[1]
	res := &Result{CrawlID: id, PageID: home.PageID, URL: home.URL, State: StateFetched, Status: 200,
		ContentType: "text/html", Hash: "h1", Blob: []byte("zzz"), Codec: "zstd", Size: 3, WireBytes: 100,
		Doc:          &Doc{Title: "Otlet's \uE000Mundaneum", Text: "a card index of all knowledge", Problems: []string{"no-title"}},
		ReplaceLinks: true,
		Links: []Target{
			{URL: "http://a.test/about", Origin: "http://a.test", Kind: "a", Anchor: "about the index", Follow: true, Depth: 1},
			{URL: "http://a.test/logo.png", Origin: "http://a.test", Kind: "img", Anchor: "logo", Skip: "type", Depth: 1},
			{URL: "http://elsewhere.test/", Origin: "http://elsewhere.test", Kind: "a", Anchor: "elsewhere", Skip: "scope", Depth: 1},
		}}
	out, err := st.SaveResult(ctx, res)
	if err != nil {
		t.Fatal(err)
	}
	if out.Queued != 1 || out.DuplicateOf != 0 {
		t.Fatalf("outcome = %+v", out)
	}
	// The same content under another URL is stored once and marked duplicate, not indexed.
	res2 := *res
	res2.PageID, res2.URL, res2.Links = cp.PageID, cp.URL, nil
	out, err = st.SaveResult(ctx, &res2)
	if err != nil || out.DuplicateOf != home.PageID {
		t.Fatalf("duplicate outcome = %+v, %v", out, err)
	}
	st.Writer().Flush(ctx)
	var blobs, fts, links int
	var title, skipReason string
	db := st.ReadDB()
	db.QueryRow(`SELECT count(*) FROM blobs`).Scan(&blobs)
	db.QueryRow(`SELECT count(*) FROM page_fts`).Scan(&fts)
	db.QueryRow(`SELECT count(*) FROM links WHERE from_id=?`, home.PageID).Scan(&links)
	db.QueryRow(`SELECT title FROM page_fts WHERE rowid=?`, home.PageID).Scan(&title)
	db.QueryRow(`SELECT reason FROM pages WHERE url='http://elsewhere.test/'`).Scan(&skipReason)
	if blobs != 1 || fts != 1 || links != 3 || title != "Otlet's Mundaneum" || skipReason != "scope" {
		t.Fatalf("blobs=%d fts=%d links=%d title=%q reason=%q", blobs, fts, links, title, skipReason)
	}
	c, _ := st.Counts(ctx)
	if c.Pages[StateFetched] != 2 || c.Pages[StateQueued] != 1 || c.Pages[StateSkipped] != 2 {
		t.Fatalf("counts = %+v", c.Pages)
	}

	// /about is fetched and cites home: home's incoming anchor text is refreshed.
	ls, _ = st.Lease(ctx, id, 10)
	if len(ls) != 1 || ls[0].URL != "http://a.test/about" {
		t.Fatalf("leased %+v", ls)
	}
	about := &Result{CrawlID: id, PageID: ls[0].PageID, URL: ls[0].URL, State: StateFetched, Status: 200,
		Hash: "h2", Doc: &Doc{Title: "About"}, ReplaceLinks: true,
		Links: []Target{{URL: "http://a.test/", Origin: "http://a.test", Kind: "a", Anchor: "world encyclopaedia", Follow: true, Depth: 2}}}
	if out, err := st.SaveResult(ctx, about); err != nil || out.Queued != 0 {
		t.Fatalf("about: %+v %v", out, err)
	}
	if n, err := st.RefreshAnchors(ctx, 10); err != nil || n != 1 {
		t.Fatalf("refresh anchors = %d, %v", n, err)
	}
	st.Writer().Flush(ctx)
	var hits int
	db.QueryRow(`SELECT count(*) FROM page_fts WHERE page_fts MATCH 'anchors:encyclopaedia'`).Scan(&hits)
	if hits != 1 {
		t.Fatalf("anchor hits = %d", hits)
	}
	// A 404 on refresh removes the page from the index but keeps its row.
	gone := &Result{CrawlID: id, PageID: home.PageID, URL: home.URL, State: StateFailed, Reason: "not-found", Status: 404}
	if _, err := st.SaveResult(ctx, gone); err != nil {
		t.Fatal(err)
	}
	st.Writer().Flush(ctx)
	db.QueryRow(`SELECT count(*) FROM page_fts WHERE rowid=?`, home.PageID).Scan(&hits)
	if hits != 0 {
		t.Fatal("a page that is gone is still indexed")
	}
}

// Refreshing the anchor text of many pages commits as it goes: each refresh rewrites a whole
// index row, and counts so against the batch's text budget (issue 18: 95,000 of them went
// into one 20-minute commit, and the crawl reported nothing meanwhile).
func TestAnchorRefreshesEndBatches(t *testing.T) {
	st := openTest(t)
	n := 0
	for id := int64(1); !st.indexFull(); id++ {
		st.queueAnchors(id)
		st.queueAnchors(id) // the same page twice costs once
		n++
		if n > maxQueuedText {
			t.Fatal("anchor refreshes never fill a batch")
		}
	}
	if n > 4096 {
		t.Errorf("%d anchor refreshes fit in one batch", n)
	}
	st.resetIndex()
}

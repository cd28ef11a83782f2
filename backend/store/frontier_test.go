package store

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"mundaneum/backend/store/dbtest"
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
			{URL: "http://a.test/logo.png", Origin: "http://a.test", Kind: "img", Anchor: "logo", Skip: "type", Resource: true, Depth: 1},
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
	var blobs, texts, links int
	var skipReason string
	db := st.ReadDB()
	dbtest.Scan(t, db.QueryRow(`SELECT count(*) FROM blobs`), &blobs)
	dbtest.Scan(t, db.QueryRow(`SELECT count(*) FROM page_text`), &texts)
	dbtest.Scan(t, db.QueryRow(`SELECT count(*) FROM links WHERE from_id=?`, home.PageID), &links)
	dbtest.Scan(t, db.QueryRow(`SELECT reason FROM pages WHERE url='http://elsewhere.test/'`), &skipReason)
	if blobs != 1 || texts != 1 || links != 3 || skipReason != "scope" {
		t.Fatalf("blobs=%d texts=%d links=%d reason=%q", blobs, texts, links, skipReason)
	}
	// The text is stored once, cleaned; the duplicate shows its original's.
	for _, id := range []int64{home.PageID, cp.PageID} {
		if text, err := st.Text(ctx, id); err != nil || text.Title != "Otlet's Mundaneum" || text.Body != "a card index of all knowledge" {
			t.Fatalf("text of %d = %+v, %v", id, text, err)
		}
	}
	c, _ := st.Counts(ctx)
	// The other site and the logo: links recorded, not pages.
	if c.Pages[StateFetched] != 2 || c.Pages[StateQueued] != 1 || c.Pages[StateSkipped] != 0 || c.Pages[Recorded] != 2 {
		t.Fatalf("counts = %+v", c.Pages)
	}
	logo, _ := st.PageID(ctx, "http://a.test/logo.png")
	checkLog(t, st, map[int64]bool{home.PageID: false, cp.PageID: false, logo: false})

	// /about is fetched and cites home: home's incoming anchor text changed.
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
	st.Writer().Flush(ctx)
	checkLog(t, st, map[int64]bool{home.PageID: true, ls[0].PageID: false})
	in, err := st.IndexInputs(ctx, []int64{home.PageID, cp.PageID, logo, ls[0].PageID})
	if err != nil {
		t.Fatal(err)
	}
	want := []IndexInput{
		{ID: home.PageID, Kind: IndexedText, URL: "http://a.test/", Anchors: "world encyclopaedia",
			Text: PageText{Title: "Otlet's Mundaneum", Body: "a card index of all knowledge"}},
		{ID: cp.PageID, URL: "http://a.test/copy"},
		{ID: logo, Kind: IndexedResource, URL: "http://a.test/logo.png", Anchors: "logo", Citers: "Otlet's \uE000Mundaneum"},
		{ID: ls[0].PageID, Kind: IndexedText, URL: "http://a.test/about", Anchors: "about the index", Text: PageText{Title: "About"}},
	}
	if !reflect.DeepEqual(in, want) {
		t.Fatalf("index inputs:\n%+v\nwant\n%+v", in, want)
	}
	// A 404 on refresh takes the page out of the index but keeps its row and text.
	gone := &Result{CrawlID: id, PageID: home.PageID, URL: home.URL, State: StateFailed, Reason: "not-found", Status: 404}
	if _, err := st.SaveResult(ctx, gone); err != nil {
		t.Fatal(err)
	}
	st.Writer().Flush(ctx)
	checkLog(t, st, map[int64]bool{home.PageID: false})
	if in, err := st.IndexInputs(ctx, []int64{home.PageID}); err != nil || in[0].Kind != NotIndexed {
		t.Fatalf("a page that is gone is still indexable: %+v %v", in, err)
	}
}

// checkLog checks the index log's notes since the last call (page -> anchors only).
func checkLog(t *testing.T, st *Store, want map[int64]bool) {
	t.Helper()
	ctx := context.Background()
	// The notes about link targets come with the links' expansion (linkpack.go).
	if err := st.ExpandLinks(ctx); err != nil {
		t.Fatal(err)
	}
	es, err := st.IndexLog(ctx, lastChecked[st], 1000)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]bool{}
	for _, e := range es {
		got[e.PageID] = e.AnchorsOnly
		lastChecked[st] = e.Seq
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("index log = %v, want %v", got, want)
	}
}

var lastChecked = map[*Store]int64{}

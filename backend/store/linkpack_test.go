package store

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"mundaneum/backend/store/dbtest"
)

// TestLinksWhileExpansionLags checks that every reader of links sees a page's links and
// its citations the same before their pack is expanded and after: the page view's counts
// and lists, the stored links a refresh follows, and the workspace's counts.
func TestLinksWhileExpansionLags(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(t.TempDir(), "w.mundaneum"), Options{HoldLinks: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cr, err := st.CreateCrawl(ctx, "k", []string{"http://a.test/"}, "site", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	tg := func(path, kind, anchor string, pos int) Target {
		return Target{URL: "http://a.test" + path, Origin: "http://a.test", Kind: kind, Anchor: anchor, Follow: kind == "a", Pos: pos}
	}
	if _, err := st.Enqueue(ctx, cr.ID, []Target{tg("/", "seed", "", 0)}); err != nil {
		t.Fatal(err)
	}
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	id := func(path string) int64 {
		id, err := st.PageID(ctx, "http://a.test"+path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return id
	}
	save := func(path string, links ...Target) {
		if _, err := st.SaveResult(ctx, &Result{CrawlID: cr.ID, PageID: id(path), URL: "http://a.test" + path,
			State: StateFetched, Status: 200, Hash: "h" + path, Blob: []byte{1}, Codec: "zstd",
			Doc: &Doc{Title: "T" + path}, Links: links, ReplaceLinks: true}); err != nil {
			t.Fatal(err)
		}
		if err := st.Writer().Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// / links to /x (twice, by a and img, and once more by a: kept once), to itself, to
	// /y with an awkward anchor; /x links back to / and on to /y. /y is then fetched with
	// no links, and / is fetched again with other links (its expanded rows replaced).
	save("/", tg("/x", "a", "ex", 1), tg("/x", "img", "", 2), tg("/x", "a", "again", 3), tg("/", "a", "self", 4),
		tg("/y", "a", "quote \" back\\slash \x01 \xff é", 5))
	type view struct {
		Links    [3][]Link
		Out, In  [3][]LinkRef
		Inlinks  [3]int
		Outlinks [3]int
		Count    int64
		Pending  int64
	}
	look := func() view {
		var v view
		for i, p := range []string{"/", "/x", "/y"} {
			var err error
			if v.Links[i], err = st.Links(ctx, id(p)); err != nil {
				t.Fatal(err)
			}
			if v.Out[i], err = st.Outlinks(ctx, id(p), 100); err != nil {
				t.Fatal(err)
			}
			if v.In[i], err = st.Inlinks(ctx, id(p), 100); err != nil {
				t.Fatal(err)
			}
			pg, err := st.Page(ctx, id(p))
			if err != nil {
				t.Fatal(err)
			}
			v.Inlinks[i], v.Outlinks[i] = pg.Inlinks, pg.Outlinks
		}
		c, err := st.Counts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		v.Count = c.Links
		return v
	}
	steps := []func(){
		func() { save("/x", tg("/", "a", "home", 1), tg("/y", "a", "why", 2)) },
		func() { save("/y") },
		func() { save("/", tg("/y", "a", "now", 1), tg("/x", "img", "", 2)) },
	}
	for i := 0; ; i++ {
		packed := look()
		if n, err := st.PendingLinks(ctx); err != nil || n != []int64{1, 1, 0, 1}[i] {
			t.Fatalf("step %d: %d pages with links waiting, %v", i, n, err)
		}
		if err := st.ExpandLinks(ctx); err != nil {
			t.Fatal(err)
		}
		expanded := look()
		if n, err := st.PendingLinks(ctx); err != nil || n != 0 {
			t.Fatalf("step %d: %d pages with links waiting after the expansion, %v", i, n, err)
		}
		if !reflect.DeepEqual(packed, expanded) {
			t.Fatalf("step %d: readers differ while packed:\n%+v\nexpanded:\n%+v", i, packed, expanded)
		}
		if i == 0 {
			want := []Link{{URL: "http://a.test/x", Origin: "http://a.test", Kind: "a", Anchor: "ex"},
				{URL: "http://a.test/x", Origin: "http://a.test", Kind: "img"},
				{URL: "http://a.test/", Origin: "http://a.test", Kind: "a", Anchor: "self"},
				{URL: "http://a.test/y", Origin: "http://a.test", Kind: "a", Anchor: "quote \" back\\slash \x01 \uFFFD é"}}
			if !reflect.DeepEqual(expanded.Links[0], want) {
				t.Fatalf("links of / = %+v, want %+v", expanded.Links[0], want)
			}
		}
		if i == len(steps) {
			break
		}
		steps[i]()
	}
	var rows int
	dbtest.Scan(t, st.ReadDB().QueryRow(`SELECT count(*) FROM link_rows`), &rows)
	if rows != 4 { // / -> /y, /x (img); /x -> /, /y
		t.Fatalf("%d link rows at the end, want 4", rows)
	}
	checkCounts(t, st)
}

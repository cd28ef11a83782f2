package archive

import (
	"context"
	"net/http/httptest"
	"testing"

	"mundaneum/backend/crawl"
	"mundaneum/backend/store"
)

// orphans counts versions and pages whose body is gone: pruning must never make one.
func orphans(t *testing.T, st *store.Store) int {
	t.Helper()
	var n int
	if err := st.ReadDB().QueryRow(`SELECT (SELECT count(*) FROM versions v WHERE NOT EXISTS (SELECT 1 FROM blobs b WHERE b.hash = v.hash))
		+ (SELECT count(*) FROM pages p WHERE p.hash IS NOT NULL AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.hash = p.hash))`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A crawl's own retention overrides the workspace's for its pages, and a body that a page
// of another crawl still names survives any pruning.
func TestCrawlRetentionOverridesWorkspace(t *testing.T) {
	ctx := context.Background()
	const shared = `<title>Shared</title><p>words that two sites carry</p>`
	x := newSite(map[string]string{"/": `<title>X</title><a href="a.html">a</a>`, "/a.html": `<title>XA</title><p>first x</p>`})
	y := newSite(map[string]string{"/": `<title>Y</title><a href="a.html">a</a>`, "/a.html": shared})
	xs, ys := httptest.NewServer(x), httptest.NewServer(y)
	defer xs.Close()
	defer ys.Close()
	st := openStore(t)
	cx := crawl.Config{Seeds: []string{xs.URL + "/"}, Scope: crawl.ScopeSite, Delay: 0}
	cy := crawl.Config{Seeds: []string{ys.URL + "/"}, Scope: crawl.ScopeSite, Delay: 0}
	px := runCrawl(t, st, cx)
	py := runCrawl(t, st, cy)
	// X's page comes to hold what Y's page held, and Y's page changes: Y's old body is X's now.
	x.set("/a.html", shared)
	y.set("/a.html", `<title>YA</title><p>second y</p>`)
	cx.Refresh, cy.Refresh = true, true
	runCrawl(t, st, cx)
	runCrawl(t, st, cy)
	xa, ya := xs.URL+"/a.html", ys.URL+"/a.html"
	if len(versions(t, st, xa)) != 2 || len(versions(t, st, ya)) != 2 {
		t.Fatalf("setup: %d and %d versions", len(versions(t, st, xa)), len(versions(t, st, ya)))
	}

	if _, err := st.SetCrawlRetention(ctx, px.CrawlID, &store.Retention{Keep: store.KeepAll}); err != nil {
		t.Fatal(err)
	}
	p, err := st.SetRetention(ctx, store.Retention{Keep: store.KeepNone})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(versions(t, st, xa)); n != 2 {
		t.Errorf("crawl X keeps all, its page has %d versions", n)
	}
	if n := len(versions(t, st, ya)); n != 1 {
		t.Errorf("crawl Y follows the workspace (none), its page has %d versions", n)
	}
	if p.Versions != 1 || p.Bodies != 0 {
		t.Errorf("prune %+v: Y's old body is X's page's now, it stays", p)
	}
	if o := orphans(t, st); o != 0 {
		t.Fatalf("%d versions or pages lost their body", o)
	}
	h, err := st.CrawlHistoryUsage(ctx, px.CrawlID)
	if err != nil || h.Retention == nil || h.Retention.Keep != store.KeepAll || h.Versions < 3 || h.Bytes <= 0 {
		t.Errorf("crawl X's history %+v %v", h, err)
	}
	if r, err := st.CrawlRetention(ctx, py.CrawlID); err != nil || r != nil {
		t.Errorf("crawl Y's own setting %+v %v", r, err)
	}

	// A new version under a crawl's "last 2": the oldest goes at once.
	if _, err := st.SetCrawlRetention(ctx, px.CrawlID, &store.Retention{Keep: store.KeepLast, Last: 2}); err != nil {
		t.Fatal(err)
	}
	x.set("/a.html", `<title>XA</title><p>third x</p>`)
	runCrawl(t, st, cx)
	vs := versions(t, st, xa)
	if len(vs) != 2 || !vs[1].Current {
		t.Errorf("under last 2, after a third version: %+v", vs)
	}

	// Back to the workspace's setting: the crawl's pages are pruned to it.
	p, err = st.SetCrawlRetention(ctx, px.CrawlID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(versions(t, st, xa)); n != 1 || p.Versions != 1 {
		t.Errorf("back to the workspace's none: %d versions, prune %+v", n, p)
	}
	if o := orphans(t, st); o != 0 {
		t.Fatalf("%d versions or pages lost their body", o)
	}
	if _, err := st.SetCrawlRetention(ctx, 999, nil); err == nil {
		t.Error("a crawl that does not exist")
	}
	if _, err := st.SetCrawlRetention(ctx, px.CrawlID, &store.Retention{Keep: store.KeepLast}); err == nil {
		t.Error("last 0 is not a setting")
	}
}

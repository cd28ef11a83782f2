package store_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"mundaneum/backend/crawl"
	"mundaneum/backend/index"
	"mundaneum/backend/store"
)

// splitSite is a small site as a documentation site is: pages that link to a style sheet, a
// script, an image, a video, another site and one another; a part robots.txt forbids; a
// chain deeper than the crawl's depth limit.
func splitSite(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt":
			w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
			return
		case r.URL.Path == "/" || strings.HasPrefix(r.URL.Path, "/p/") || strings.HasPrefix(r.URL.Path, "/deep/"):
		default:
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		var b strings.Builder
		fmt.Fprintf(&b, `<!doctype html><link rel="stylesheet" href="/style.css"><script src="/app.js"></script>
			<title>page %s</title><p>words about %s</p><img src="/figure.png" alt="a figure">
			<a href="/talk.mp4">the talk</a> <a href="http://elsewhere.test/">another site</a>`, r.URL.Path, r.URL.Path)
		if r.URL.Path == "/" {
			for i := range 4 {
				fmt.Fprintf(&b, `<a href="/p/%d">page %d</a>`, i, i)
			}
			b.WriteString(`<a href="/private/secret">private</a> <a href="/deep/1">deeper</a>`)
		}
		if n, ok := strings.CutPrefix(r.URL.Path, "/deep/"); ok {
			fmt.Fprintf(&b, `<a href="/deep/%s0">deeper</a>`, n)
		}
		w.Write([]byte(b.String()))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestCountsName the parts of a crawl's rows one way in every count: the workspace's, the
// crawl's, its page list by state, and the search index's rows, and a rebuilt index holds
// the rows the crawl's index held (it used to index style sheets and scripts too).
func TestCountsNameTheParts(t *testing.T) {
	srv := splitSite(t)
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	idx, err := index.Open(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	cr, err := crawl.Open(ctx, st, idx, crawl.Config{Seeds: []string{srv.URL + "/"}, Scope: crawl.ScopeSite,
		PerHost: 4, Delay: 0, MaxDepth: 2})
	if err != nil {
		t.Fatal(err)
	}
	p, err := cr.Run(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Fetched: the home page, its four pages, /deep/1 and /deep/10 (depth 2).
	const fetched = 7
	// Links recorded, not pages: the style sheet, the script, the image, the video (not
	// HTML) and the other site (out of scope).
	const recorded = 5
	// Skipped pages: /private/secret (robots.txt) and /deep/100 (beyond the depth).
	const skipped = 2
	// Files known from links that a page cites: the image and the video, not the style
	// sheet nor the script.
	const resources = 2
	want := map[string]int64{store.StateFetched: fetched, store.Recorded: recorded, store.StateSkipped: skipped,
		store.StateFailed: 0, store.StateQueued: 0, store.StateRedirected: 0}
	if !mapsEqual(p.Pages, want) {
		t.Errorf("the run's last progress counts %v, want %v", p.Pages, want)
	}
	c, err := st.Counts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !mapsEqual(c.Pages, want) || c.Resources != resources {
		t.Errorf("Counts = %v with %d files known from links, want %v and %d", c.Pages, c.Resources, want, resources)
	}
	got, sum := store.CheckCounts(t, st) // against a recount the slow way
	if sum == 0 || !mapsEqual(got.Pages, want) {
		t.Errorf("recount = %v", got.Pages)
	}
	crawls, err := st.Crawls(ctx)
	if err != nil || len(crawls) != 1 {
		t.Fatal(crawls, err)
	}
	if !mapsEqual(crawls[0].Pages, want) {
		t.Errorf("the crawl's counts = %v, want %v", crawls[0].Pages, want)
	}
	// The crawl's page list by state lists what the counts count.
	for state, n := range want {
		list, total, err := st.CrawlPages(ctx, crawls[0].ID, state, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		if int64(total) != n || int64(len(list)) != n {
			t.Errorf("pages %s: %d listed, total %d, want %d", state, len(list), total, n)
		}
		for _, pg := range list {
			if state == store.Recorded && (pg.State != store.StateSkipped || !store.IsRecorded(pg.Reason)) ||
				state == store.StateSkipped && store.IsRecorded(pg.Reason) {
				t.Errorf("pages %s lists %s (%s, %s)", state, pg.URL, pg.State, pg.Reason)
			}
		}
	}
	reasons, err := st.SkipReasons(ctx, crawls[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if reasons["scope"] != 1 || reasons["type"] != 4 || reasons["robots"] != 1 || reasons["depth"] != 1 {
		t.Errorf("skip reasons = %v", reasons)
	}

	// The index holds the pages and the cited files: the same after a rebuild.
	if err := idx.Settle(ctx, nil); err != nil {
		t.Fatal(err)
	}
	rows := idx.Progress(ctx).Indexed
	if pages, files := c.Searchable(rows); pages != fetched || files != resources {
		t.Errorf("searchable: %d rows, %d pages and %d files, want %d and %d", rows, pages, files, fetched, resources)
	}
	if err := idx.Rebuild(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if again := idx.Progress(ctx).Indexed; again != rows {
		t.Errorf("the rebuilt index has %d rows, the crawl's had %d", again, rows)
	}
}

func mapsEqual(a, b map[string]int64) bool {
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	for k, v := range b {
		if a[k] != v {
			return false
		}
	}
	return true
}

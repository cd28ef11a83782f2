package store_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"mundaneum/backend/crawl"
	"mundaneum/backend/store"
)

// TestCountsAfterCrawl crawls a small site twice, its links changing in between, and checks
// the maintained counts and inlinks against a recount after each run.
func TestCountsAfterCrawl(t *testing.T) {
	const n = 40
	var gen atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var i int
		switch {
		case r.URL.Path == "/":
		case strings.HasPrefix(r.URL.Path, "/p/"):
			if _, err := fmt.Sscanf(r.URL.Path, "/p/%d", &i); err != nil || i < 0 || i >= n {
				http.NotFound(w, r)
				return
			}
		case r.URL.Path == "/gone":
			http.NotFound(w, r)
			return
		default:
			http.NotFound(w, r)
			return
		}
		g := int(gen.Load())
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		var b strings.Builder
		fmt.Fprintf(&b, "<!doctype html><title>page %d gen %d</title>", i, g)
		// Each page (the home page is page 0) links to itself, to a few others by text and
		// by image (two rows of one pair), and, in the first generation only, to the home
		// page and /gone. The refresh run replaces every page's links.
		fmt.Fprintf(&b, `<a href="/p/%d">me</a> <a href="#top">top</a>`, i)
		for k := 1; k <= 3-g; k++ {
			j := (i*(7-6*g) + k) % n // both generations reach every page from the home page
			fmt.Fprintf(&b, `<a href="/p/%d">p%d</a><img src="/p/%d" alt="p%d">`, j, j, j, j)
		}
		if g == 0 {
			b.WriteString(`<a href="/">home</a> <a href="/gone">gone</a>`)
		}
		w.Write([]byte(b.String()))
	}))
	t.Cleanup(srv.Close)

	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg := crawl.Config{Seeds: []string{srv.URL + "/"}, Scope: crawl.ScopeSite, PerHost: 4, Delay: 0}
	for run := range 2 {
		gen.Store(int64(run))
		c := cfg
		c.Refresh = run > 0
		cr, err := crawl.Open(ctx, st, nil, c)
		if err != nil {
			t.Fatal(err)
		}
		if p, err := cr.Run(ctx, nil); err != nil {
			t.Fatal(err)
		} else if p.Fetched < n {
			t.Fatalf("run %d fetched %d pages", run, p.Fetched)
		}
		got, sum := store.CheckCounts(t, st)
		if got.Pages[store.StateFetched] < n/2 || got.Links == 0 || sum == 0 || got.Hosts != 1 {
			t.Fatalf("run %d: the crawl stored too little: %+v, inlinks %d", run, got, sum)
		}
		var homeIn int64
		if err := st.ReadDB().QueryRow(`SELECT coalesce((SELECT n FROM citations WHERE page_id = p.id), 0) FROM pages p WHERE url = ?`, srv.URL+"/").Scan(&homeIn); err != nil {
			t.Fatal(err)
		}
		if want := map[int]bool{0: homeIn > 0, 1: homeIn == 0}; !want[run] {
			t.Errorf("run %d: inlinks of the home page = %d", run, homeIn)
		}
	}
}

package app

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"mundaneum/backend/store"
)

// TestStatusCountsAsTheStore: the window's status line, its Settings and the crawl's card
// show store.Counts' numbers: the links recorded apart from the pages skipped, and the
// search index's rows split into pages and files known from links.
func TestStatusCountsAsTheStore(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" && r.URL.Path != "/two" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<link rel="stylesheet" href="/s.css"><title>card %s</title><img src="/card.png" alt="a card">
			<a href="/two">two</a> <a href="http://elsewhere.test/">elsewhere</a>`, r.URL.Path)
	}))
	defer srv.Close()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan Crawl, 1)
	a.startup(context.Background(), func(name string, payload any) {
		if name == EventCrawlDone {
			done <- payload.(Crawl)
		}
	})
	defer a.shutdown()
	if _, err := a.StartCrawl(CrawlRequest{Seeds: []string{srv.URL + "/"}, Scope: "site"}); err != nil {
		t.Fatal(err)
	}
	var last Crawl
	select {
	case last = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("no crawl:done event")
	}
	// Two pages; the style sheet, the picture and the other site are links recorded.
	if last.Fetched != 2 || last.Recorded != 3 || last.Skipped != 0 {
		t.Errorf("crawl:done = %+v", last)
	}
	c, err := st.Counts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s, err := a.Status()
	if err != nil {
		t.Fatal(err)
	}
	if s.Fetched != c.Pages[store.StateFetched] || s.Recorded != c.Pages[store.Recorded] || s.Skipped != c.Pages[store.StateSkipped] ||
		s.Recorded != 3 || s.Fetched != 2 {
		t.Errorf("status = %+v, counts = %+v", s, c)
	}
	ix, err := a.IndexStatus()
	if err != nil {
		t.Fatal(err)
	}
	// The picture is cited by an image: searchable by what cites it. The style sheet is not.
	if ix.Searchable != 3 || ix.SearchablePages != 2 || ix.SearchableFiles != 1 || s.Index.SearchableFiles != 1 {
		t.Errorf("index status = %+v, status's = %+v", ix, s.Index)
	}
}

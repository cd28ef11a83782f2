package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"mundaneum/backend/store"
)

func TestPageVersionsAndDiff(t *testing.T) {
	var mu sync.Mutex
	a1 := `<title>A</title><p>the old wording stays</p><script>alert(1)</script>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, a1)
	}))
	defer srv.Close()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{}, 1)
	a.startup(context.Background(), func(name string, _ any) {
		if name == EventCrawlDone {
			done <- struct{}{}
		}
	})
	defer a.shutdown()
	crawlOnce := func() {
		t.Helper()
		if _, err := a.StartCrawl(CrawlRequest{Seeds: []string{srv.URL + "/"}, DelayMs: 0, Refresh: true}); err != nil {
			t.Fatal(err)
		}
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("no crawl:done event")
		}
	}
	crawlOnce()
	mu.Lock()
	a1 = `<title>A</title><p>the new wording <b>&lt;zygomorph&gt;</b> arrives</p>`
	mu.Unlock()
	crawlOnce()

	id, err := st.PageID(context.Background(), srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	vs, err := a.PageVersions(id)
	if err != nil || len(vs) != 2 || vs[0].N != 1 || !vs[1].Current || !vs[0].Cached {
		t.Fatalf("versions %+v %v", vs, err)
	}
	d, err := a.ComparePageVersions(id, 0, 0, false)
	if err != nil || d.From == nil || d.From.ID != vs[0].ID || d.To.ID != vs[1].ID || d.Same {
		t.Fatalf("diff %+v %v", d, err)
	}
	var added string
	for _, o := range d.Ops {
		if o.Kind == "+" {
			added += o.Text
		}
	}
	// The diff is of text: markup in the page is text in the diff, never markup.
	if !strings.Contains(added, "<zygomorph>") || d.Added != 3 {
		t.Errorf("added %q (%d words) in %+v", added, d.Added, d.Ops)
	}
	if _, err := a.ComparePageVersions(id, 999, 0, false); !isCode(err, CodeNotFound) {
		t.Errorf("unknown version: %v", err)
	}
	old, err := a.VersionCopy(vs[0].ID)
	if err != nil || !strings.Contains(old.Text, "old wording") || strings.Contains(old.Document, "<script") ||
		!strings.Contains(old.Document, "old wording") {
		t.Fatalf("the first version's copy: %+v %v", old, err)
	}
	if _, err := a.VersionCopy(12345); !isCode(err, CodeNotFound) {
		t.Errorf("unknown version's copy: %v", err)
	}
}

func isCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// TestChangedPageThatDiedIsCalledSo: a page whose new content is a domain-parking page is
// flagged in search results too (and so in a saved view's "changed"), not only in its history.
func TestChangedPageThatDiedIsCalledSo(t *testing.T) {
	var mu sync.Mutex
	body := `<title>Otlet</title><p>The universal bibliographic repertory, zygomorph cards.</p>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprint(w, body)
	}))
	defer srv.Close()
	a, _, ev, _ := newJobApp(t)
	crawl := func() {
		t.Helper()
		if _, err := a.StartCrawl(CrawlRequest{Seeds: []string{srv.URL + "/"}, Scope: "list", DelayMs: 0, Refresh: true}); err != nil {
			t.Fatal(err)
		}
		<-ev.crawl
	}
	crawl()
	res, err := a.Search(SearchRequest{Query: "zygomorph", Limit: 10})
	if err != nil || len(res.Results) != 1 || res.Results[0].Flag != "" {
		t.Fatalf("before: %+v %v", res.Results, err)
	}
	mu.Lock()
	body = `<title>zygomorph.example</title><p>This domain may be for sale. Related searches: loans, flights, zygomorph.</p>`
	mu.Unlock()
	crawl()
	res, err = a.Search(SearchRequest{Query: "zygomorph", Limit: 10})
	if err != nil || len(res.Results) != 1 || res.Results[0].Flag != store.FlagParked || res.Results[0].Versions != 2 {
		t.Fatalf("after it died: %+v %v", res.Results, err)
	}
}

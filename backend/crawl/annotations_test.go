package crawl

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sync/atomic"
	"testing"

	"mundaneum/backend/library"
	"mundaneum/backend/store"
)

// Harvest's point: the user's own annotations (the library's title, notes and tags of a
// pointer) are kept apart from the automatic summary, so that a recrawl that summarises a
// changed document again replaces the summary and never the annotations.
func TestRecrawlKeepsAnnotations(t *testing.T) {
	needPoppler(t)
	v1, err1 := os.ReadFile("../summary/testdata/paper.pdf")
	v2, err2 := os.ReadFile("../summary/testdata/sqlite-copyright-release.pdf")
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	var second atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		if second.Load() {
			w.Write(v2)
		} else {
			w.Write(v1)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	st := openStore(t)
	u := srv.URL + "/paper.pdf"
	lib := library.New(st.Store)
	added, err := lib.Point(ctx, library.RootID, library.PointerInput{Title: "My name for it", URL: u,
		Notes: "Read chapter 2 first.", Tags: []string{"to-read", "otlet"}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Seeds: []string{u}, Scope: ScopeList}
	run(t, st, cfg)
	if p := pageOf(t, st, u); p.title != "A planted paper" {
		t.Fatalf("first crawl: %+v", p)
	}
	second.Store(true)
	cfg.Refresh = true
	run(t, st, cfg)
	id, _ := st.PageID(ctx, u)
	if _, attrs, _ := st.PageAttrs(ctx, id); !slices.Contains(attrs, store.Attr{Name: "pages", Value: "1"}) ||
		slices.Contains(attrs, store.Attr{Name: "author", Value: "Paul Otlet"}) {
		t.Errorf("the summary was not replaced: %v", attrs)
	}
	p, err := lib.Posting(ctx, added.Node.ID)
	if err != nil {
		t.Fatal(err)
	}
	if p.Title != "My name for it" || p.Notes != "Read chapter 2 first." || !slices.Equal(p.Tags, []string{"otlet", "to-read"}) &&
		!slices.Equal(p.Tags, []string{"to-read", "otlet"}) {
		t.Errorf("the annotations changed: %q %q %v", p.Title, p.Notes, p.Tags)
	}
}

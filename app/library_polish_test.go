package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Issue 28, item 12: a saved view shows the library's postings the same search shows.
func TestSavedViewShowsLibraryHits(t *testing.T) {
	a := openApp(t)
	if _, err := a.LibraryReport(1, LibInput{Title: "Otlet notes", Body: "the cards of the Mundaneum"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SaveView("otlet", "otlet", false); err != nil {
		t.Fatal(err)
	}
	s, err := a.Search(SearchRequest{Query: "otlet", Limit: 10})
	if err != nil || len(s.Library.Hits) != 1 {
		t.Fatalf("search: %+v %v", s.Library, err)
	}
	v, err := a.OpenView("otlet", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Results.Library.Hits) != 1 || v.Results.Library.Hits[0].ID != s.Library.Hits[0].ID || v.Results.Library.Total != s.Library.Total {
		t.Errorf("the view's library hits %+v, the search's %+v", v.Results.Library, s.Library)
	}
}

// Issue 28, item 12: a pointer whose one-off fetch failed says why (the page's reason code
// and the error's words), not only "failed".
func TestFailedFetchSaysWhy(t *testing.T) {
	gone := httptest.NewServer(http.NotFoundHandler())
	url := gone.URL + "/cards"
	gone.Close() // nothing answers there now: the connection is refused
	a := openApp(t)
	done := make(chan struct{}, 1)
	a.startup(context.Background(), func(name string, _ any) {
		if name == EventCrawlDone {
			done <- struct{}{}
		}
	})
	added, err := a.LibraryPoint(1, LibInput{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.LibraryCrawl(added.Posting.ID, "list", 1); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the fetch did not end")
	}
	page, err := a.LibraryPage(1, "", 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Postings) != 1 {
		t.Fatalf("postings %+v", page.Postings)
	}
	k := page.Postings[0].Known
	if k == nil || k.State != "failed" || k.Reason == "" || k.Detail == "" {
		t.Errorf("what the row knows of the failed fetch: %+v", k)
	}
	d, err := a.LibraryPosting(added.Posting.ID)
	if err != nil || d.Posting.Known == nil || d.Posting.Known.Reason != k.Reason {
		t.Errorf("the posting's view: %+v %v", d.Posting.Known, err)
	}
}

// Issue 28, item 12: a report found by a search shows its words as its view shows them,
// not its Markdown.
func TestReportHitShowsNoMarkdown(t *testing.T) {
	a := openApp(t)
	if _, err := a.LibraryReport(1, LibInput{Title: "Why a card index", Body: "## Cards\n\nOne fact per card, **filed** by the [UDC](https://udc.example/)."}); err != nil {
		t.Fatal(err)
	}
	res, err := a.Search(SearchRequest{Query: "filed", Limit: 10})
	if err != nil || len(res.Library.Hits) != 1 {
		t.Fatalf("search: %+v %v", res.Library, err)
	}
	s := strings.Join(res.Library.Hits[0].Snippet, "")
	if !strings.Contains(s, "card, filed by the UDC") || strings.ContainsAny(s, "*#[]()") {
		t.Errorf("the report's snippet: %q", s)
	}
}

// Issue 28, item 12: the window's Redo: the page says what Redo would make again, and
// LibraryRedo does it, with undo's codes (forbidden without the password).
func TestLibraryRedoBound(t *testing.T) {
	a := openApp(t)
	lib, err := a.LibraryCreate(1, LibInput{Title: "Kept", Password: "pw"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.LibraryRedo(""); code(err) != CodeNotFound {
		t.Errorf("redo with nothing undone: %v", err)
	}
	if _, err := a.LibraryDelete([]int64{lib.ID}, "pw"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.LibraryUndo("pw"); err != nil {
		t.Fatal(err)
	}
	p, err := a.LibraryPage(1, "", 0, 10)
	if err != nil || !strings.HasPrefix(p.NextRedo, `deleted "Kept"`) || !p.RedoProtected || !p.NextRedoMine {
		t.Errorf("the page's redo: %q %v %v %v", p.NextRedo, p.RedoProtected, p.NextRedoMine, err)
	}
	if _, err := a.LibraryRedo(""); code(err) != CodeForbidden {
		t.Errorf("redo without the password: %v", err)
	}
	if what, err := a.LibraryRedo("pw"); err != nil || !strings.HasPrefix(what, `deleted "Kept"`) {
		t.Errorf("redo: %q %v", what, err)
	}
	if p, err := a.LibraryPage(1, "", 0, 10); err != nil || len(p.Libraries) != 0 || p.NextRedo != "" {
		t.Errorf("after redo: %+v %v", p.Libraries, err)
	}
	if !GuestMay("LibraryRedo") {
		t.Error("serve --public's guests may undo but not redo")
	}
}

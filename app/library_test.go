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

func openApp(t *testing.T) *App {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.shutdown)
	return a
}

func code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// The bound API enforces what the window asks for: passwords (serve --public has several
// users), and says which rule an operation broke with a code the UI acts on.
func TestLibraryThroughBoundAPI(t *testing.T) {
	a := openApp(t)
	var mu sync.Mutex
	var events []string
	a.startup(context.Background(), func(name string, _ any) {
		mu.Lock()
		events = append(events, name)
		mu.Unlock()
	})
	lib, err := a.LibraryCreate(1, LibInput{Title: "Ann's", Password: "pw", Author: "Ann"})
	if err != nil || !lib.Protected || lib.Path != "/Ann's" {
		t.Fatalf("create: %+v %v", lib, err)
	}
	if _, err := a.LibraryPoint(lib.ID, LibInput{URL: "https://a.example/"}); code(err) != CodeForbidden {
		t.Errorf("posting into a protected library without its password: %v", err)
	}
	added, err := a.LibraryPoint(lib.ID, LibInput{URL: "https://a.example/", Tags: []string{"x"}, LibraryPassword: "pw"})
	if err != nil || added.Posting.Title != "https://a.example/" {
		t.Fatalf("point: %+v %v", added, err)
	}
	if _, err := a.LibraryPoint(lib.ID, LibInput{URL: "https://a.example", LibraryPassword: "pw"}); code(err) != CodeConflict {
		t.Errorf("a duplicate: %v", err)
	}
	if _, err := a.LibraryPoint(lib.ID, LibInput{URL: "file:///etc/passwd"}); code(err) != CodeInvalid {
		t.Errorf("a file: URL: %v", err)
	}
	title := "Bob's now"
	if _, err := a.LibraryEdit(lib.ID, LibEdit{Title: &title}, ""); code(err) != CodeForbidden {
		t.Errorf("editing without the password: %v", err)
	}
	if _, err := a.LibraryDelete([]int64{lib.ID}, "nope"); code(err) != CodeForbidden {
		t.Errorf("deleting with a wrong password: %v", err)
	}
	if err := a.LibraryMove([]int64{lib.ID}, added.Posting.ID, -1, "pw"); code(err) != CodeInvalid {
		t.Errorf("moving into a pointer: %v", err)
	}
	p, err := a.LibraryPage(lib.ID, "", 0, 10)
	if err != nil || len(p.Postings) != 1 || p.LastChange != `added "https://a.example/"` || p.Crumbs[0].Title != "Library" {
		t.Fatalf("page: %+v %v", p, err)
	}
	rem, err := a.LibraryPreviewDelete([]int64{lib.ID})
	if err != nil || rem.Libraries != 1 || rem.Pointers != 1 || len(rem.Protected) != 1 {
		t.Errorf("preview: %+v %v", rem, err)
	}
	if _, err := a.LibraryDelete([]int64{lib.ID}, "pw"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.LibraryUndo(""); code(err) != CodeForbidden {
		t.Errorf("undoing without the password: %v", err)
	}
	if what, err := a.LibraryUndo("pw"); err != nil || !strings.HasPrefix(what, `deleted "Ann's"`) {
		t.Errorf("undo: %q %v", what, err)
	}
	if _, err := a.LibraryPage(999, "", 0, 10); code(err) != CodeNotFound {
		t.Errorf("a missing library: %v", err)
	}
	// Reports render inert; search finds postings beside pages.
	r, err := a.LibraryReport(1, LibInput{Title: "Notes", Body: "<script>alert(1)</script>\n\nsee https://a.example/"})
	if err != nil {
		t.Fatal(err)
	}
	d, err := a.LibraryPosting(r.ID)
	if err != nil || strings.Contains(d.Document, "<script") || len(d.Links) != 1 {
		t.Errorf("report: %+v %v", d, err)
	}
	res, err := a.Search(SearchRequest{Query: "notes", Limit: 10})
	if err != nil || len(res.Library.Hits) != 1 || res.Library.Hits[0].Path != "/Notes" {
		t.Errorf("search: %+v %v", res.Library, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(events) < 5 || events[0] != EventLibraryChanged {
		t.Errorf("events %v", events)
	}
}

// Fetching a pointer once fills in the title it was added without.
func TestLibraryFetchOnceNamesThePointer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, `<title>The card catalogue</title><p>cards</p>`)
	}))
	defer srv.Close()
	a := openApp(t)
	changed := make(chan struct{}, 8)
	a.startup(context.Background(), func(name string, _ any) {
		if name == EventLibraryChanged {
			changed <- struct{}{}
		}
	})
	added, err := a.LibraryPoint(1, LibInput{URL: srv.URL + "/cards"})
	if err != nil {
		t.Fatal(err)
	}
	<-changed
	if _, err := a.LibraryCrawl(added.Posting.ID, "list", 1); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(30 * time.Second)
	for {
		select {
		case <-changed:
		case <-deadline:
			t.Fatal("the pointer was not named")
		}
		d, err := a.LibraryPosting(added.Posting.ID)
		if err != nil {
			t.Fatal(err)
		}
		if d.Posting.Title == "The card catalogue" && d.Posting.Known != nil && d.Posting.Known.Copy {
			return
		}
	}
}

package library_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"mundaneum/backend/library"
	"mundaneum/backend/store"
)

func open(t *testing.T) (*store.Store, *library.Library) {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	clock := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	lib := library.New(st).WithClock(func() time.Time {
		clock = clock.Add(time.Second)
		return clock
	})
	return st, lib
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func resolve(t *testing.T, lib *library.Library, path string) library.Node {
	t.Helper()
	n, err := lib.Resolve(context.Background(), path)
	if err != nil {
		t.Fatalf("resolve %s: %v", path, err)
	}
	return n
}

// outline lists the tree below id as "path kind title url" lines, in manual order.
func outline(t *testing.T, lib *library.Library, id int64) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	var walk func(id int64, path string)
	walk = func(id int64, path string) {
		p := must[library.Page](t)(lib.Open(ctx, id, library.ListQuery{Order: library.ByManual}))
		all := append(append([]library.Posting{}, p.Libraries...), p.Postings...)
		sort.SliceStable(all, func(i, j int) bool { return all[i].Position < all[j].Position })
		for _, c := range all {
			out = append(out, strings.TrimSpace(path+"/"+c.Title+" "+string(c.Kind)+" "+c.URL))
			if c.Kind == library.KindLibrary {
				walk(c.ID, path+"/"+c.Title)
			}
		}
	}
	walk(id, "")
	return out
}

func TestOperationsByPath(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	comp := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "Computing", Purpose: "All of it"}))
	goLib := must[library.Node](t)(lib.Create(ctx, comp.ID, library.LibraryInput{Title: "Go"}))
	slash := must[library.Node](t)(lib.Create(ctx, comp.ID, library.LibraryInput{Title: "TCP/IP"}))
	if _, err := lib.Create(ctx, comp.ID, library.LibraryInput{Title: "Go"}); !errors.Is(err, library.ErrConflict) {
		t.Errorf("a second library Go: %v", err)
	}
	a := must[library.Added](t)(lib.Point(ctx, goLib.ID, library.PointerInput{URL: "https://go.dev/", Title: "The Go site", Tags: []string{"go", "lang, Go"}}))
	if !reflect.DeepEqual(a.Node.Tags, []string{"go", "lang"}) {
		t.Errorf("tags %v", a.Node.Tags)
	}
	// The same address twice in one library is refused; elsewhere it is added and reported.
	if _, err := lib.Point(ctx, goLib.ID, library.PointerInput{URL: "HTTPS://GO.DEV"}); !errors.Is(err, library.ErrConflict) {
		t.Errorf("duplicate in the same library: %v", err)
	}
	b := must[library.Added](t)(lib.Point(ctx, slash.ID, library.PointerInput{URL: "https://go.dev/"}))
	if !reflect.DeepEqual(b.AlsoIn, []string{"/Computing/Go"}) || b.Node.Title != "https://go.dev/" {
		t.Errorf("added %+v", b)
	}
	if _, err := lib.Point(ctx, goLib.ID, library.PointerInput{URL: "javascript:alert(1)"}); !errors.Is(err, library.ErrInvalid) {
		t.Errorf("a javascript: pointer: %v", err)
	}
	must[library.Node](t)(lib.Input(ctx, goLib.ID, library.ReportInput{Title: "Why Go", Body: "See https://go.dev/doc/"}))

	if n := resolve(t, lib, "/Computing/TCP\\/IP"); n.ID != slash.ID {
		t.Errorf("escaped slash resolved to %+v", n)
	}
	if p := must[string](t)(lib.PathOf(ctx, slash)); p != `/Computing/TCP\/IP` {
		t.Errorf("path %s", p)
	}
	if n := resolve(t, lib, "/Computing/Go/The Go site"); n.ID != a.Node.ID {
		t.Errorf("resolved %+v", n)
	}
	if _, err := lib.Resolve(ctx, "/Computing/Rust"); !errors.Is(err, library.ErrNotFound) {
		t.Errorf("missing path: %v", err)
	}

	// Moves: into its own child is a cycle; a pointer moves; reordering by position.
	if err := lib.Move(ctx, []int64{comp.ID}, goLib.ID, -1, ""); !errors.Is(err, library.ErrConflict) {
		t.Errorf("cycle: %v", err)
	}
	if err := lib.Move(ctx, []int64{comp.ID}, comp.ID, -1, ""); !errors.Is(err, library.ErrConflict) {
		t.Errorf("into itself: %v", err)
	}
	if err := lib.Move(ctx, []int64{b.Node.ID}, goLib.ID, -1, ""); !errors.Is(err, library.ErrConflict) {
		t.Errorf("moving a duplicate next to its twin should be refused? %v", err)
	}
	must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "Archive"}))
	if err := lib.Move(ctx, []int64{slash.ID}, resolve(t, lib, "/Archive").ID, -1, ""); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"/Computing library",
		"/Computing/Go library",
		"/Computing/Go/The Go site pointer https://go.dev/",
		"/Computing/Go/Why Go report",
		"/Archive library",
		"/Archive/TCP/IP library",
		"/Archive/TCP/IP/https://go.dev/ pointer https://go.dev/",
	}
	if got := outline(t, lib, library.RootID); !reflect.DeepEqual(got, want) {
		t.Errorf("tree\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Paths of the moved subtree follow it.
	if n := resolve(t, lib, "/Archive/TCP\\/IP/https:\\/\\/go.dev\\/"); n.ID != b.Node.ID {
		t.Errorf("moved posting resolved to %+v", n)
	}
	// Reorder: the report first.
	report := resolve(t, lib, "/Computing/Go/Why Go")
	if err := lib.Move(ctx, []int64{report.ID}, goLib.ID, 0, ""); err != nil {
		t.Fatal(err)
	}
	p := must[library.Page](t)(lib.Open(ctx, goLib.ID, library.ListQuery{}))
	if p.Order != library.ByManual || p.Postings[0].ID != report.ID {
		t.Errorf("after reordering: order %s, first %q", p.Order, p.Postings[0].Title)
	}
	must[library.Undo](t)(lib.Undo(ctx, ""))
	p = must[library.Page](t)(lib.Open(ctx, goLib.ID, library.ListQuery{}))
	if p.Order != library.ByTitle || p.Postings[0].Title != "The Go site" {
		t.Errorf("undoing the reorder: order %s, first %q", p.Order, p.Postings[0].Title)
	}
}

func TestCreateOnlyAndDepth(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	depts := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "University Departments Worldwide", CreateOnly: true}))
	cs := must[library.Node](t)(lib.Create(ctx, depts.ID, library.LibraryInput{Title: "Computer Science"}))
	if _, err := lib.Point(ctx, depts.ID, library.PointerInput{URL: "https://www.colorado.edu/cs/"}); !errors.Is(err, library.ErrConflict) {
		t.Errorf("a pointer in a create-only library: %v", err)
	}
	ptr := must[library.Added](t)(lib.Point(ctx, cs.ID, library.PointerInput{URL: "https://www.colorado.edu/cs/", Title: "University of Colorado Computer Science"}))
	if err := lib.Move(ctx, []int64{ptr.Node.ID}, depts.ID, -1, ""); !errors.Is(err, library.ErrConflict) {
		t.Errorf("moving a pointer into a create-only library: %v", err)
	}
	if _, err := lib.Copy(ctx, []int64{ptr.Node.ID}, depts.ID, -1, ""); !errors.Is(err, library.ErrConflict) {
		t.Errorf("copying a pointer into a create-only library: %v", err)
	}
	parent := library.RootID
	for i := 0; i < library.MaxDepth; i++ {
		n, err := lib.Create(ctx, parent, library.LibraryInput{Title: "deep"})
		if err != nil {
			if i < library.MaxDepth-1 || !errors.Is(err, library.ErrConflict) {
				t.Fatalf("level %d: %v", i+1, err)
			}
			break
		}
		parent = n.ID
	}
}

func TestDeleteShowsWhatGoesAndUndoes(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	a := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "A"}))
	b := must[library.Node](t)(lib.Create(ctx, a.ID, library.LibraryInput{Title: "B"}))
	must[library.Added](t)(lib.Point(ctx, a.ID, library.PointerInput{URL: "https://a.example/", Tags: []string{"t"}}))
	must[library.Added](t)(lib.Point(ctx, b.ID, library.PointerInput{URL: "https://b.example/", Notes: "note"}))
	must[library.Node](t)(lib.Input(ctx, b.ID, library.ReportInput{Title: "R", Body: "text"}))
	before := outline(t, lib, library.RootID)

	pre := must[library.Removal](t)(lib.PreviewDelete(ctx, []int64{a.ID, b.ID}))
	if pre.Libraries != 2 || pre.Pointers != 2 || pre.Reports != 1 || pre.Total() != 5 || len(pre.Titles) != 1 {
		t.Errorf("preview %+v", pre)
	}
	r := must[library.Removal](t)(lib.Delete(ctx, []int64{a.ID}, ""))
	if r.Total() != 5 {
		t.Errorf("removed %+v", r)
	}
	if got := outline(t, lib, library.RootID); len(got) != 0 {
		t.Errorf("left %v", got)
	}
	last := must[library.Undo](t)(lib.LastChange(ctx))
	if last.Op != "deleted" || !strings.Contains(last.Summary, `"A" and 4 below`) {
		t.Errorf("last change %+v", last)
	}
	must[library.Undo](t)(lib.Undo(ctx, ""))
	if got := outline(t, lib, library.RootID); !reflect.DeepEqual(got, before) {
		t.Errorf("after undo\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(before, "\n"))
	}
	// The restored nodes keep their ids, tags and notes.
	n := resolve(t, lib, "/A/B")
	if n.ID != b.ID {
		t.Errorf("B came back as #%d, was #%d", n.ID, b.ID)
	}
	tags := must[[]library.TagCount](t)(lib.Tags(ctx))
	if len(tags) != 1 || tags[0].Tag != "t" {
		t.Errorf("tags after undo %+v", tags)
	}
	// Undo of an addition, then nothing left to undo... until the journal's start.
	must[library.Undo](t)(lib.Undo(ctx, "")) // the report
	if _, err := lib.Resolve(ctx, "/A/B/R"); !errors.Is(err, library.ErrNotFound) {
		t.Errorf("the report is still there: %v", err)
	}
}

func TestPasswords(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	by := library.Author{Name: "Ann", Email: "ann@example.org", Password: "s3cret"}
	vl := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "Ann's", By: by}))
	if vl.Password == "" || strings.Contains(vl.Password, "s3cret") || !strings.HasPrefix(vl.Password, "$argon2id$") {
		t.Fatalf("stored password %q", vl.Password)
	}
	// Posting into it needs its password (protect.go); a posting there is guarded by it.
	if _, err := lib.Point(ctx, vl.ID, library.PointerInput{URL: "https://open.example/"}); !errors.Is(err, library.ErrPassword) {
		t.Errorf("posting into a protected library without its password: %v", err)
	}
	key := library.Author{LibraryPassword: "s3cret"}
	open := must[library.Added](t)(lib.Point(ctx, vl.ID, library.PointerInput{URL: "https://open.example/", By: key}))
	locked := must[library.Added](t)(lib.Point(ctx, vl.ID, library.PointerInput{URL: "https://locked.example/",
		By: library.Author{Password: "other", LibraryPassword: "s3cret"}}))
	title := "renamed"
	for _, pw := range []string{"", "wrong"} {
		if _, err := lib.Edit(ctx, vl.ID, library.Edit{Title: &title}, pw); !errors.Is(err, library.ErrPassword) {
			t.Errorf("edit with %q: %v", pw, err)
		}
		if err := lib.Move(ctx, []int64{vl.ID}, library.RootID, 0, pw); !errors.Is(err, library.ErrPassword) {
			t.Errorf("move with %q: %v", pw, err)
		}
		if _, err := lib.Delete(ctx, []int64{vl.ID}, pw); !errors.Is(err, library.ErrPassword) {
			t.Errorf("delete with %q: %v", pw, err)
		}
		for _, p := range []library.Added{open, locked} {
			if _, err := lib.Delete(ctx, []int64{p.Node.ID}, pw); !errors.Is(err, library.ErrPassword) {
				t.Errorf("delete of %s with %q: %v", p.Node.URL, pw, err)
			}
		}
	}
	// Arranging a protected library by hand needs its password too.
	if err := lib.Move(ctx, []int64{open.Node.ID}, vl.ID, 0, ""); !errors.Is(err, library.ErrPassword) {
		t.Errorf("reordering a protected library without its password: %v", err)
	}
	if _, err := lib.Edit(ctx, vl.ID, library.Edit{Title: &title}, "s3cret"); err != nil {
		t.Errorf("edit with the password: %v", err)
	}
	// A posting's own password opens it as well as its library's does.
	if _, err := lib.Edit(ctx, locked.Node.ID, library.Edit{Title: &title}, "other"); err != nil {
		t.Errorf("edit of a posting with its own password: %v", err)
	}
	if _, err := lib.Delete(ctx, []int64{open.Node.ID}, "s3cret"); err != nil {
		t.Errorf("deleting a posting with its library's password: %v", err)
	}
	// Undoing an operation that needed a password needs it again.
	if _, err := lib.Undo(ctx, ""); !errors.Is(err, library.ErrPassword) {
		t.Errorf("undoing the delete without the password: %v", err)
	}
	must[library.Undo](t)(lib.Undo(ctx, "s3cret")) // the delete
	must[library.Undo](t)(lib.Undo(ctx, "other"))  // the posting's edit
	if _, err := lib.Undo(ctx, "wrong"); !errors.Is(err, library.ErrPassword) {
		t.Errorf("undoing the edit with a wrong password: %v", err)
	}
	must[library.Undo](t)(lib.Undo(ctx, "s3cret"))
	// The library's password deletes it with a protected posting inside.
	r := must[library.Removal](t)(lib.Delete(ctx, []int64{vl.ID}, "s3cret"))
	if r.Total() != 3 {
		t.Errorf("removed %+v", r)
	}
	// Removing a password needs the old one; afterwards nothing does.
	n := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "X", By: library.Author{Password: "p"}}))
	empty := ""
	must[library.Node](t)(lib.Edit(ctx, n.ID, library.Edit{NewPassword: &empty}, "p"))
	must[library.Removal](t)(lib.Delete(ctx, []int64{n.ID}, ""))
}

func TestCopy(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	a := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "A"}))
	b := must[library.Node](t)(lib.Create(ctx, a.ID, library.LibraryInput{Title: "B"}))
	must[library.Added](t)(lib.Point(ctx, b.ID, library.PointerInput{URL: "https://b.example/", Title: "b"}))
	if _, err := lib.Copy(ctx, []int64{a.ID}, b.ID, -1, ""); !errors.Is(err, library.ErrConflict) {
		t.Errorf("copy into itself: %v", err)
	}
	cs := must[[]library.Node](t)(lib.Copy(ctx, []int64{b.ID}, library.RootID, -1, ""))
	must[[]library.Node](t)(lib.Copy(ctx, []int64{b.ID}, a.ID, -1, ""))
	want := []string{
		"/A library", "/A/B library", "/A/B/b pointer https://b.example/",
		"/A/B (copy) library", "/A/B (copy)/b pointer https://b.example/",
		"/B library", "/B/b pointer https://b.example/",
	}
	if got := outline(t, lib, library.RootID); !reflect.DeepEqual(got, want) {
		t.Errorf("tree\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if cs[0].ID == b.ID {
		t.Error("the copy has the original's id")
	}
	must[library.Undo](t)(lib.Undo(ctx, ""))
	if got := outline(t, lib, library.RootID); len(got) != 5 {
		t.Errorf("after undoing a copy %v", got)
	}
}

func TestRecentIsRecursiveNewestFirst(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	a := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "A"}))
	b := must[library.Node](t)(lib.Create(ctx, a.ID, library.LibraryInput{Title: "B"}))
	must[library.Added](t)(lib.Point(ctx, a.ID, library.PointerInput{URL: "https://1.example/", Title: "one"}))
	must[library.Added](t)(lib.Point(ctx, b.ID, library.PointerInput{URL: "https://2.example/", Title: "two"}))
	must[library.Added](t)(lib.Point(ctx, library.RootID, library.PointerInput{URL: "https://3.example/", Title: "three"}))
	r := must[library.Recent](t)(lib.Recent(ctx, a.ID, 0, 0, 10))
	var got []string
	for i, p := range r.Postings {
		got = append(got, p.Title+" in "+r.Paths[i])
	}
	want := []string{"two in /A/B", "one in /A", "B in /A"}
	if !reflect.DeepEqual(got, want) || r.Total != 3 {
		t.Errorf("recent %v (%d), want %v", got, r.Total, want)
	}
	if r := must[library.Recent](t)(lib.Recent(ctx, library.RootID, 0, 0, 10)); r.Total != 5 {
		t.Errorf("recent at the root: %d", r.Total)
	}
}

func TestRenderIsInert(t *testing.T) {
	hostile := "# Title\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n" +
		"[click](javascript:alert(1)) [ok](https://example.org/a) https://example.net/b\n\n" +
		"<iframe src=https://evil.example/></iframe> <a href=\"https://x.example/\" onclick=\"alert(1)\">x</a>"
	r := library.Preview("<b>title</b>", hostile)
	for _, bad := range []string{"<script", "onerror", "javascript:", "<iframe", "onclick", "<img"} {
		if strings.Contains(strings.ToLower(r.Document), bad) {
			t.Errorf("rendered report holds %q:\n%s", bad, r.Document)
		}
	}
	if !strings.Contains(r.Document, "Content-Security-Policy") || !strings.Contains(r.Document, `<a href="https://example.org/a"`) {
		t.Errorf("rendered report:\n%s", r.Document)
	}
	if !reflect.DeepEqual(r.Links, []string{"https://example.org/a", "https://example.net/b"}) {
		t.Errorf("links %v", r.Links)
	}
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }

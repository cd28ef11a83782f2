package library_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"mundaneum/backend/library"
)

// What a link check of a subtree tests: each library with pointers, in the subtree's order
// (sub-libraries before postings); a library without a pointer (Empty) is left out, a
// pointer's path names that pointer alone.
func TestPointerFolders(t *testing.T) {
	_, lib := open(t)
	ctx := context.Background()
	comp := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "Computing"}))
	goLib := must[library.Node](t)(lib.Create(ctx, comp.ID, library.LibraryInput{Title: "Go"}))
	must[library.Node](t)(lib.Create(ctx, comp.ID, library.LibraryInput{Title: "Empty"}))
	must[library.Added](t)(lib.Point(ctx, comp.ID, library.PointerInput{URL: "https://example.org/", Title: "Example"}))
	must[library.Added](t)(lib.Point(ctx, goLib.ID, library.PointerInput{URL: "https://go.dev/", Title: "Go site"}))
	must[library.Added](t)(lib.Point(ctx, goLib.ID, library.PointerInput{URL: "https://pkg.go.dev/", Title: "Packages"}))

	show := func(fs []library.PointerFolder) []string {
		var out []string
		for _, f := range fs {
			for _, p := range f.Pointers {
				out = append(out, fmt.Sprintf("%s %s", f.Path, p.URL))
			}
		}
		return out
	}
	got := show(must[[]library.PointerFolder](t)(lib.PointerFolders(ctx, "/Computing")))
	want := []string{"/Computing/Go https://go.dev/", "/Computing/Go https://pkg.go.dev/", "/Computing https://example.org/"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("subtree:\n got %q\nwant %q", got, want)
	}
	got = show(must[[]library.PointerFolder](t)(lib.PointerFolders(ctx, "/Computing/Go/Packages")))
	if want := []string{"/Computing/Go https://pkg.go.dev/"}; !reflect.DeepEqual(got, want) {
		t.Errorf("one pointer: got %q, want %q", got, want)
	}
	if fs, err := lib.PointerFolders(ctx, "/Computing/Empty"); err != nil || len(fs) != 0 {
		t.Errorf("an empty library: %v %v", fs, err)
	}
	if _, err := lib.PointerFolders(ctx, "/Nowhere"); err == nil {
		t.Error("a path that names nothing: no error")
	}
}

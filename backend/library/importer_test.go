package library_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"mundaneum/backend/formats/bookmarks"
	"mundaneum/backend/library"
)

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../formats/bookmarks/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestImportExportRoundTrip imports real browser files (nested folders, tags, notes,
// non-ASCII and hostile titles), exports them as bookmarks and as a JSON tree, and imports
// each export into a fresh workspace: the trees must agree.
func TestImportExportRoundTrip(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"firefox.html", "chromium.html", "mixed.html"} {
		_, lib := open(t)
		rep := must[library.ImportReport](t)(lib.Import(ctx, library.RootID, fixture(t, name), library.Author{}))
		if rep.Format != "netscape" || rep.Pointers == 0 {
			t.Fatalf("%s: %+v", name, rep)
		}
		want := outline(t, lib, library.RootID)
		for _, format := range []string{library.FormatNetscape, library.FormatJSON} {
			var buf bytes.Buffer
			must[library.ExportReport](t)(lib.Export(ctx, library.RootID, format, &buf))
			_, lib2 := open(t)
			must[library.ImportReport](t)(lib2.Import(ctx, library.RootID, buf.Bytes(), library.Author{}))
			if got := outline(t, lib2, library.RootID); !reflect.DeepEqual(got, want) {
				t.Errorf("%s via %s:\n%s\nwant\n%s", name, format, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
}

func TestImportReportsWhatItLeftOut(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	rep := must[library.ImportReport](t)(lib.Import(ctx, library.RootID, fixture(t, "chromium.html"), library.Author{}))
	if rep.Libraries != 4 || rep.Pointers != 6 || rep.Skipped != 1 || rep.Duplicates != 1 || rep.Elsewhere != 0 {
		t.Errorf("report %+v", rep)
	}
	// Two entries left out, and what Chromium wrote that nothing keeps (its toolbar flag, a
	// favicon), in line order.
	if len(rep.Problems) != 4 || !hasProblem(rep, 9, "toolbar folder flag") || !hasProblem(rep, 11, "favicon") ||
		rep.Problems[2].Line != 25 || !strings.Contains(rep.Problems[2].Reason, "not an http or https address") ||
		rep.Problems[3].Line != 27 || !strings.Contains(rep.Problems[3].Reason, `in "Other bookmarks" already`) {
		t.Errorf("problems %+v", rep.Problems)
	}
	// The same file again: every link is a duplicate of its library's, the folders merge.
	rep = must[library.ImportReport](t)(lib.Import(ctx, library.RootID, fixture(t, "chromium.html"), library.Author{}))
	if rep.Added() != 0 || rep.Duplicates != 7 || rep.Merged != 4 {
		t.Errorf("second import %+v", rep)
	}
	n := resolve(t, lib, `/Bookmarks bar/"><script>alert(document.domain)<\/script>`)
	if n.URL != `https://example.net/"onmouseover="alert(1)` {
		t.Errorf("hostile posting %+v", n)
	}
	tags := must[[]library.TagCount](t)(lib.Tags(ctx))
	if len(tags) != 0 {
		t.Errorf("tags %v", tags)
	}
	_, lib = open(t)
	must[library.ImportReport](t)(lib.Import(ctx, library.RootID, fixture(t, "firefox.html"), library.Author{}))
	tags = must[[]library.TagCount](t)(lib.Tags(ctx))
	if len(tags) != 5 {
		t.Errorf("firefox tags %v", tags)
	}
	about := resolve(t, lib, "/Mozilla Firefox/About Us")
	if about.Notes != "The Mozilla manifesto\nand more on a second line" || about.CreatedAt != 1700100004000 {
		t.Errorf("about %+v", about)
	}
}

// A broken file imports nothing and names its line.
func TestImportIsAllOrNothing(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	good := string(fixture(t, "mixed.html"))
	cut := good[:strings.Index(good, "    <DT><H3 ADD_DATE=\"1700000009\">")]
	_, err := lib.Import(ctx, library.RootID, []byte(cut), library.Author{})
	var pe *bookmarks.Error
	if !errors.Is(err, library.ErrInvalid) || !errors.As(err, &pe) || pe.Line != 11 {
		t.Fatalf("cut-short file: %v", err)
	}
	if got := outline(t, lib, library.RootID); len(got) != 0 {
		t.Errorf("half imported: %v", got)
	}
	if _, err := lib.LastChange(ctx); !errors.Is(err, library.ErrNotFound) {
		t.Errorf("journal after a failed import: %v", err)
	}
	// An import into a pointer is refused before anything is written.
	must[library.ImportReport](t)(lib.Import(ctx, library.RootID, []byte("https://a.example/ A\n"), library.Author{}))
	a := resolve(t, lib, "/A")
	if _, err := lib.Import(ctx, a.ID, []byte("https://b.example/"), library.Author{}); !errors.Is(err, library.ErrInvalid) {
		t.Errorf("import into a pointer: %v", err)
	}
	// Undo takes a whole import back.
	must[library.ImportReport](t)(lib.Import(ctx, library.RootID, fixture(t, "mixed.html"), library.Author{}))
	must[library.Undo](t)(lib.Undo(ctx, ""))
	if got := outline(t, lib, library.RootID); len(got) != 1 {
		t.Errorf("after undoing the import: %v", got)
	}
}

func TestPastedList(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	g := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "Go"}))
	rep := must[library.ImportReport](t)(lib.Import(ctx, g.ID, []byte("- [Effective Go](https://go.dev/doc/effective_go) style\nhttps://go.dev/ref/spec The spec\nftp://old.example/file\n"), library.Author{Name: "Ann"}))
	if rep.Format != "list" || rep.Pointers != 2 || rep.Skipped != 1 || rep.Problems[0].Line != 3 {
		t.Errorf("report %+v", rep)
	}
	e := resolve(t, lib, "/Go/Effective Go")
	if e.Notes != "style" || e.Author != "Ann" {
		t.Errorf("pointer %+v", e)
	}
}

func TestSiteExportIsInert(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	must[library.ImportReport](t)(lib.Import(ctx, library.RootID, fixture(t, "chromium.html"), library.Author{}))
	bar := resolve(t, lib, "/Bookmarks bar")
	must[library.Node](t)(lib.Input(ctx, bar.ID, library.ReportInput{Title: "<script>alert(1)</script>", Body: "<script>alert(2)</script> [x](javascript:alert(3))"}))
	files := map[string]string{}
	rep := must[library.SiteReport](t)(lib.ExportSite(ctx, library.RootID, func(name string, data []byte) error {
		files[name] = string(data)
		return nil
	}))
	if rep.Files != len(files) || files["index.html"] == "" || rep.Pointers != 6 || rep.Reports != 1 || rep.Libraries != 5 {
		t.Fatalf("report %+v, files %d", rep, len(files))
	}
	for name, body := range files {
		low := strings.ToLower(body)
		if strings.Contains(low, "<script") || strings.Contains(low, "javascript:") || strings.Contains(low, "onmouseover=\"") {
			t.Errorf("%s is not inert:\n%s", name, body)
		}
	}
	if !strings.Contains(files["lib-"+itoa(bar.ID)+".html"], "&lt;script&gt;alert(document.domain)") {
		t.Errorf("the hostile title is not shown as text:\n%s", files["lib-"+itoa(bar.ID)+".html"])
	}
}

// A large import reads the library's addresses at once: it finds the same duplicates.
func TestLargeImportFindsDuplicates(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	a := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "A"}))
	for i := range 10 {
		must[library.Added](t)(lib.Point(ctx, a.ID, library.PointerInput{URL: fmt.Sprintf("https://x.example/%d", i)}))
	}
	var b strings.Builder
	b.WriteString("# A\n")
	for i := range 1500 {
		fmt.Fprintf(&b, "https://x.example/%d\n", i)
	}
	b.WriteString("# B\nhttps://x.example/3\n")
	rep := must[library.ImportReport](t)(lib.Import(ctx, library.RootID, []byte(b.String()), library.Author{}))
	if rep.Duplicates != 10 || rep.Pointers != 1491 || rep.Merged != 1 || rep.Libraries != 1 || rep.Elsewhere != 1 {
		t.Errorf("report %+v", rep)
	}
}

package library_test

import (
	"context"
	"strings"
	"testing"

	"mundaneum/backend/library"
	"mundaneum/backend/store"
)

// checkCounts compares the counts every library's page shows (stored in lib_nodes,
// migration 0020) with a recount of the nodes below it.
func checkCounts(t *testing.T, st *store.Store, lib *library.Library, after string) {
	t.Helper()
	ctx := context.Background()
	nodes, err := st.LibSubtree(ctx, library.RootID)
	if err != nil {
		t.Fatal(err)
	}
	libs := 0
	for _, n := range nodes {
		if n.Kind != library.KindLibrary {
			continue
		}
		libs++
		p, err := lib.Open(ctx, n.ID, library.ListQuery{Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		wl, wp, err := st.LibRecount(ctx, n.ID)
		if err != nil {
			t.Fatal(err)
		}
		if p.Library.Libraries != wl || p.Library.Postings != wp {
			t.Errorf("after %s: %q (#%d) shows %d libraries and %d postings below it, a recount finds %d and %d",
				after, n.Title, n.ID, p.Library.Libraries, p.Library.Postings, wl, wp)
		}
		for _, sub := range p.Libraries {
			sl, sp, err := st.LibRecount(ctx, sub.ID)
			if err != nil {
				t.Fatal(err)
			}
			if sub.Libraries != sl || sub.Postings != sp {
				t.Errorf("after %s: %q's page shows %q with %d/%d below, a recount finds %d/%d",
					after, n.Title, sub.Title, sub.Libraries, sub.Postings, sl, sp)
			}
		}
	}
	if libs == 0 {
		t.Fatalf("after %s: no library at all", after)
	}
}

// The counts below each library are stored; they stay equal to a recount after every
// operation that changes the tree, undo included.
func TestStoredCountsEqualARecount(t *testing.T) {
	ctx := context.Background()
	st, lib := open(t)
	mk := func(parent int64, title string) library.Node {
		return must[library.Node](t)(lib.Create(ctx, parent, library.LibraryInput{Title: title}))
	}
	a := mk(library.RootID, "A")
	b := mk(a.ID, "B")
	c := mk(b.ID, "C")
	d := mk(library.RootID, "D")
	checkCounts(t, st, lib, "create")
	for i, u := range []string{"https://a.example/1", "https://a.example/2", "https://a.example/3"} {
		must[library.Added](t)(lib.Point(ctx, []int64{a.ID, b.ID, c.ID}[i], library.PointerInput{URL: u, Tags: []string{"t"}}))
	}
	must[library.Node](t)(lib.Input(ctx, c.ID, library.ReportInput{Title: "R", Body: "text"}))
	checkCounts(t, st, lib, "point and input")
	if _, _, err := st.SaveView(ctx, "v", "golang", false); err != nil {
		t.Fatal(err)
	}
	must[library.Node](t)(lib.PlaceView(ctx, c.ID, "v", "", library.Author{}))
	checkCounts(t, st, lib, "placing a view")

	bm := `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<DL><p>
<DT><H3>F</H3>
<DL><p>
<DT><A HREF="https://b.example/1">one</A>
<DT><H3>G</H3>
<DL><p>
<DT><A HREF="https://b.example/2">two</A>
<DT><A HREF="https://b.example/3">three</A>
</DL><p>
</DL><p>
<DT><A HREF="https://b.example/4">four</A>
</DL><p>`
	must[library.ImportReport](t)(lib.Import(ctx, b.ID, []byte(bm), library.Author{}))
	checkCounts(t, st, lib, "import")
	f := resolve(t, lib, "/A/B/F")

	if err := lib.Move(ctx, []int64{b.ID}, d.ID, 0, ""); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, st, lib, "move")
	must[library.Undo](t)(lib.Undo(ctx, ""))
	checkCounts(t, st, lib, "undo of a move")
	if err := lib.Move(ctx, []int64{f.ID}, library.RootID, 0, ""); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, st, lib, "move to the root")

	must[[]library.Node](t)(lib.Copy(ctx, []int64{a.ID}, d.ID, 0, ""))
	checkCounts(t, st, lib, "copy")

	must[library.Removal](t)(lib.Delete(ctx, []int64{b.ID}, ""))
	checkCounts(t, st, lib, "delete")
	must[library.Undo](t)(lib.Undo(ctx, ""))
	checkCounts(t, st, lib, "undo of a delete")

	p := must[library.Added](t)(lib.Point(ctx, c.ID, library.PointerInput{URL: "https://c.example/"}))
	if _, err := lib.Edit(ctx, p.Node.ID, library.Edit{Title: ptr("edited")}, ""); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, st, lib, "edit")
	must[library.Undo](t)(lib.Undo(ctx, ""))
	checkCounts(t, st, lib, "undo of an edit")
	must[library.Undo](t)(lib.Undo(ctx, ""))
	checkCounts(t, st, lib, "undo of a point")

	// Deleting a saved view takes its placed postings with it (ON DELETE CASCADE): the
	// trigger takes them from the counts too.
	if err := st.DeleteView(ctx, "v"); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, st, lib, "deleting a view placed in the tree")

	must[library.Removal](t)(lib.Delete(ctx, []int64{a.ID, d.ID}, ""))
	checkCounts(t, st, lib, "delete of many")
	if root := must[library.Page](t)(lib.Open(ctx, library.RootID, library.ListQuery{})); root.Library.Postings == 0 && !strings.Contains(strings.Join(outline(t, lib, library.RootID), "\n"), "F") {
		t.Errorf("the root's counts are all gone with F still there: %+v", root.Library)
	}
}

func ptr[T any](v T) *T { return &v }

package library_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"mundaneum/backend/library"
)

// Redo takes back each kind of undo (an addition, a delete, a move with a rename, an edit, a
// manual arrangement) to the very tree the change made, and Undo and Redo go back and forth.
func TestRedoEachOperation(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	a := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "A"}))
	b := must[library.Node](t)(lib.Create(ctx, a.ID, library.LibraryInput{Title: "B"}))
	x := must[library.Added](t)(lib.Point(ctx, a.ID, library.PointerInput{URL: "https://x.example/", Tags: []string{"x"}}))
	y := must[library.Added](t)(lib.Point(ctx, a.ID, library.PointerInput{URL: "https://y.example/"}))
	must[library.Node](t)(lib.Input(ctx, b.ID, library.ReportInput{Title: "R", Body: "text"}))
	title := "Renamed"
	steps := []struct {
		name string
		do   func()
	}{
		{"add", func() {
			must[library.Added](t)(lib.Point(ctx, b.ID, library.PointerInput{URL: "https://z.example/", Notes: "n"}))
		}},
		{"delete", func() { must[library.Removal](t)(lib.Delete(ctx, []int64{b.ID}, "")) }},
		{"move", func() { must0(t, lib.Move(ctx, []int64{x.Node.ID}, library.RootID, -1, "")) }},
		{"arrange", func() { must0(t, lib.Move(ctx, []int64{y.Node.ID}, a.ID, 0, "")) }},
		{"rename by moving", func() { must[library.Node](t)(lib.MoveAs(ctx, a.ID, library.RootID, "A2", "")) }},
		{"edit", func() { must[library.Node](t)(lib.Edit(ctx, y.Node.ID, library.Edit{Title: &title}, "")) }},
	}
	for _, s := range steps {
		before := outline(t, lib, library.RootID)
		s.do()
		after := outline(t, lib, library.RootID)
		if _, err := lib.NextRedo(ctx); !errors.Is(err, library.ErrNotFound) {
			t.Errorf("%s: a new change left something to redo: %v", s.name, err)
		}
		for round := 0; round < 2; round++ {
			u := must[library.Undo](t)(lib.Undo(ctx, ""))
			if got := outline(t, lib, library.RootID); !reflect.DeepEqual(got, before) {
				t.Fatalf("%s: after undo %d\n%s\nwant\n%s", s.name, round, strings.Join(got, "\n"), strings.Join(before, "\n"))
			}
			next := must[library.Undo](t)(lib.NextRedo(ctx))
			if next.Summary != u.Summary {
				t.Errorf("%s: redo would %q, the undo took back %q", s.name, next.Summary, u.Summary)
			}
			r := must[library.Undo](t)(lib.Redo(ctx, ""))
			if r.Summary != u.Summary {
				t.Errorf("%s: redid %q", s.name, r.Summary)
			}
			if got := outline(t, lib, library.RootID); !reflect.DeepEqual(got, after) {
				t.Fatalf("%s: after redo %d\n%s\nwant\n%s", s.name, round, strings.Join(got, "\n"), strings.Join(after, "\n"))
			}
		}
	}
	// Several undos, then as many redos, in order.
	start := outline(t, lib, library.RootID)
	for range steps {
		must[library.Undo](t)(lib.Undo(ctx, ""))
	}
	for range steps {
		must[library.Undo](t)(lib.Redo(ctx, ""))
	}
	if got := outline(t, lib, library.RootID); !reflect.DeepEqual(got, start) {
		t.Errorf("after undoing and redoing all\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(start, "\n"))
	}
	if _, err := lib.Redo(ctx, ""); !errors.Is(err, library.ErrNotFound) {
		t.Errorf("redo with nothing to redo: %v", err)
	}
	// A new change after an undo ends what could be redone.
	must[library.Undo](t)(lib.Undo(ctx, ""))
	must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "New"}))
	if _, err := lib.Redo(ctx, ""); !errors.Is(err, library.ErrNotFound) {
		t.Errorf("redo after a new change: %v", err)
	}
}

// Redo follows undo's protection rules (protect.go): a password someone set is neither
// removed nor put back without it, and under serve --public only the person who undid a
// change may redo it, or one who gives its password.
func TestRedoNeedsThePassword(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	n := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "Ann's", By: library.Author{Password: "p"}}))
	// Removing the password needs it; undoing the removal too; and so does redoing it.
	empty := ""
	must[library.Node](t)(lib.Edit(ctx, n.ID, library.Edit{NewPassword: &empty}, "p"))
	must[library.Undo](t)(lib.Undo(ctx, "p"))
	if !protected(t, lib, "/Ann's") {
		t.Fatal("undo did not put the password back")
	}
	for _, pw := range []string{"", "wrong"} {
		if _, err := lib.Redo(ctx, pw); !errors.Is(err, library.ErrPassword) {
			t.Errorf("redoing the password's removal with %q: %v", pw, err)
		}
	}
	if !protected(t, lib, "/Ann's") {
		t.Fatal("a refused redo removed the password")
	}
	must[library.Undo](t)(lib.Redo(ctx, "p"))
	if protected(t, lib, "/Ann's") {
		t.Error("redo did not remove the password")
	}
	// Setting a password: undoing it needs it; redoing puts it back (it removes none).
	pw := "q"
	must[library.Node](t)(lib.Edit(ctx, n.ID, library.Edit{NewPassword: &pw}, ""))
	if _, err := lib.Undo(ctx, ""); !errors.Is(err, library.ErrPassword) {
		t.Errorf("undoing a password set without it: %v", err)
	}
	must[library.Undo](t)(lib.Undo(ctx, "q"))
	must[library.Undo](t)(lib.Redo(ctx, ""))
	if _, err := lib.Edit(ctx, n.ID, library.Edit{Title: &pw}, ""); !errors.Is(err, library.ErrPassword) {
		t.Errorf("redo did not put the password back: %v", err)
	}

	// Under serve --public: what Ann undid, Bob cannot redo.
	owner := lib
	yes := true
	board := must[library.Node](t)(owner.Create(ctx, library.RootID, library.LibraryInput{Title: "Board"}))
	must[library.Node](t)(owner.Edit(ctx, board.ID, library.Edit{OpenToGuests: &yes}, ""))
	ann := owner.For(library.Person{ID: "guest:a", Name: "guest a", Guest: true, Shared: true}, nil)
	bob := owner.For(library.Person{ID: "guest:b", Name: "guest b", Guest: true, Shared: true}, nil)
	must[library.Added](t)(ann.Point(ctx, board.ID, library.PointerInput{URL: "https://ann.example/"}))
	must[library.Undo](t)(ann.Undo(ctx, ""))
	if _, err := bob.Redo(ctx, ""); !errors.Is(err, library.ErrNotYours) || !strings.Contains(err.Error(), "redo") {
		t.Errorf("a guest redid another's undo: %v", err)
	}
	must[library.Undo](t)(ann.Redo(ctx, ""))
	if _, err := owner.Resolve(ctx, "/Board/https:\\/\\/ann.example\\/"); err != nil {
		t.Errorf("Ann's pointer after her redo: %v", err)
	}
}

func must0(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func protected(t *testing.T, lib *library.Library, path string) bool {
	t.Helper()
	n := resolve(t, lib, path)
	return n.Protected()
}

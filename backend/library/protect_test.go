package library_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"mundaneum/backend/library"
)

// The protection model (protect.go). The first three tests use only the operations as
// they were before it, so that they ran (and failed) on the code it replaced.

// Issue 29, item 1: an edit that sets a password is taken back only with that password.
func TestUndoNeedsThePasswordItSet(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	secret := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "Secret"}))
	pw := "own3r-PW"
	must[library.Node](t)(lib.Edit(ctx, secret.ID, library.Edit{NewPassword: &pw}, ""))
	must[library.Added](t)(lib.Point(ctx, library.RootID, library.PointerInput{URL: "https://example.org/other"}))
	must[library.Undo](t)(lib.Undo(ctx, "")) // the unprotected addition
	for _, guess := range []string{"", "wrong"} {
		if u, err := lib.Undo(ctx, guess); !errors.Is(err, library.ErrPassword) {
			t.Fatalf("undo of the edit that set the password, with %q: %+v, %v", guess, u, err)
		}
	}
	if _, err := lib.Delete(ctx, []int64{secret.ID}, ""); !errors.Is(err, library.ErrPassword) {
		t.Fatalf("deleting the protected library without its password: %v", err)
	}
	must[library.Undo](t)(lib.Undo(ctx, pw))
	if n := resolve(t, lib, "/Secret"); n.Protected() {
		t.Errorf("the undone edit left the password")
	}
	// An edit that removed a password is taken back only with it too (what doing it needed).
	must[library.Node](t)(lib.Edit(ctx, secret.ID, library.Edit{NewPassword: &pw}, ""))
	none := ""
	must[library.Node](t)(lib.Edit(ctx, secret.ID, library.Edit{NewPassword: &none}, pw))
	if _, err := lib.Undo(ctx, ""); !errors.Is(err, library.ErrPassword) {
		t.Errorf("undoing the removal of a password without it: %v", err)
	}
}

// Issue 29, item 2: a protected posting does not go with its unprotected parent.
func TestProtectedPostingStaysWithItsParent(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	comp := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "Computing"}))
	goLib := must[library.Node](t)(lib.Create(ctx, comp.ID, library.LibraryInput{Title: "Go"}))
	langs := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "Languages"}))
	must[library.Added](t)(lib.Point(ctx, goLib.ID, library.PointerInput{URL: "https://pkg.go.dev/open"}))
	p := must[library.Added](t)(lib.Point(ctx, goLib.ID, library.PointerInput{URL: "https://pkg.go.dev/protected",
		Title: "The protected one", By: library.Author{Password: "ptr-PW"}}))
	for _, id := range []int64{comp.ID, goLib.ID} {
		for _, guess := range []string{"", "wrong"} {
			_, err := lib.Delete(ctx, []int64{id}, guess)
			if !errors.Is(err, library.ErrPassword) {
				t.Fatalf("deleting #%d with %q took a protected posting along: %v", id, guess, err)
			}
			if !strings.Contains(err.Error(), "The protected one") {
				t.Errorf("the refusal does not name what is protected: %v", err)
			}
			if err := lib.Move(ctx, []int64{id}, langs.ID, -1, guess); !errors.Is(err, library.ErrPassword) {
				t.Fatalf("moving #%d with %q took a protected posting along: %v", id, guess, err)
			}
		}
	}
	r := must[library.Removal](t)(lib.PreviewDelete(ctx, []int64{comp.ID}))
	if len(r.Protected) != 1 || r.Protected[0] != "The protected one" {
		t.Errorf("the preview names %v as needing a password", r.Protected)
	}
	// Its own password lets it go with its parent.
	must[library.Removal](t)(lib.Delete(ctx, []int64{comp.ID}, "ptr-PW"))
	if _, err := lib.Resolve(ctx, "/Computing"); !errors.Is(err, library.ErrNotFound) {
		t.Errorf("not deleted: %v", err)
	}
	// ...and undoing that needs it again.
	if _, err := lib.Undo(ctx, ""); !errors.Is(err, library.ErrPassword) {
		t.Errorf("undoing the delete without the password: %v", err)
	}
	must[library.Undo](t)(lib.Undo(ctx, "ptr-PW"))
	if n := resolve(t, lib, "/Computing/Go/The protected one"); n.ID != p.Node.ID {
		t.Errorf("came back as #%d", n.ID)
	}
	// Two postings protected by different passwords: no one password takes both along.
	must[library.Added](t)(lib.Point(ctx, goLib.ID, library.PointerInput{URL: "https://pkg.go.dev/other",
		Title: "Another", By: library.Author{Password: "other-PW"}}))
	_, err := lib.Delete(ctx, []int64{comp.ID}, "ptr-PW")
	if !errors.Is(err, library.ErrPassword) || !strings.Contains(err.Error(), "Another") {
		t.Errorf("deleting with one of two passwords: %v", err)
	}
}

// Issue 29, item 3: what is in a protected library is protected with it.
func TestProtectedLibraryContents(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	vault := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "Vault"}))
	out := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "Outside"}))
	inner := must[library.Node](t)(lib.Create(ctx, vault.ID, library.LibraryInput{Title: "Inner"}))
	a := must[library.Added](t)(lib.Point(ctx, vault.ID, library.PointerInput{URL: "https://a.example/", Title: "a"}))
	b := must[library.Added](t)(lib.Point(ctx, inner.ID, library.PointerInput{URL: "https://b.example/", Title: "b"}))
	pw := "vault-PW"
	must[library.Node](t)(lib.Edit(ctx, vault.ID, library.Edit{NewPassword: &pw}, ""))
	title := "renamed"
	for _, guess := range []string{"", "wrong"} {
		for _, id := range []int64{a.Node.ID, b.Node.ID, inner.ID} {
			if _, err := lib.Edit(ctx, id, library.Edit{Title: &title}, guess); !errors.Is(err, library.ErrPassword) {
				t.Errorf("edit of #%d in the protected library with %q: %v", id, guess, err)
			}
			if err := lib.Move(ctx, []int64{id}, out.ID, -1, guess); !errors.Is(err, library.ErrPassword) {
				t.Errorf("move of #%d out of the protected library with %q: %v", id, guess, err)
			}
			if _, err := lib.Delete(ctx, []int64{id}, guess); !errors.Is(err, library.ErrPassword) {
				t.Errorf("delete of #%d in the protected library with %q: %v", id, guess, err)
			}
		}
		if err := lib.Move(ctx, []int64{a.Node.ID}, inner.ID, -1, guess); !errors.Is(err, library.ErrPassword) {
			t.Errorf("move within the protected library with %q: %v", guess, err)
		}
	}
	if got := outline(t, lib, vault.ID); len(got) != 3 {
		t.Fatalf("the protected library changed: %v", got)
	}
	// With its password everything may be done.
	must[library.Node](t)(lib.Edit(ctx, b.Node.ID, library.Edit{Title: &title}, pw))
	if err := lib.Move(ctx, []int64{b.Node.ID}, out.ID, -1, pw); err != nil {
		t.Errorf("moving out with the password: %v", err)
	}
}

func TestPostingIntoAProtectedLibrary(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	pw := "vault-PW"
	vault := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "Vault", By: library.Author{Password: pw}}))
	inner := must[library.Node](t)(lib.Create(ctx, vault.ID, library.LibraryInput{Title: "Inner", By: library.Author{LibraryPassword: pw}}))
	out := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "Outside"}))
	loose := must[library.Added](t)(lib.Point(ctx, out.ID, library.PointerInput{URL: "https://loose.example/"}))
	for _, guess := range []string{"", "wrong"} {
		by := library.Author{LibraryPassword: guess}
		for _, id := range []int64{vault.ID, inner.ID} {
			if _, err := lib.Point(ctx, id, library.PointerInput{URL: "https://x.example/", By: by}); !errors.Is(err, library.ErrPassword) {
				t.Errorf("a pointer into #%d with %q: %v", id, guess, err)
			}
			if _, err := lib.Create(ctx, id, library.LibraryInput{Title: "X", By: by}); !errors.Is(err, library.ErrPassword) {
				t.Errorf("a library into #%d with %q: %v", id, guess, err)
			}
			if _, err := lib.Input(ctx, id, library.ReportInput{Title: "X", By: by}); !errors.Is(err, library.ErrPassword) {
				t.Errorf("a report into #%d with %q: %v", id, guess, err)
			}
			if err := lib.Move(ctx, []int64{loose.Node.ID}, id, -1, guess); !errors.Is(err, library.ErrPassword) {
				t.Errorf("a move into #%d with %q: %v", id, guess, err)
			}
			if _, err := lib.Copy(ctx, []int64{loose.Node.ID}, id, -1, guess); !errors.Is(err, library.ErrPassword) {
				t.Errorf("a copy into #%d with %q: %v", id, guess, err)
			}
			if _, err := lib.Import(ctx, id, []byte("https://imported.example/\n"), by); !errors.Is(err, library.ErrPassword) {
				t.Errorf("an import into #%d with %q: %v", id, guess, err)
			}
		}
		// An import into an open library that merges into a protected one below it.
		if _, err := lib.Create(ctx, out.ID, library.LibraryInput{Title: "Kept", By: library.Author{Password: "kept-PW"}}); err != nil && guess == "" {
			t.Fatal(err)
		}
		file := "# Kept\nhttps://merged.example/\n"
		if _, err := lib.Import(ctx, out.ID, []byte(file), by); !errors.Is(err, library.ErrPassword) {
			t.Errorf("an import merging into a protected library with %q: %v", guess, err)
		}
	}
	// Copying out of it needs its password too (copies keep their own).
	in := must[library.Added](t)(lib.Point(ctx, inner.ID, library.PointerInput{URL: "https://in.example/", By: library.Author{LibraryPassword: pw}}))
	if _, err := lib.Copy(ctx, []int64{in.Node.ID}, out.ID, -1, ""); !errors.Is(err, library.ErrPassword) {
		t.Errorf("a copy out of the protected library: %v", err)
	}
	must[[]library.Node](t)(lib.Copy(ctx, []int64{in.Node.ID}, out.ID, -1, pw))
	rep := must[library.ImportReport](t)(lib.Import(ctx, inner.ID, []byte("https://imported.example/\n"), library.Author{LibraryPassword: pw}))
	if rep.Pointers != 1 {
		t.Errorf("import with the password: %+v", rep)
	}
	// Undoing the import takes its postings away: that needs the password as it did.
	if _, err := lib.Undo(ctx, ""); !errors.Is(err, library.ErrPassword) {
		t.Errorf("undoing an import into a protected library without its password: %v", err)
	}
	must[library.Undo](t)(lib.Undo(ctx, pw))
}

// The guests of serve --public post and change only where the owner opened the library to
// them; under serve --public Undo takes back only a person's own change.
func TestGuests(t *testing.T) {
	ctx := context.Background()
	_, owner := open(t)
	closed := must[library.Node](t)(owner.Create(ctx, library.RootID, library.LibraryInput{Title: "Closed"}))
	board := must[library.Node](t)(owner.Create(ctx, library.RootID, library.LibraryInput{Title: "Board"}))
	kept := must[library.Added](t)(owner.Point(ctx, closed.ID, library.PointerInput{URL: "https://kept.example/"}))
	yes := true
	shared := owner.For(library.Person{Shared: true}, nil)
	ann := owner.For(library.Person{ID: "guest:a", Name: "guest a", Guest: true, Shared: true}, nil)
	bob := owner.For(library.Person{ID: "guest:b", Name: "guest b", Guest: true, Shared: true}, nil)

	if _, err := ann.Edit(ctx, board.ID, library.Edit{OpenToGuests: &yes}, ""); !errors.Is(err, library.ErrGuest) {
		t.Errorf("a guest opened a library to guests: %v", err)
	}
	must[library.Node](t)(shared.Edit(ctx, board.ID, library.Edit{OpenToGuests: &yes}, ""))
	if _, err := ann.Point(ctx, closed.ID, library.PointerInput{URL: "https://x.example/"}); !errors.Is(err, library.ErrGuest) {
		t.Errorf("a guest posted into a library not open to guests: %v", err)
	}
	if _, err := ann.Delete(ctx, []int64{kept.Node.ID}, ""); !errors.Is(err, library.ErrGuest) {
		t.Errorf("a guest deleted outside the open libraries: %v", err)
	}
	title := "mine now"
	if _, err := ann.Edit(ctx, board.ID, library.Edit{Title: &title}, ""); !errors.Is(err, library.ErrGuest) {
		t.Errorf("a guest renamed the open library itself: %v", err)
	}
	if err := ann.Move(ctx, []int64{kept.Node.ID}, board.ID, -1, ""); !errors.Is(err, library.ErrGuest) {
		t.Errorf("a guest moved a posting out of a closed library: %v", err)
	}
	sub := must[library.Node](t)(ann.Create(ctx, board.ID, library.LibraryInput{Title: "Ann's"}))
	p := must[library.Added](t)(ann.Point(ctx, sub.ID, library.PointerInput{URL: "https://ann.example/"}))
	must[[]library.Node](t)(ann.Copy(ctx, []int64{kept.Node.ID}, board.ID, -1, ""))

	// Undo: Bob cannot take back Ann's change; Ann can; the owner's own changes are the owner's.
	if _, err := bob.Undo(ctx, ""); !errors.Is(err, library.ErrNotYours) || !strings.Contains(err.Error(), "guest a") {
		t.Errorf("a guest undid another's change: %v", err)
	}
	if _, err := shared.Undo(ctx, ""); !errors.Is(err, library.ErrNotYours) {
		t.Errorf("the owner under serve --public undid a guest's change: %v", err)
	}
	if !ann.Mine(must[library.Undo](t)(ann.LastChange(ctx))) || bob.Mine(must[library.Undo](t)(bob.LastChange(ctx))) {
		t.Errorf("Mine says otherwise")
	}
	must[library.Undo](t)(ann.Undo(ctx, "")) // the copy
	must[library.Undo](t)(ann.Undo(ctx, "")) // the pointer
	if _, err := owner.Resolve(ctx, "/Board/Ann's/"+p.Node.Title); !errors.Is(err, library.ErrNotFound) {
		t.Errorf("the pointer is still there: %v", err)
	}
	// A change made with a password may be undone by whoever gives it.
	must[library.Added](t)(ann.Point(ctx, sub.ID, library.PointerInput{URL: "https://ann2.example/"}))
	lock := "ann-PW"
	q := must[library.Added](t)(ann.Point(ctx, sub.ID, library.PointerInput{URL: "https://ann3.example/", By: library.Author{Password: lock}}))
	must[library.Node](t)(ann.Edit(ctx, q.Node.ID, library.Edit{Title: &title}, lock))
	if _, err := bob.Undo(ctx, ""); !errors.Is(err, library.ErrPassword) {
		t.Errorf("another's protected change without its password: %v", err)
	}
	must[library.Undo](t)(bob.Undo(ctx, lock))
	// In one person's window every change is theirs to undo.
	must[library.Undo](t)(owner.Undo(ctx, lock)) // Ann's protected pointer
	must[library.Undo](t)(owner.Undo(ctx, ""))   // Ann's other pointer
}

// gate counts what a Gate hears, and refuses once told to.
type gate struct {
	entered, wrong int
	refuse         bool
}

func (g *gate) Enter(context.Context) (func(), error) {
	if g.refuse {
		return nil, library.ErrSlowDown
	}
	g.entered++
	return func() {}, nil
}

func (g *gate) Wrong() { g.wrong++ }

func TestGateMetersPasswordChecks(t *testing.T) {
	ctx := context.Background()
	_, owner := open(t)
	g := &gate{}
	lib := owner.For(library.Person{}, g)
	n := must[library.Node](t)(lib.Create(ctx, library.RootID, library.LibraryInput{Title: "P", By: library.Author{Password: "pw"}}))
	if g.entered != 1 {
		t.Errorf("hashing a password did not go through the gate: %d", g.entered)
	}
	title := "t"
	if _, err := lib.Edit(ctx, n.ID, library.Edit{Title: &title}, ""); !errors.Is(err, library.ErrPassword) {
		t.Fatal(err)
	}
	if g.wrong != 0 || g.entered != 1 {
		t.Errorf("no password given, yet the gate heard of a check (%d) or a wrong one (%d)", g.entered, g.wrong)
	}
	if _, err := lib.Edit(ctx, n.ID, library.Edit{Title: &title}, "guess"); !errors.Is(err, library.ErrPassword) {
		t.Fatal(err)
	}
	if g.wrong != 1 || g.entered != 2 {
		t.Errorf("a wrong password: %d checks, %d wrong", g.entered, g.wrong)
	}
	g.refuse = true
	if _, err := lib.Edit(ctx, n.ID, library.Edit{Title: &title}, "pw"); !errors.Is(err, library.ErrSlowDown) {
		t.Errorf("a refusing gate let a check through: %v", err)
	}
	g.refuse = false
	must[library.Node](t)(lib.Edit(ctx, n.ID, library.Edit{Title: &title}, "pw"))
}

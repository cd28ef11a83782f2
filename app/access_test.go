package app

import (
	"context"
	"strings"
	"testing"
)

// The App acting for a guest of serve --public: what it reads of the owner's, what its
// changes are recorded as, and what the owner's window then says of them.
func TestActingForAGuest(t *testing.T) {
	a := openApp(t)
	if _, err := a.SaveSettings(Settings{From: "owner@example.org", DelayMs: 1000, PerHost: 2, Agents: 16, Theme: "system",
		MaxPerHost: 100_000, MaxQueryVariants: 200, MaxBody: 10 << 20}); err != nil {
		t.Fatal(err)
	}
	board, err := a.LibraryCreate(1, LibInput{Title: "Board"})
	if err != nil {
		t.Fatal(err)
	}
	open := true
	if _, err := a.LibraryEdit(board.ID, LibEdit{OpenToGuests: &open}, ""); err != nil {
		t.Fatal(err)
	}
	g := ActingFor(a, Caller{ID: "guest:1", Name: "guest 0001", Guest: true})
	if s, err := g.Settings(); err != nil || s.From != "" || s.DelayMs != 1000 {
		t.Errorf("a guest's settings: %+v %v", s, err)
	}
	if s, err := g.Status(); err != nil || s.Path != "" {
		t.Errorf("a guest's status names the workspace's path: %q %v", s.Path, err)
	}
	if w, err := g.Workspace(); err != nil || w.Path != "" {
		t.Errorf("a guest's workspace names its path: %q %v", w.Path, err)
	}
	if _, err := g.LibraryPoint(1, LibInput{URL: "https://root.example/"}); code(err) != CodeConflict {
		t.Errorf("a guest posting at the root: %v", err)
	}
	if _, err := g.LibraryPoint(board.ID, LibInput{URL: "https://guest.example/"}); err != nil {
		t.Fatal(err)
	}
	// Under serve --public the owner is not offered the guest's change; the window says whose it is.
	owner := ActingFor(a, Caller{})
	p, err := owner.LibraryPage(board.ID, "", 0, 10)
	if err != nil || p.LastChangeMine || p.LastChangeBy != "guest 0001" {
		t.Errorf("the owner's page under serve --public: mine %v, by %q, %v", p.LastChangeMine, p.LastChangeBy, err)
	}
	if _, err := owner.LibraryUndo(""); code(err) != CodeConflict || !strings.Contains(err.Error(), "guest 0001") {
		t.Errorf("the owner undoing a guest's change under serve --public: %v", err)
	}
	p, err = a.LibraryPage(board.ID, "", 0, 10)
	if err != nil || !p.LastChangeMine || p.LastChangeBy != "guest 0001" {
		t.Errorf("the window's page: mine %v, by %q, %v", p.LastChangeMine, p.LastChangeBy, err)
	}
	if p, _ = g.LibraryPage(board.ID, "", 0, 10); !p.LastChangeMine || p.LastChangeBy != "" {
		t.Errorf("the guest's own page: mine %v, by %q", p.LastChangeMine, p.LastChangeBy)
	}
	if _, err := a.LibraryUndo(""); err != nil {
		t.Errorf("the window undoing a guest's change: %v", err)
	}
}

// The owner's password of serve --public: set once freely, then changed only with it.
func TestOwnerPassword(t *testing.T) {
	a := openApp(t)
	if err := a.SetOwnerPassword("", "short"); code(err) != CodeInvalid {
		t.Errorf("a short password: %v", err)
	}
	if err := a.SetOwnerPassword("", "first-password"); err != nil {
		t.Fatal(err)
	}
	if err := a.SetOwnerPassword("", "second-password"); code(err) != CodeForbidden {
		t.Errorf("changing it without the current one: %v", err)
	}
	if err := a.SetOwnerPassword("first-password", "second-password"); err != nil {
		t.Fatal(err)
	}
	ac, err := LoadAccess(context.Background(), a.ws().st)
	if err != nil || !CheckOwnerPassword(ac, "second-password") || CheckOwnerPassword(ac, "first-password") || strings.Contains(ac.OwnerHash, "second") {
		t.Errorf("stored access %+v %v", ac, err)
	}
	if s, err := a.SetGuestAccess("read"); err != nil || s.Guests != GuestsRead || !s.OwnerPasswordSet {
		t.Errorf("guest access: %+v %v", s, err)
	}
	if _, err := a.SetGuestAccess("all"); code(err) != CodeInvalid {
		t.Errorf("an unknown guest access: %v", err)
	}
}

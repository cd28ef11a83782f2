package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mundaneum/backend/store"
)

// events collects what an App emits, by name.
type events chan [2]any

func (e events) emit(name string, payload any) { e <- [2]any{name, payload} }

// next waits for the event called name (others are skipped).
func (e events) next(t *testing.T, name string) any {
	t.Helper()
	deadline := time.After(30 * time.Second) // a failure's bound, not a wait: the event comes first
	for {
		select {
		case ev := <-e:
			if ev[0] == name {
				return ev[1]
			}
		case <-deadline:
			t.Fatalf("no %s event", name)
		}
	}
}

// The window started on a workspace another process holds says who holds it, waits, and
// opens it by itself once it is free (issue 28, item 7).
func TestOpeningWaitsForAHeldWorkspace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.mundaneum")
	holder, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := Opening(path)
	ev := make(events, 64)
	Attach(context.Background(), a, ev.emit)
	defer Detach(a)

	s, err := a.WorkspaceState()
	if err != nil {
		t.Fatal(err)
	}
	if s.Open || !s.Held || !s.Waiting || s.Path != path || s.Holder == nil || s.Holder.PID != os.Getpid() ||
		!strings.Contains(s.Holder.Command, filepath.Base(os.Args[0])) || s.Holder.Since == "" {
		t.Fatalf("state of a held workspace = %+v (holder %+v)", s, s.Holder)
	}

	holder.Close()
	if got := ev.next(t, EventWorkspaceChanged); got != path {
		t.Errorf("workspace:changed says %v", got)
	}
	if got := ev.next(t, EventWorkspaceState).(WorkspaceState); !got.Open || got.Path != path {
		t.Errorf("workspace:state says %+v", got)
	}
	if s, _ := a.WorkspaceState(); !s.Open || s.Held || s.Path != path {
		t.Errorf("state once free = %+v", s)
	}
	if st, err := a.Status(); err != nil || st.Path != path {
		t.Errorf("Status once open: %+v, %v", st, err)
	}
	if h, ok := store.ReadHolder(path); !ok || h.PID != os.Getpid() {
		t.Errorf("the window does not hold the workspace it opened: %+v, %v", h, ok)
	}
}

// Opening another workspace while waiting stops the wait: the first one, freed later,
// does not replace it.
func TestOpeningAnotherWhileWaiting(t *testing.T) {
	dir := t.TempDir()
	held, other := filepath.Join(dir, "held.mundaneum"), filepath.Join(dir, "other.mundaneum")
	holder, err := store.Open(context.Background(), held, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := Opening(held)
	ev := make(events, 64)
	Attach(context.Background(), a, ev.emit)
	defer Detach(a)
	if s, _ := a.WorkspaceState(); !s.Held {
		t.Fatalf("state = %+v", s)
	}
	// A held workspace cannot be opened in its place either, and the error says by whom.
	if _, err := a.OpenWorkspace(held, false); err == nil || !strings.Contains(err.Error(), "in use by another process: process") {
		t.Errorf("open the held one: %v", err)
	}
	if _, err := a.OpenWorkspace(other, true); err != nil {
		t.Fatal(err)
	}
	if got := ev.next(t, EventWorkspaceChanged); got != other {
		t.Fatalf("workspace:changed says %v", got)
	}
	holder.Close()
	// The wait has stopped: the freed workspace can be taken by someone else at once, and
	// stays free (nothing polls it any more).
	again, err := store.Open(context.Background(), held, store.Options{})
	if err != nil {
		t.Fatalf("the freed workspace was taken: %v", err)
	}
	again.Close()
	if s, _ := a.WorkspaceState(); !s.Open || s.Path != other {
		t.Errorf("state = %+v", s)
	}
}

// A file that is no workspace opens the window with the reason, not a silent exit.
func TestOpeningAFileThatIsNoWorkspace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.mundaneum")
	os.WriteFile(path, []byte("just some notes, not a database"), 0o644)
	a := Opening(path)
	defer Detach(a)
	s, err := a.WorkspaceState()
	if err != nil || s.Open || s.Held || !strings.Contains(s.Problem, "not a mundaneum workspace") {
		t.Fatalf("state = %+v, %v", s, err)
	}
}

// An App made by New (serve) is open from the start.
func TestWorkspaceStateOfNew(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
	defer Detach(a)
	if s, _ := a.WorkspaceState(); !s.Open || s.Path != st.Path() || s.Held {
		t.Errorf("state = %+v", s)
	}
}

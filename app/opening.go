package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"mundaneum/backend/store"
)

// The window opens its workspace on a goroutine of its own while GTK and WebKit start
// (together they take most of a second; opening, migrating and reading the index's state
// take a tenth of one, more for a new workspace): bound methods wait for that first
// attempt (ws), and the frontend asks WorkspaceState before it shows anything.
//
// When another process (serve, a crawl, another window) holds the workspace, the window
// still opens: it says who holds it, waits for it to be free and then opens it by itself,
// and offers another workspace meanwhile.

// EventWorkspaceState carries the window's WorkspaceState when it changes after the
// first attempt: the held workspace opened, or another process holds it now.
const EventWorkspaceState = "workspace:state"

// waitPoll is how often a held workspace is tried again.
const waitPoll = 250 * time.Millisecond

// WorkspaceState says whether the workspace is open and, when not, why.
type WorkspaceState struct {
	Path string `json:"path"`
	Open bool   `json:"open"`
	// Held: another process has it open for writing; Holder says which when known, and
	// Waiting that the window opens it as soon as it is free.
	Held    bool             `json:"held"`
	Holder  *WorkspaceHolder `json:"holder"`
	Waiting bool             `json:"waiting"`
	// Problem is why it could not be opened, when not held (not a workspace, too new...).
	Problem   string `json:"problem"`
	CanChoose bool   `json:"canChoose"` // ChooseWorkspace has native dialogs here
}

// WorkspaceHolder is the process that holds a workspace.
type WorkspaceHolder struct {
	PID     int    `json:"pid"`
	Command string `json:"command"` // its command line
	Since   string `json:"since"`   // RFC 3339, "" when not known
}

// Opening returns the API over the workspace at path, opened on a goroutine of its own;
// when another process holds it, the App waits for it (see WorkspaceState).
func Opening(path string) *App {
	a, open := opening(path)
	go open()
	return a
}

// opening returns the API over the workspace at path and the function that opens it.
func opening(path string) (*App, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	a := &App{core: &core{emit: func(string, any) {}, notifier: DesktopNotifier{}, opened: make(chan struct{}), stopWaiting: cancel}}
	a.state = WorkspaceState{Path: path}
	return a, func() { a.openWhenFree(ctx, path) }
}

// WorkspaceState says whether the workspace is open, and if not whether another process
// holds it (and which) or why it could not be opened. It waits for the first attempt to
// open it.
func (a *App) WorkspaceState() (WorkspaceState, error) {
	traceStep("frontend-code")
	return a.currentState(), nil
}

// currentState is WorkspaceState's answer.
func (a *App) currentState() WorkspaceState {
	if a.opened != nil {
		<-a.opened
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.state
	if s.Path == "" { // opened by New: the workspace is open
		s = WorkspaceState{Path: a.cur.Load().st.Path(), Open: true}
	}
	s.CanChoose = a.dialogs != nil
	return s
}

// openWhenFree opens the workspace at path, waiting while another process holds it.
func (a *App) openWhenFree(ctx context.Context, path string) {
	first := true
	attempted := func() {
		if first {
			traceStep("workspace")
			close(a.opened)
			first = false
		}
	}
	defer attempted()
	for {
		w, err := openWorkspace(ctx, path)
		var held *store.HeldError
		switch {
		case err == nil:
			if !a.install(ctx, w, !first) { // another workspace was opened meanwhile
				w.close()
			}
			return
		case errors.As(err, &held):
			if a.setHeld(ctx, path, held.Holder) && !first {
				a.emitState()
			}
			attempted()
		default:
			a.mu.Lock()
			if ctx.Err() == nil {
				a.state = WorkspaceState{Path: path, Problem: err.Error()}
			}
			a.mu.Unlock()
			if !first {
				a.emitState()
			}
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(waitPoll):
		}
	}
}

// setHeld records that h (nil: not known) holds the workspace at path, and reports
// whether that changed what WorkspaceState says.
func (a *App) setHeld(ctx context.Context, path string, h *store.Holder) bool {
	s := WorkspaceState{Path: path, Held: true, Waiting: true}
	if h != nil {
		s.Holder = &WorkspaceHolder{PID: h.PID, Command: commandLine(h.Command)}
		if !h.Since.IsZero() {
			s.Holder.Since = h.Since.UTC().Format(time.RFC3339)
		}
	}
	a.mu.Lock()
	if ctx.Err() != nil { // another workspace was opened meanwhile
		a.mu.Unlock()
		return false
	}
	changed := a.state.Held != s.Held || (a.state.Holder == nil) != (s.Holder == nil) ||
		s.Holder != nil && *a.state.Holder != *s.Holder
	a.state = s
	title := a.setTitle
	a.mu.Unlock()
	if title != nil && changed {
		title(heldTitle(path))
	}
	return changed
}

// heldTitle is the window's title while another process holds its workspace.
func heldTitle(path string) string { return "Mundaneum: " + filepath.Base(path) + " is in use" }

// attachTitle lets the App set the window's title (it says when the workspace is held).
func (a *App) attachTitle(set func(string)) {
	a.mu.Lock()
	a.setTitle = set
	s := a.state
	a.mu.Unlock()
	if s.Held {
		set(heldTitle(s.Path))
	}
}

// commandLine shows a recorded command as a shell would read it back, the program by its
// base name.
func commandLine(args []string) string {
	out := make([]string, len(args))
	for i, s := range args {
		if i == 0 {
			s = filepath.Base(s)
		}
		if s == "" || strings.ContainsAny(s, " \t\n'\"\\$`") {
			s = "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
		out[i] = s
	}
	return strings.Join(out, " ")
}

func (a *App) emitState() {
	s := a.currentState()
	a.mu.Lock()
	emit := a.emit
	a.mu.Unlock()
	emit(EventWorkspaceState, s)
}

// openWorkspace opens the workspace at path for writing, with its index and jobs; crawls
// left running by a process that stopped are marked interrupted.
func openWorkspace(ctx context.Context, path string) (*workspace, error) {
	st, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		return nil, err
	}
	if err := st.MarkInterrupted(ctx); err != nil {
		st.Close()
		return nil, fmt.Errorf("open workspace: %w", err)
	}
	w, err := newWorkspace(st)
	if err != nil {
		st.Close()
		return nil, err
	}
	return w, nil
}

// install makes w the open workspace unless ctx is done, closing the one before, and
// reports whether it did; announce tells the front end (it already asked WorkspaceState,
// or another workspace replaces the open one).
func (a *App) install(ctx context.Context, w *workspace, announce bool) bool {
	a.mu.Lock()
	if ctx.Err() != nil {
		a.mu.Unlock()
		return false
	}
	old := a.cur.Swap(w)
	a.state = WorkspaceState{Path: w.st.Path(), Open: true}
	started, emit, title := a.started.Load(), a.emit, a.setTitle
	a.mu.Unlock()
	if old != nil {
		old.close()
	}
	if started {
		a.startScheduler(w)
		a.moveLoopback(w) // browsers' door, on this workspace's port (capture.go)
	}
	if title != nil {
		title("Mundaneum")
	}
	if announce {
		emit(EventWorkspaceChanged, w.st.Path())
		emit(EventWorkspaceState, WorkspaceState{Path: w.st.Path(), Open: true})
	}
	return true
}

package app_test

import (
	"context"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"mundaneum/app"
	"mundaneum/app/web"
	"mundaneum/backend/store"
)

// freePort returns a port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func answers(port int) bool {
	c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), time.Second)
	if err == nil {
		c.Close()
	}
	return err == nil
}

// The window opens its door for browsers on the workspace's port when it starts, moves it
// when Settings says so (keeping the old one when the new port is taken), and closes it
// with the window.
func TestWindowDoorFollowsTheWindowAndSettings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.mundaneum")
	st, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(st)
	if err != nil {
		t.Fatal(err)
	}
	app.UseLoopback(a, web.NewLoopback(app.CaptureAPI(a), t.Logf))

	first := freePort(t)
	if _, err := a.SetCapturePort(80); err == nil {
		t.Error("a privileged port was accepted")
	}
	// Setting the port before the window opened its door opens it there.
	info, err := a.SetCapturePort(first)
	if err != nil {
		t.Fatal(err)
	}
	if info.Door != "window" || !info.Listening || info.Port != first || info.Address != "http://127.0.0.1:"+strconv.Itoa(first)+"/" {
		t.Fatalf("info = %+v", info)
	}
	app.StopLoopback(a)
	if answers(first) {
		t.Fatal("the door answers after the window closed")
	}
	app.StartLoopback(a)
	if !answers(first) {
		t.Fatal("the door did not open on the workspace's port")
	}

	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	busyPort := busy.Addr().(*net.TCPAddr).Port
	if _, err := a.SetCapturePort(busyPort); err == nil || !strings.Contains(err.Error(), `"code":"conflict"`) {
		t.Errorf("a port in use: %v", err)
	}
	if info, _ := a.CaptureInfo(); info.Port != first || !info.Listening || !answers(first) {
		t.Errorf("after a refused move the door is not where it was: %+v", info)
	}

	second := freePort(t)
	if info, err := a.SetCapturePort(second); err != nil || info.Port != second {
		t.Fatalf("move: %+v %v", info, err)
	}
	if answers(first) || !answers(second) {
		t.Error("the door did not move")
	}
	app.StopLoopback(a)
	app.Detach(a)

	// The port is the workspace's setting: the next window opens its door there.
	st, err = store.Open(context.Background(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := app.New(st)
	if err != nil {
		t.Fatal(err)
	}
	defer app.Detach(b)
	app.UseLoopback(b, web.NewLoopback(app.CaptureAPI(b), t.Logf))
	app.StartLoopback(b)
	defer app.StopLoopback(b)
	if info, _ := b.CaptureInfo(); info.Port != second || !info.Listening || !answers(second) {
		t.Errorf("next window: %+v", info)
	}

	// A port in use when the window opens: no door, and Settings says why.
	app.StopLoopback(b)
	hold, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(second))
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	app.StartLoopback(b)
	if info, _ := b.CaptureInfo(); info.Listening || info.Error == "" || info.Port != second {
		t.Errorf("with the port taken: %+v", info)
	}
}

func TestServeDoorIsServesOwnAddress(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(st)
	if err != nil {
		t.Fatal(err)
	}
	defer app.Detach(a)
	if info, _ := a.CaptureInfo(); info.Door != "none" || info.Listening {
		t.Errorf("no front door: %+v", info)
	}
	app.ServeCapture(a, "http://127.0.0.1:4242/")
	info, err := a.CaptureInfo()
	if err != nil || info.Door != "serve" || info.Address != "http://127.0.0.1:4242/" || !info.Listening {
		t.Errorf("serve: %+v %v", info, err)
	}
	if _, err := a.SetCapturePort(5000); err == nil || !strings.Contains(err.Error(), `"code":"unavailable"`) {
		t.Errorf("serve's port set from Settings: %v", err)
	}
	code, err := a.CapturePairingCode()
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := a.CaptureInfo(); info.Code == nil || info.Code.Code != code.Code {
		t.Errorf("the code in force is not shown: %+v", info.Code)
	}
	a.CaptureCancelPairing()
	if info, _ := a.CaptureInfo(); info.Code != nil {
		t.Errorf("a cancelled code is shown: %+v", info.Code)
	}
}

// The window's start (Wails' OnStartup) may come before the first open of its workspace
// ends: on a loaded machine, or a workspace that migrates. The open still ends, and the
// door for browsers opens once, on the workspace's port. It did not: the open waited for
// itself to end (the door's port is the workspace's setting), and the window stayed blank.
func TestWorkspaceOpensAfterTheWindowStarted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.mundaneum")
	port := freePort(t)
	{ // the workspace's door is on a free port, not the default one another window may hold
		st, err := store.Open(context.Background(), path, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		a, err := app.New(st)
		if err != nil {
			t.Fatal(err)
		}
		app.UseLoopback(a, web.NewLoopback(app.CaptureAPI(a), t.Logf))
		if _, err := a.SetCapturePort(port); err != nil {
			t.Fatal(err)
		}
		app.StopLoopback(a)
		app.Detach(a)
	}

	a, open := app.OpeningLater(path)
	app.UseLoopback(a, web.NewLoopback(app.CaptureAPI(a), t.Logf))
	app.Attach(context.Background(), a, func(string, any) {})
	started := make(chan struct{})
	go func() { // as desktop.go's OnStartup does: it waits for the workspace
		app.StartLoopback(a)
		close(started)
	}()
	defer app.StopLoopback(a)
	go open()

	state := make(chan app.WorkspaceState, 1)
	go func() {
		s, _ := a.WorkspaceState()
		state <- s
	}()
	select {
	case s := <-state:
		if !s.Open || s.Path != path {
			t.Fatalf("state = %+v", s)
		}
	case <-time.After(time.Minute): // a deadlock: no amount of waiting ends it
		t.Fatal("the workspace's first open did not end after the window had started")
	}
	defer app.Detach(a) // only now: it waits for the open too
	<-started
	if info, _ := a.CaptureInfo(); !info.Listening || info.Port != port || info.Error != "" || !answers(port) {
		t.Errorf("the door after the open: %+v", info)
	}
}

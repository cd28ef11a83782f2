package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"mundaneum/backend/capture"
	"mundaneum/backend/library"
	"mundaneum/backend/store"
)

// Capture from the browser (issue 27). A browser extension adds pages to the library
// through a loopback HTTP door: serve's own address, or, while the window is open, a port
// of its own (app/web's Loopback, started and stopped with the window). Settings pairs
// browsers (a one-time code), lists and unpairs them, and sets the window's port. The
// extension's calls arrive through Capturer, which is not bound: the window never makes
// them.

// DefaultCapturePort is where the window listens for browsers unless Settings says
// otherwise: below the ephemeral range, so that no outgoing connection takes it.
const DefaultCapturePort = 7343

// captureSettingKey holds the window's door settings in the workspace's settings table.
const captureSettingKey = "capture"

type captureSettings struct {
	Port int `json:"port"`
}

// Loopback is the window's door for browsers (app/web's Loopback): the capture API alone,
// on 127.0.0.1:port.
type Loopback interface {
	// Start listens on port and serves until Stop; it returns the door's address.
	Start(port int) (string, error)
	// Stop closes the door and waits for the calls in flight.
	Stop() error
}

// captureState is the App's part of the capture.
type captureState struct {
	pairing *capture.Pairing

	mu       sync.Mutex
	door     Loopback // the window's; nil in serve and on the command line
	addr     string   // where the extension calls: the door's, or serve's
	port     int      // the window's door's port, 0 when it does not listen
	doorErr  string   // why the window's door does not listen
	saver    *capture.Saver
	saverFor *store.Store
}

func (a *App) captureState() *captureState {
	a.captureOnce.Do(func() { a.capture = &captureState{pairing: capture.NewPairing(nil)} })
	return a.capture
}

// UseLoopback gives the window its door for browsers; the window opens it once started
// (startLoopback). A package function, not a method, so that it is not frontend API.
func UseLoopback(a *App, l Loopback) {
	c := a.captureState()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.door = l
}

// ServeCapture tells a that browsers reach it at serve's address url.
func ServeCapture(a *App, url string) {
	c := a.captureState()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.addr = url
}

// capturePort reads the window's port from the settings of st, a workspace.
func capturePort(ctx context.Context, st *store.Store) int {
	v, ok, err := st.LoadSetting(ctx, captureSettingKey)
	var s captureSettings
	if err != nil || !ok || json.Unmarshal(v, &s) != nil || s.Port < 1 || s.Port > 65535 {
		return DefaultCapturePort
	}
	return s.Port
}

// startLoopback opens the window's door on the workspace's port. A port in use is not
// fatal: Settings says so and offers another.
func (a *App) startLoopback() {
	w := a.ws()
	if w == nil {
		return // held by another process: the door opens with the workspace (install)
	}
	c := a.captureState()
	port := capturePort(context.Background(), w.st)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.door == nil || c.port != 0 {
		return // no door, or open already: the workspace opened after the window started (install)
	}
	c.startLocked(port)
}

func (c *captureState) startLocked(port int) error {
	addr, err := c.door.Start(port)
	if err != nil {
		c.addr, c.port, c.doorErr = "", 0, err.Error()
		return err
	}
	c.addr, c.port, c.doorErr = addr, port, ""
	return nil
}

// stopLoopback closes the window's door.
func (a *App) stopLoopback() {
	c := a.captureState()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.door != nil && c.port != 0 {
		c.door.Stop()
		c.addr, c.port = "", 0
	}
}

// moveLoopback opens the window's door on the port of w, the workspace open now, moving
// it there when it listens on another workspace's port. It is called while w is installed,
// before the window's first wait for its workspace ends (ws would wait for itself).
func (a *App) moveLoopback(w *workspace) {
	c := a.captureState()
	port := capturePort(context.Background(), w.st)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.door == nil || c.port == port {
		return
	}
	if c.port != 0 {
		c.door.Stop()
	}
	c.startLocked(port)
}

// saverOf returns the Saver of the workspace open now.
func (a *App) saverOf(st *store.Store) *capture.Saver {
	c := a.captureState()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.saverFor != st {
		c.saver, c.saverFor = capture.NewSaver(st), st
	}
	return c.saver
}

// captureError maps a capture error to the app's codes.
func captureError(err error) error {
	if errors.Is(err, capture.ErrForbidden) {
		return &Error{Code: CodeForbidden, Message: err.Error()}
	}
	return apiError(err)
}

// CaptureInfo says where browsers reach this Mundaneum, who is paired and the pairing code
// in force.
func (a *App) CaptureInfo() (result CaptureInfo, _ error) {
	defer lists(&result)
	c := a.captureState()
	clients, err := a.ws().st.CaptureClients(context.Background())
	if err != nil {
		return CaptureInfo{}, apiError(err)
	}
	c.mu.Lock()
	info := CaptureInfo{Door: "serve", Address: c.addr, Port: c.port, Error: c.doorErr, Clients: make([]CaptureClient, 0, len(clients))}
	if c.door != nil {
		info.Door = "window"
	} else if c.addr == "" {
		info.Door = "none"
	}
	c.mu.Unlock()
	info.Listening = info.Address != ""
	if info.Door == "window" && info.Port == 0 {
		info.Port = capturePort(context.Background(), a.ws().st)
	}
	for _, cl := range clients {
		info.Clients = append(info.Clients, captureClientDTO(cl))
	}
	if code, ok := c.pairing.Current(); ok {
		info.Code = &PairingCode{Code: code.Code, Expires: code.Expires.UTC().Format(time.RFC3339)}
	}
	return info, nil
}

// CapturePairingCode makes a new one-time pairing code (it ends any earlier one); a browser
// extension exchanges it for its token within capture.CodeLifetime.
func (a *App) CapturePairingCode() (PairingCode, error) {
	code, err := a.captureState().pairing.New()
	if err != nil {
		return PairingCode{}, apiError(err)
	}
	return PairingCode{Code: code.Code, Expires: code.Expires.UTC().Format(time.RFC3339)}, nil
}

// CaptureCancelPairing ends the pairing code in force.
func (a *App) CaptureCancelPairing() error {
	a.captureState().pairing.Cancel()
	return nil
}

// CaptureUnpair forgets a paired browser: its token is refused from now on.
func (a *App) CaptureUnpair(id int64) error {
	return apiError(a.ws().st.RemoveCaptureClient(context.Background(), id))
}

// SetCapturePort moves the window's door for browsers to port (1024-65535), and keeps it
// in the workspace's settings. In serve, the door is serve's own address (--addr).
func (a *App) SetCapturePort(port int) (result CaptureInfo, _ error) {
	defer lists(&result)
	if port < 1024 || port > 65535 {
		return CaptureInfo{}, &Error{Code: CodeInvalid, Message: "the port must be between 1024 and 65535"}
	}
	c := a.captureState()
	c.mu.Lock()
	if c.door == nil {
		c.mu.Unlock()
		return CaptureInfo{}, &Error{Code: CodeUnavailable, Message: "serve listens on its own address: start it with --addr 127.0.0.1:PORT for a fixed one"}
	}
	old := c.port
	if old != 0 {
		c.door.Stop()
	}
	if err := c.startLocked(port); err != nil {
		if old != 0 {
			c.startLocked(old)
		}
		c.mu.Unlock()
		return CaptureInfo{}, &Error{Code: CodeConflict, Message: fmt.Sprintf("cannot listen on port %d: %v", port, err)}
	}
	c.mu.Unlock()
	js, _ := json.Marshal(captureSettings{Port: port})
	if err := a.ws().st.SaveSetting(context.Background(), captureSettingKey, js); err != nil {
		return CaptureInfo{}, apiError(err)
	}
	return a.CaptureInfo()
}

// LibraryChoices completes a library's path for a form that adds to the library: the
// libraries that take pointers and match query, recently used ones first.
func (a *App) LibraryChoices(query string, limit int) (result []LibChoice, _ error) {
	defer lists(&result)
	cs, err := capture.Libraries(context.Background(), a.ws().st, query, limit)
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]LibChoice, 0, len(cs))
	for _, c := range cs {
		out = append(out, LibChoice{ID: c.ID, Path: c.Path, Recent: c.Recent})
	}
	return out, nil
}

// Capturer answers the calls of paired browsers (app/web's capture door). It is not bound
// into the window.
type Capturer struct{ a *App }

// CaptureAPI returns the capture calls of a, for the door that serves them.
func CaptureAPI(a *App) *Capturer { return &Capturer{a: a} }

// Pair exchanges a pairing code sent from origin for a token.
func (c *Capturer) Pair(ctx context.Context, code, origin, browser string) (capture.Paired, error) {
	p, err := capture.Pair(ctx, c.a.ws().st, c.a.captureState().pairing, code, origin, browser)
	if err == nil {
		c.a.emit(EventCapturePaired, captureClientDTO(p.Client))
	}
	return p, captureError(err)
}

// Authorize finds the paired browser a call comes from.
func (c *Capturer) Authorize(ctx context.Context, token, origin string) (capture.Client, error) {
	cl, err := capture.Authorize(ctx, c.a.ws().st, token, origin)
	return cl, captureError(err)
}

// Workspace names the workspace open now (its file's name).
func (c *Capturer) Workspace() string { return filepath.Base(c.a.ws().st.Path()) }

// Door says which door the calls come through: "window" or "serve".
func (c *Capturer) Door() string {
	s := c.a.captureState()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.door != nil {
		return "window"
	}
	return "serve"
}

// Where tells where a page is in the library.
func (c *Capturer) Where(ctx context.Context, url string) (capture.Status, error) {
	s, err := capture.Where(ctx, c.a.ws().st, url)
	return s, captureError(err)
}

// Libraries completes a library's path.
func (c *Capturer) Libraries(ctx context.Context, query string, limit int) ([]capture.Choice, error) {
	cs, err := capture.Libraries(ctx, c.a.ws().st, query, limit)
	return cs, captureError(err)
}

// Tags completes a tag.
func (c *Capturer) Tags(ctx context.Context, prefix string, limit int) ([]library.TagCount, error) {
	ts, err := capture.Tags(ctx, c.a.ws().st, prefix, limit)
	return ts, captureError(err)
}

// Add adds a page to the library for browser cl, and saves it as shown when sent.
func (c *Capturer) Add(ctx context.Context, cl capture.Client, in capture.Addition) (capture.Added, error) {
	st := c.a.ws().st
	now := time.Now()
	out, err := capture.Add(ctx, st, c.a.saverOf(st), in, now)
	if err != nil {
		return out, captureError(err)
	}
	st.CaptureUsed(ctx, cl.ID, now.UnixMilli())
	if !out.Existing {
		c.a.changed("added " + out.Place.Title)
	}
	return out, nil
}

// Save stores a page as browser cl shows it.
func (c *Capturer) Save(ctx context.Context, cl capture.Client, p capture.Page) (capture.Saved, error) {
	st := c.a.ws().st
	now := time.Now()
	s, err := c.a.saverOf(st).Save(ctx, p, now)
	if err != nil {
		return s, captureError(err)
	}
	st.CaptureUsed(ctx, cl.ID, now.UnixMilli())
	return s, nil
}

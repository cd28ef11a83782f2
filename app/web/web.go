// Package web is Mundaneum's browser front door: it serves the built frontend and the same
// API the desktop window binds (every exported method of the bound objects, called by name
// with a JSON array of arguments) over HTTP, and the app's events as a server-sent event
// stream. A small script it injects into index.html gives the page the window.go and
// window.runtime objects the Wails bindings expect, so the frontend runs unchanged.
//
// Crawled pages open in the same browser, so the door is locked: a per-process token in the
// served page is required on every API and event request, the Host header must name the
// listening address (DNS rebinding), a foreign Origin is refused, and every response carries
// a strict Content-Security-Policy that forbids framing. Under `serve --public` (a Door) the
// workspace also has an owner who signs in and guests who may only read and post where the
// owner allows (auth.go), their password attempts metered per client (limit.go).
package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"net"
	"net/http"
	"time"
)

// Options configure a Server.
type Options struct {
	// Assets is the built frontend: the directory holding index.html, or a tree holding
	// frontend/dist (the FS main embeds).
	Assets fs.FS
	// Bind lists the objects whose exported methods are the API, as for the Wails window:
	// the method M of a *pkg.T is window.go.pkg.T.M in the page and POST /api/T.M here.
	Bind []any
	// Files, when set, answers under /files/ (uploads and downloads of whole files, which
	// the JSON API does not carry), behind the same door: same site and the token, in the
	// X-Mundaneum-Token header, or for a GET (a download link) in the token query parameter.
	Files http.Handler
	// Mounts are handlers of their own paths (exact), outside the API's token and
	// same-site checks: each checks its own callers (the exchange's read-only tokens).
	Mounts map[string]http.Handler
	// Capture, when set, answers browser extensions under /capture/ (capture.go): calls
	// from their own Origin, with a paired browser's token instead of the page's.
	Capture Capture
	// Logf reports server-side failures (panics, internal errors); nil logs to the
	// standard logger.
	Logf func(format string, args ...any)
	// Door, when set, locks the door for `serve --public`: an owner who signs in and
	// guests (auth.go). Without it (a loopback serve) the one user is the owner.
	Door Door
	// Now is the clock of sessions and password limits (nil: time.Now; for tests).
	Now func() time.Time
}

// Server is the browser front door. It is an http.Handler.
type Server struct {
	token  string
	api    *api
	static *static
	events *hub
	files  http.Handler
	mounts map[string]http.Handler
	logf   func(format string, args ...any)
	auth   *auth // nil without a Door
	// capture is the door of browser extensions, nil when none (captureauth.go).
	capture http.Handler
}

// New returns a Server over the assets and bound objects. It fails if the assets hold no
// index.html or a bound method cannot be called over JSON.
func New(opts Options) (*Server, error) {
	if opts.Assets == nil {
		return nil, errors.New("web: no frontend assets")
	}
	token, err := newToken()
	if err != nil {
		return nil, err
	}
	a, err := newAPI(opts.Bind)
	if err != nil {
		return nil, err
	}
	st, err := newStatic(opts.Assets, token, a.namespaces())
	if err != nil {
		return nil, err
	}
	logf := opts.Logf
	if logf == nil {
		logf = log.Printf
	}
	srv := &Server{token: token, api: a, static: st, events: newHub(), files: opts.Files, mounts: opts.Mounts, logf: logf}
	if opts.Door != nil {
		now := opts.Now
		if now == nil {
			now = time.Now
		}
		srv.auth = newAuth(opts.Door, now, logf)
	}
	if opts.Capture != nil {
		srv.capture = captureHandler(opts.Capture, logf)
	}
	return srv, nil
}

// Token is the per-process secret every API and event request must carry (in the
// X-Mundaneum-Token header, or the token query parameter of the event stream).
func (s *Server) Token() string { return s.token }

// Emit sends an event to every connected page; it has the shape of app.Emitter and never
// blocks.
func (s *Server) Emit(name string, payload any) { s.events.emit(name, payload) }

// Serve answers requests on ln until ctx is done, then closes the event streams and shuts
// down gracefully (waiting up to 5 s for API calls in flight). It returns nil after a
// shutdown caused by ctx.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       readTimeout,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          log.New(logWriter(s.logf), "", 0),
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		s.events.close()
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	s.events.close()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	<-errc
	return nil
}

// Close ends every event stream (Serve does it on shutdown).
func (s *Server) Close() { s.events.close() }

// readTimeout bounds reading one request (a variable for the tests).
var readTimeout = 30 * time.Second

func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("web: make token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

type logWriter func(format string, args ...any)

func (l logWriter) Write(p []byte) (int, error) {
	l("%s", p)
	return len(p), nil
}

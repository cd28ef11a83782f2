package web

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Loopback is the desktop window's door for browser extensions: the capture API alone, on
// 127.0.0.1, with serve's checks (the Host names the door, the capture lock of
// captureauth.go, bounded bodies, the same response headers); nothing else answers there.
// The window opens it when it starts and closes it when it closes (app.UseLoopback).
type Loopback struct {
	handler http.Handler
	logf    func(format string, args ...any)

	mu   sync.Mutex
	srv  *http.Server
	done chan struct{}
}

// NewLoopback returns a closed door over a capture API; logf reports server failures (nil:
// the standard logger).
func NewLoopback(c Capture, logf func(format string, args ...any)) *Loopback {
	if logf == nil {
		logf = log.Printf
	}
	return &Loopback{handler: captureHandler(c, logf), logf: logf}
}

// ServeHTTP answers one request of the door.
func (l *Loopback) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	secureHeaders(w.Header())
	if !hostOK(r) {
		fail(w, http.StatusForbidden, codeForbidden, "this server does not answer for host "+strconv.Quote(r.Host))
		return
	}
	if !isCapturePath(r.URL.Path) {
		fail(w, http.StatusNotFound, codeNotFound, "this is Mundaneum's door for browser extensions: nothing else answers here")
		return
	}
	l.handler.ServeHTTP(w, r)
}

// Start opens the door on 127.0.0.1:port (0: a free port) and returns its address,
// "http://127.0.0.1:PORT/". It fails when the door is open already or the port is taken.
func (l *Loopback) Start(port int) (string, error) {
	if port < 0 || port > 65535 {
		return "", fmt.Errorf("port %d: %w", port, ErrAddress)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.srv != nil {
		return "", errors.New("the door for browsers is open already")
	}
	ln, _, err := Listen(net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), false)
	if err != nil {
		return "", err
	}
	srv := &http.Server{
		Handler:           l,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       readTimeout,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          log.New(logWriter(l.logf), "", 0),
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			l.logf("web: the door for browsers: %v", err)
		}
	}()
	l.srv, l.done = srv, done
	return URL(ln), nil
}

// Stop closes the door: it stops listening at once and waits up to 5 s for the calls in
// flight. Stopping a closed door does nothing.
func (l *Loopback) Stop() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.srv == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := l.srv.Shutdown(ctx)
	if err != nil {
		l.srv.Close()
	}
	<-l.done
	l.srv, l.done = nil, nil
	return err
}

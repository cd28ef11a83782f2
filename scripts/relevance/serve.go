package main

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// docServer serves a directory over HTTP on loopback, like a static web server, and
// records which pages it served: the crawl's page set, which the baseline then indexes.
type docServer struct {
	root string
	srv  *http.Server
	base string // "http://127.0.0.1:PORT/"

	mu     sync.Mutex
	served map[string]string // path relative to root -> media type, for 200 GETs
}

// startServer serves root on 127.0.0.1 at a free port until stop is called.
func startServer(root string) (*docServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen on loopback: %w", err)
	}
	s := &docServer{root: root, base: "http://" + ln.Addr().String() + "/", served: map[string]string{}}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(os.Stderr, "relevance: server: %v\n", err)
		}
	}()
	return s, nil
}

func (s *docServer) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = s.srv.Shutdown(ctx)
}

// ServeHTTP serves files as they are, without http.FileServer's redirect of
// .../index.html to .../, so that URLs in the index keep the paths the pages link to. A
// directory is served as its index.html.
func (s *docServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	rel := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/") // Clean removes any ".."
	name := filepath.Join(s.root, filepath.FromSlash(rel))
	fi, err := os.Stat(name)
	if err == nil && fi.IsDir() {
		rel = path.Join(rel, "index.html")
		name = filepath.Join(name, "index.html")
		fi, err = os.Stat(name)
	}
	if err != nil || !fi.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	f, err := os.Open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	rec := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	http.ServeContent(rec, r, fi.Name(), fi.ModTime(), f)
	if r.Method == http.MethodGet && rec.status == http.StatusOK {
		mt, _, _ := mime.ParseMediaType(w.Header().Get("Content-Type"))
		s.mu.Lock()
		s.served[rel] = mt
		s.mu.Unlock()
	}
}

// pages lists the served paths whose media type a crawler indexes as a page.
func (s *docServer) pages() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for p, mt := range s.served {
		switch mt {
		case "text/html", "application/xhtml+xml", "text/plain":
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// statusWriter remembers the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

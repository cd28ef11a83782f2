package web

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strings"
	"time"
)

// distDir is where the built frontend lives in the tree main embeds.
const distDir = "frontend/dist"

// bridgePath is where the page loads the bridge script from.
const bridgePath = "/_mundaneum/bridge.js"

// bridgeJS is the bridge: window.go and window.runtime over fetch and EventSource. The
// placeholder is replaced by the bound methods.
//
//go:embed bridge.js
var bridgeJS string

const bindingsPlaceholder = "/*BINDINGS*/{}"

// static serves the built frontend: index.html with the token and the bridge injected,
// the bridge itself, and the other files as they are.
type static struct {
	dist   fs.FS
	index  []byte
	bridge []byte
}

var headTag = regexp.MustCompile(`(?i)<head(\s[^>]*)?>`)

func newStatic(assets fs.FS, token string, ns map[string]map[string][]string) (*static, error) {
	dist := assets
	if _, err := fs.Stat(assets, "index.html"); err != nil {
		sub, err := fs.Sub(assets, distDir)
		if err != nil {
			return nil, fmt.Errorf("web: open %s: %w", distDir, err)
		}
		dist = sub
	}
	index, err := fs.ReadFile(dist, "index.html")
	if err != nil {
		return nil, fmt.Errorf("web: the frontend has no index.html (build it first: make frontend): %w", err)
	}
	loc := headTag.FindIndex(index)
	if loc == nil {
		return nil, errors.New("web: the frontend's index.html has no <head>")
	}
	// The bridge is a classic script at the top of <head>: it runs before the app's module
	// script, which browsers defer.
	inject := "\n    <meta name=\"mundaneum-token\" content=\"" + token + "\" />" +
		"\n    <script src=\"" + bridgePath + "\"></script>"
	page := make([]byte, 0, len(index)+len(inject))
	page = append(append(append(page, index[:loc[1]]...), inject...), index[loc[1]:]...)

	b, err := json.Marshal(ns)
	if err != nil {
		return nil, fmt.Errorf("web: encode bindings: %w", err)
	}
	if strings.Count(bridgeJS, bindingsPlaceholder) != 1 {
		return nil, errors.New("web: bridge.js lacks its bindings placeholder")
	}
	bridge := strings.Replace(bridgeJS, bindingsPlaceholder, string(b), 1)
	return &static{dist: dist, index: page, bridge: []byte(bridge)}, nil
}

var contentTypes = map[string]string{
	".html":  "text/html; charset=utf-8",
	".js":    "text/javascript; charset=utf-8",
	".mjs":   "text/javascript; charset=utf-8",
	".css":   "text/css; charset=utf-8",
	".json":  "application/json",
	".map":   "application/json",
	".png":   "image/png",
	".jpg":   "image/jpeg",
	".svg":   "image/svg+xml",
	".ico":   "image/x-icon",
	".webp":  "image/webp",
	".woff2": "font/woff2",
	".woff":  "font/woff",
	".txt":   "text/plain; charset=utf-8",
	".wasm":  "application/wasm",
}

func contentType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if ct, ok := contentTypes[ext]; ok {
		return ct
	}
	if ct := mime.TypeByExtension(ext); ct != "" {
		return ct
	}
	return "application/octet-stream"
}

func (s *static) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	switch r.URL.Path {
	case "/", "/index.html":
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Cache-Control", "no-store")
		http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(s.index))
		return
	case bridgePath:
		h.Set("Content-Type", "text/javascript; charset=utf-8")
		h.Set("Cache-Control", "no-store")
		http.ServeContent(w, r, "bridge.js", time.Time{}, bytes.NewReader(s.bridge))
		return
	}
	name := strings.TrimPrefix(r.URL.Path, "/")
	if !fs.ValidPath(name) || hidden(name) {
		http.NotFound(w, r)
		return
	}
	f, err := s.dist.Open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	h.Set("Content-Type", contentType(name))
	if strings.HasPrefix(name, "assets/") {
		// Vite puts a content hash in these names.
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if rs, ok := f.(io.ReadSeeker); ok {
		http.ServeContent(w, r, name, fi.ModTime(), rs)
		return
	}
	b, err := io.ReadAll(io.LimitReader(f, 64<<20))
	if err != nil {
		http.Error(w, "read "+name, http.StatusInternalServerError)
		return
	}
	http.ServeContent(w, r, name, fi.ModTime(), bytes.NewReader(b))
}

// hidden reports whether a path has a dot-file element (dist/.gitkeep and the like).
func hidden(name string) bool {
	for _, el := range strings.Split(name, "/") {
		if strings.HasPrefix(el, ".") {
			return true
		}
	}
	return false
}

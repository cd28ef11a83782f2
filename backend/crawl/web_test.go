package crawl

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// testWeb is a small site that exercises what a crawler meets: robots.txt, redirects,
// broken links, encodings, traps, duplicates, noindex, other hosts, non-HTML types, 429s.
type testWeb struct {
	*httptest.Server
	other    *httptest.Server // another host, out of a site scope
	mu       sync.Mutex
	hits     map[string]int // requests per path
	cond     atomic.Int64   // conditional requests answered 304
	throttle atomic.Int64   // 429s still to send for /busy
}

func page(title, body string) string {
	return "<!doctype html><html><head><title>" + title + "</title></head><body>" + body + "</body></html>"
}

func newTestWeb(t *testing.T) *testWeb {
	t.Helper()
	w := &testWeb{hits: map[string]int{}}
	w.throttle.Store(1)
	w.other = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w.count("other" + r.URL.Path)
		fmt.Fprint(rw, page("Other host", "elsewhere"))
	}))
	t.Cleanup(w.other.Close)
	mux := http.NewServeMux()
	html := func(path, body string) {
		mux.HandleFunc(path, func(rw http.ResponseWriter, r *http.Request) {
			rw.Header().Set("Content-Type", "text/html; charset=utf-8")
			rw.Header().Set("ETag", `"v1"`)
			if r.Header.Get("If-None-Match") == `"v1"` {
				w.cond.Add(1)
				rw.WriteHeader(http.StatusNotModified)
				return
			}
			fmt.Fprint(rw, body)
		})
	}
	mux.HandleFunc("/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		fmt.Fprint(rw, "User-agent: *\nDisallow: /private/\n\nUser-agent: mundaneum\nDisallow: /private/\nDisallow: /mundaneum-only\n")
	})
	html("/{$}", page("Home of the index", `
		<a href="/about">About the Mundaneum</a>
		<a href="/private/diary">diary</a>
		<a href="/mundaneum-only">hidden from us</a>
		<a href="/old">old page</a>
		<a href="/missing">broken link</a>
		<a href="/latin1">latin</a>
		<a href="/gzipped">compressed</a>
		<a href="/dup1">dup one</a> <a href="/dup2">dup two</a>
		<a href="/secret">secret</a>
		<a href="/nofollow-header">header nofollow</a>
		<a href="/trap/a/a/a/a/">trap</a>
		<a href="/report.pdf">report</a> <a href="/looks-like-page">pdf in disguise</a>
		<a href="/busy">busy</a>
		<a href="`+w.other.URL+`/elsewhere">another host</a>
		<img src="/logo.png" alt="logo of the index">`))
	html("/about", page("About", `Paul Otlet built a card index of all knowledge. <a href="/">home</a>`))
	mux.HandleFunc("/private/diary", func(rw http.ResponseWriter, r *http.Request) { fmt.Fprint(rw, page("Diary", "secret")) })
	mux.HandleFunc("/mundaneum-only", func(rw http.ResponseWriter, r *http.Request) { fmt.Fprint(rw, page("Nope", "nope")) })
	mux.HandleFunc("/old", func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, "/new", http.StatusMovedPermanently)
	})
	html("/new", page("New home of the old page", "moved content"))
	mux.HandleFunc("/latin1", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
		rw.Write([]byte(page("Caf\xe9 society", "Un caf\xe9 cr\xe8me, s'il vous pla\xeet")))
	})
	mux.HandleFunc("/gzipped", func(rw http.ResponseWriter, r *http.Request) {
		var b bytes.Buffer
		z := gzip.NewWriter(&b)
		z.Write([]byte(page("Squeezed", "zeppelin compressed words")))
		z.Close()
		rw.Header().Set("Content-Type", "text/html")
		rw.Header().Set("Content-Encoding", "gzip")
		rw.Write(b.Bytes())
	})
	dup := page("Same", "identical twin content")
	html("/dup1", dup)
	html("/dup2", dup)
	html("/secret", `<html><head><title>Secret</title><meta name="robots" content="noindex"></head><body>xylophone <a href="/from-secret">more</a></body></html>`)
	html("/from-secret", page("Linked from secret", "followed despite noindex"))
	mux.HandleFunc("/nofollow-header", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("X-Robots-Tag", "nofollow")
		fmt.Fprint(rw, page("Header says nofollow", `<a href="/not-followed">not followed</a>`))
	})
	mux.HandleFunc("/not-followed", func(rw http.ResponseWriter, r *http.Request) { fmt.Fprint(rw, page("Should not be fetched", "")) })
	mux.HandleFunc("/trap/", func(rw http.ResponseWriter, r *http.Request) {
		fmt.Fprint(rw, page("Trap", `<a href="a/">deeper</a>`))
	})
	mux.HandleFunc("/report.pdf", func(rw http.ResponseWriter, r *http.Request) { rw.Write([]byte("%PDF-1.4")) })
	mux.HandleFunc("/looks-like-page", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "application/pdf")
		rw.Write(bytes.Repeat([]byte("x"), 100000))
	})
	mux.HandleFunc("/busy", func(rw http.ResponseWriter, r *http.Request) {
		if w.throttle.Add(-1) >= 0 {
			rw.Header().Set("Retry-After", "0")
			rw.WriteHeader(http.StatusTooManyRequests)
			return
		}
		fmt.Fprint(rw, page("Busy but answered", "patience"))
	})
	w.Server = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w.count(r.URL.Path)
		mux.ServeHTTP(rw, r)
	}))
	t.Cleanup(w.Server.Close)
	return w
}

func (w *testWeb) count(path string) {
	w.mu.Lock()
	w.hits[path]++
	w.mu.Unlock()
}

func (w *testWeb) hitsOf(path string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.hits[path]
}

func (w *testWeb) paths(prefix string) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for p := range w.hits {
		if strings.HasPrefix(p, prefix) {
			out = append(out, p)
		}
	}
	return out
}

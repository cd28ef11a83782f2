package crawl

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"mundaneum/backend/offline"
)

var tinyPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")

// requisiteSite serves two pages sharing a style sheet that imports another and names an
// image and a font; a page image; an "image" that is HTML; an image robots.txt forbids;
// and a style sheet behind a redirect. It counts the requests for each path.
type requisiteSite struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
}

func newRequisiteSite(t *testing.T) *requisiteSite {
	s := &requisiteSite{hits: map[string]int{}}
	mux := http.NewServeMux()
	page := func(title, body string) string {
		return `<!doctype html><html><head><title>` + title + `</title><link rel="stylesheet" href="/css/site.css">
<link rel="stylesheet" href="/moved.css"></head><body>` + body + `</body></html>`
	}
	serve := func(ct, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ct)
			w.Write([]byte(body))
		}
	}
	mux.HandleFunc("/robots.txt", serve("text/plain", "User-agent: *\nDisallow: /private/\n"))
	mux.HandleFunc("/", serve("text/html", page("Home", `<h1>Home</h1><a href="/two.html">two</a>
<img src="/img/logo.png" alt="logo"><img src="/img/fake.png" alt="fake"><img src="/private/secret.png" alt="secret">`)))
	mux.HandleFunc("/two.html", serve("text/html", page("Two", `<h1>Two</h1><a href="/">home</a><img src="/img/logo.png" alt="logo">`)))
	mux.HandleFunc("/css/site.css", serve("text/css", `@import url(base.css);h1{background:url(../img/bg.png)}
@font-face{font-family:F;src:url(/fonts/f.woff2) format("woff2")}`))
	mux.HandleFunc("/css/base.css", serve("text/css", `body{margin:0}`))
	mux.HandleFunc("/moved.css", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/css/final.css", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/css/final.css", serve("text/css", `p{color:teal}`))
	mux.HandleFunc("/img/logo.png", serve("image/png", string(tinyPNG)))
	mux.HandleFunc("/img/bg.png", serve("application/octet-stream", string(tinyPNG)))
	mux.HandleFunc("/img/fake.png", serve("image/png", `<html><script>alert(1)</script></html>`))
	mux.HandleFunc("/private/secret.png", serve("image/png", string(tinyPNG)))
	mux.HandleFunc("/fonts/f.woff2", serve("font/woff2", "wOF2\x00\x01\x00\x00"))
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		s.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *requisiteSite) hit(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

func TestRequisitesAreGatheredOnceAndKeptOnlyWhenTheyAreWhatTheySeem(t *testing.T) {
	site := newRequisiteSite(t)
	st := openStore(t)
	ctx := context.Background()
	cfg := Config{Seeds: []string{site.URL + "/"}, Delay: 0, Requisites: true}
	p := run(t, st, cfg)
	if p.Requisites != 6 {
		t.Errorf("%d requisites stored, want 6 (a sheet, the one it imports, the redirected one, two images, the font): note %q", p.Requisites, p.Note)
	}
	for path, want := range map[string]string{
		"/css/site.css": "text/css", "/css/base.css": "text/css", "/moved.css": "text/css", "/img/logo.png": "image/png",
		"/img/bg.png": "image/png", "/fonts/f.woff2": "font/woff2",
	} {
		r, err := st.Requisite(ctx, site.URL+path, time.Now().UnixMilli())
		if err != nil || r.ContentType != want {
			t.Errorf("%s: %q %v, want %s", path, r.ContentType, err, want)
		}
	}
	for _, path := range []string{"/img/fake.png", "/private/secret.png"} {
		if _, err := st.Requisite(ctx, site.URL+path, time.Now().UnixMilli()); err == nil {
			t.Errorf("%s was kept", path)
		}
	}
	if site.hit("/private/secret.png") != 0 {
		t.Error("robots.txt was not honoured for a requisite")
	}
	for _, path := range []string{"/css/site.css", "/img/logo.png", "/fonts/f.woff2"} {
		if n := site.hit(path); n != 1 {
			t.Errorf("%s fetched %d times, want once", path, n)
		}
	}

	// The copy shows them.
	id, err := st.PageID(ctx, site.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := st.Page(ctx, id)
	body, ct, cs, _ := st.Body(ctx, id)
	c, err := offline.Make(ctx, st.Store, offline.Source{PageID: id, URL: page.URL, Body: body, ContentType: ct, Charset: cs, At: page.FetchedAt})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"body{margin:0}", "p{color:teal}", `url("data:font/woff2;base64,`, `<img alt="logo" src="data:image/png;base64,`} {
		if !strings.Contains(c.Document, want) {
			t.Errorf("the copy lacks %q:\n%s", want, c.Document)
		}
	}
	if strings.Contains(c.Document, "script") || !strings.Contains(c.Document, "fake") {
		t.Errorf("the fake image:\n%s", c.Document)
	}

	// Run again: nothing is asked for again (the pages are not due either).
	run(t, st, cfg)
	if n := site.hit("/css/site.css"); n != 1 {
		t.Errorf("the style sheet was fetched again (%d)", n)
	}
	// With --refresh every requisite is fetched again, once.
	cfg.Refresh = true
	run(t, st, cfg)
	if n := site.hit("/css/site.css"); n != 2 {
		t.Errorf("after a refresh run the style sheet was fetched %d times, want 2", n)
	}
}

func TestRequisitesAskedForLaterCatchUp(t *testing.T) {
	site := newRequisiteSite(t)
	st := openStore(t)
	cfg := Config{Seeds: []string{site.URL + "/"}, Delay: 0}
	if p := run(t, st, cfg); p.Requisites != 0 || site.hit("/css/site.css") != 0 {
		t.Fatalf("requisites fetched without being asked for: %d", p.Requisites)
	}
	cfg.Requisites = true
	if p := run(t, st, cfg); p.Requisites != 6 {
		t.Errorf("the later run stored %d requisites, want 6", p.Requisites)
	}
	var gathered int
	st.ReadDB().QueryRow(`SELECT count(*) FROM requisite_pages`).Scan(&gathered)
	if gathered != 2 {
		t.Errorf("%d pages gathered, want 2", gathered)
	}
}

package render_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"mundaneum/backend/render"
	"mundaneum/backend/render/rendertest"
)

// scopeGate admits requests to one host, but for its /private/, and counts them.
type scopeGate struct {
	host    string
	mu      sync.Mutex
	held    int // turns taken and not given back
	admit   int
	refused map[string]int
}

func newGate(site *rendertest.Site) *scopeGate {
	u, _ := url.Parse(site.URL)
	return &scopeGate{host: u.Host, refused: map[string]int{}}
}

func (g *scopeGate) Admit(ctx context.Context, u *url.URL) (func(int, bool), error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case u.Host != g.host:
		g.refused[u.Host]++
		return nil, &render.Refused{Reason: "out of scope"}
	case strings.HasPrefix(u.Path, "/private/"):
		g.refused["robots"]++
		return nil, &render.Refused{Reason: "robots.txt"}
	}
	g.admit++
	g.held++
	once := sync.Once{}
	return func(int, bool) {
		once.Do(func() {
			g.mu.Lock()
			g.held--
			g.mu.Unlock()
		})
	}, nil
}

func (g *scopeGate) heldNow() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.held
}

// fetchDoc fetches a page as the crawl would have, for the renderer.
func fetchDoc(t *testing.T, raw string) (int, http.Header, []byte) {
	t.Helper()
	res, err := http.Get(raw)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, b
}

func newRenderer(t *testing.T, o render.Options) *render.Renderer {
	t.Helper()
	o.Exec = rendertest.Browser(t)
	r := render.New(o)
	t.Cleanup(func() { r.Close() })
	return r
}

func renderPage(t *testing.T, r *render.Renderer, g render.Gate, raw string) (*render.Result, error) {
	t.Helper()
	st, h, body := fetchDoc(t, raw)
	return r.Render(context.Background(), render.Request{URL: raw, Status: st, Header: h, Body: body, Gate: g})
}

// TestRenderScriptBuiltPages renders each kind of script-built page of the test site and
// finds the text only its scripts make, the links they add, the route fragments, the text
// of shadow roots and what comes on scroll; the document is never fetched twice.
func TestRenderScriptBuiltPages(t *testing.T) {
	site := rendertest.New(10)
	defer site.Close()
	r := newRenderer(t, render.Options{FullPage: true})
	g := newGate(site)
	for _, c := range []struct {
		path  string
		words []string
		links []string
	}{
		{"/app/", []string{rendertest.WordApp}, []string{`href="/app/about"`, `href="/app/cards/1"`}},
		{"/app/about", []string{rendertest.WordAbout}, nil},
		{"/hash/#!/otlet", []string{rendertest.WordHash}, nil},
		{"/hash/#/fontaine", []string{rendertest.WordHash2}, nil},
		{"/scroll/", []string{rendertest.WordScroll}, nil},
		{"/links/", []string{"did not exist"}, []string{`href="/links/target-1"`, `href="/links/target-3"`}},
		{"/shadow/", []string{rendertest.WordShadow, rendertest.WordClosed, "Slotted light text"}, nil},
	} {
		t.Run(c.path, func(t *testing.T) {
			before := site.Hits(strings.SplitN(c.path, "#", 2)[0])
			res, err := renderPage(t, r, g, site.URL+c.path)
			if err != nil {
				t.Fatal(err)
			}
			html := string(res.HTML)
			for _, w := range c.words {
				if !strings.Contains(html, w) {
					t.Errorf("%q is not in the rendered DOM (settled %v, %s):\n%.2000s", w, res.Settled, res.Note, html)
				}
			}
			for _, l := range c.links {
				if !strings.Contains(html, l) {
					t.Errorf("the link %s is not in the rendered DOM", l)
				}
			}
			if strings.Contains(html, "<script") || strings.Contains(html, rendertest.WordNever) {
				t.Errorf("scripts or noscript text kept in the rendered DOM")
			}
			if got := site.Hits(strings.SplitN(c.path, "#", 2)[0]); got != before+1 {
				t.Errorf("the document was requested %d times by the test and the browser, want once (by the test)", got-before)
			}
			if res.Screenshot == nil || len(res.Screenshot.Data) < 100 || res.Screenshot.Width != render.DefaultWidth {
				t.Errorf("no viewport screenshot: %+v", res.Screenshot)
			}
			if res.FullPage == nil || res.FullPage.Height < 1 {
				t.Errorf("no full-page screenshot")
			}
			if !res.Settled {
				t.Errorf("did not settle: %s", res.Note)
			}
		})
	}
	// The hash route links: route fragments of the document, not other fragments.
	res, err := renderPage(t, r, g, site.URL+"/hash/")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{site.URL + "/hash/#!/otlet": true, site.URL + "/hash/#/fontaine": true}
	for _, rt := range res.Routes {
		if !want[rt] {
			t.Errorf("unexpected route %s", rt)
		}
		delete(want, rt)
	}
	if len(want) > 0 {
		t.Errorf("routes missing: %v (got %v)", want, res.Routes)
	}
	if n := g.heldNow(); n != 0 {
		t.Errorf("%d turns of the host were not given back", n)
	}
	if st := r.Stats(); st.Peak.PSS == 0 || st.Rendered == 0 {
		t.Errorf("no memory measured or nothing counted: %+v", st)
	}
}

// TestRenderKeepsToTheScope: requests to other hosts, to paths robots.txt disallows, web
// sockets and beacons never reach a server; the page's own requests do.
func TestRenderKeepsToTheScope(t *testing.T) {
	site := rendertest.New(1)
	defer site.Close()
	r := newRenderer(t, render.Options{})
	g := newGate(site)
	res, err := renderPage(t, r, g, site.URL+"/hostile/outside")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.HTML), rendertest.WordOutside) {
		t.Errorf("the page's own request did not come through:\n%.1000s", res.HTML)
	}
	for _, p := range []string{"tracker/t.js", "tracker/pixel.gif", "tracker/collect", "tracker/beacon", "tracker/socket", "/private/secret.json"} {
		if n := site.Hits(p); n > 0 {
			t.Errorf("%s was requested %d times", p, n)
		}
	}
	t.Logf("settled %v note %q requests %d refused %d elapsed %v", res.Settled, res.Note, res.Requests, res.Refused, res.Elapsed)
	if res.Refused < 3 {
		t.Errorf("refused %d requests, want the tracker's and the private one", res.Refused)
	}
}

// TestRenderWorkerKeepsToTheScope: a worker's requests are the page's: its own come
// through, the tracker's do not.
func TestRenderWorkerKeepsToTheScope(t *testing.T) {
	site := rendertest.New(1)
	defer site.Close()
	r := newRenderer(t, render.Options{})
	res, err := renderPage(t, r, newGate(site), site.URL+"/hostile/worker")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.HTML), "The worker says: The "+rendertest.WordAbout) {
		t.Errorf("the worker's own request did not come through:\n%.600s", res.HTML)
	}
	for _, p := range []string{"tracker/from-worker", "tracker/worker-socket"} {
		if n := site.Hits(p); n > 0 {
			t.Errorf("%s was requested %d times", p, n)
		}
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]render.Mode{"": render.Auto, "auto": render.Auto, "ALWAYS": render.Always, " never ": render.Never} {
		if got, err := render.ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := render.ParseMode("sometimes"); err == nil {
		t.Error("ParseMode(sometimes) did not fail")
	}
}

// TestNoBrowser: a renderer whose browser does not exist says how to install one.
func TestNoBrowser(t *testing.T) {
	r := render.New(render.Options{Exec: "/nonexistent/chromium"})
	defer r.Close()
	_, err := r.Render(context.Background(), render.Request{URL: "http://127.0.0.1:1/", Body: []byte("<p>x"), Gate: newGate(rendertest.New(0))})
	if render.CauseOf(err) != render.CauseNoBrowser || !strings.Contains(err.Error(), "apt-get install chromium") {
		t.Errorf("Render without a browser: %v (cause %s)", err, render.CauseOf(err))
	}
	if r.Available() == nil {
		t.Error("Available says yes")
	}
	_ = time.Second
}

// TestBrowserThatWillNotStart: a browser that exits at once fails the pages with words,
// and is not started again for every page.
func TestBrowserThatWillNotStart(t *testing.T) {
	site := rendertest.New(1)
	defer site.Close()
	dir := t.TempDir()
	count := filepath.Join(dir, "starts")
	exe := filepath.Join(dir, "chromium")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\necho start >> "+count+"\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := render.New(render.Options{Exec: exe})
	defer r.Close()
	g := newGate(site)
	for i := range 4 {
		if _, err := renderPage(t, r, g, site.URL+"/app/about"); err == nil || err.Error() == "" {
			t.Fatalf("page %d rendered by a browser that exits", i)
		}
	}
	b, _ := os.ReadFile(count)
	if n := strings.Count(string(b), "start"); n != 2 {
		t.Errorf("the browser was started %d times for 4 pages, want 2", n)
	}
}

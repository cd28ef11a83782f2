package crawl

import (
	"context"
	"crypto/sha1"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"mundaneum/backend/history"
	"mundaneum/backend/store"
)

// changingSite serves pages whose content the test changes between runs; unknown paths get
// the site's "not found" page, with status notFound (a soft-404 site answers 200).
type changingSite struct {
	mu       sync.Mutex
	pages    map[string]string
	notFound int
	etags    bool
	probes   int
}

func (s *changingSite) set(path, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[path] = body
}

func (s *changingSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	body, ok := s.pages[r.URL.Path]
	if strings.Contains(r.URL.Path, "mundaneum-no-such-page") {
		s.probes++
	}
	s.mu.Unlock()
	if r.URL.Path == "/robots.txt" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("X-Test", "kept")
	if !ok {
		w.WriteHeader(s.notFound)
		w.Write([]byte(`<title>Oops</title><p>We looked everywhere. Try our search page or the site map, or go back to the start.`))
		return
	}
	if s.etags {
		etag := fmt.Sprintf(`"%x"`, sha1.Sum([]byte(body)))
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	w.Write([]byte(body))
}

func versionsOf(t *testing.T, st *store.Store, url string) []store.Version {
	t.Helper()
	id, err := st.PageID(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := st.Versions(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

const article = `<title>Eels</title><p>Eels travel thousands of kilometres to spawn in the Sargasso Sea.
	They cross the Atlantic as larvae, drifting for months, and climb rivers as glass eels.
	Nobody has seen them spawn, and the journey back is still a mystery to biologists.</p>`

func TestVersionsAcrossRuns(t *testing.T) {
	site := &changingSite{pages: map[string]string{
		"/":       `<title>Home</title><a href="a.html">a</a> <a href="b.html">b</a> <a href="c.html">c</a>`,
		"/a.html": `<title>A</title><p>the old wording stays</p>`,
		"/b.html": article,
		"/c.html": article + "<p>c</p>",
	}, notFound: 200, etags: true}
	srv := httptest.NewServer(site)
	defer srv.Close()
	st := openStore(t)
	cfg := Config{Seeds: []string{srv.URL + "/"}, Scope: ScopeSite, Delay: 0, PerHost: 2}
	run(t, st, cfg)
	a := srv.URL + "/a.html"
	if vs := versionsOf(t, st.Store, a); len(vs) != 1 || !vs[0].Current || !strings.Contains(vs[0].Header, "X-Test: kept") ||
		!strings.HasPrefix(vs[0].Header, "HTTP/1.1 200 OK\r\n") || vs[0].Title != "A" {
		t.Fatalf("after one run: %+v", vs)
	}

	// The content changes: a second version. b dies behind a 200, c is parked.
	site.set("/a.html", `<title>A</title><p>the new wording zygomorph arrives</p>`)
	site.set("/b.html", `<title>Oops</title><p>We looked everywhere. Try our search page or the site map, or go back to the start.`)
	site.set("/c.html", `<title>c.example</title><p>This domain may be for sale. Related searches: loans, flights.`)
	cfg.Refresh = true
	run(t, st, cfg)
	vs := versionsOf(t, st.Store, a)
	if len(vs) != 2 || vs[0].Current || !vs[1].Current || vs[0].Hash == vs[1].Hash || !vs[0].Cached || vs[1].Flag != "" {
		t.Fatalf("after a change: %+v", vs)
	}
	id, _ := st.PageID(context.Background(), a)
	c, err := history.Compare(context.Background(), st, id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var added string
	for _, o := range c.Ops {
		if o.Kind == history.Added {
			added += o.Text
		}
	}
	if !strings.Contains(added, "zygomorph") || c.From.ID != vs[0].ID || c.To.ID != vs[1].ID {
		t.Errorf("diff %+v", c.Ops)
	}
	if vs := versionsOf(t, st.Store, srv.URL+"/b.html"); len(vs) != 2 || vs[1].Flag != store.FlagSoft404 {
		t.Errorf("soft 404: %+v", vs)
	}
	if vs := versionsOf(t, st.Store, srv.URL+"/c.html"); len(vs) != 2 || vs[1].Flag != store.FlagParked {
		t.Errorf("parked: %+v", vs)
	}
	if site.probes != 1 {
		t.Errorf("%d probes of the site's error page, want 1", site.probes)
	}

	// Nothing changes: no new version, the newest is confirmed (by a 304 here).
	run(t, st, cfg)
	vs = versionsOf(t, st.Store, a)
	if len(vs) != 2 || vs[1].ConfirmedAt == 0 || vs[1].ConfirmedStatus != http.StatusNotModified {
		t.Errorf("after an unchanged run: %+v", vs)
	}

	// Keep only the newest version: the older body goes unless another page has it.
	p, err := st.SetRetention(context.Background(), store.Retention{Keep: store.KeepNone})
	if err != nil {
		t.Fatal(err)
	}
	if p.Versions != 3 || p.Bodies < 1 {
		t.Errorf("prune %+v", p)
	}
	if vs := versionsOf(t, st.Store, a); len(vs) != 1 || !vs[0].Current {
		t.Errorf("after pruning: %+v", vs)
	}
	u, err := st.HistoryUsage(context.Background())
	if err != nil || u.Bodies != 0 || u.Pages != 0 || u.Unnamed != 0 {
		t.Errorf("usage %+v %v", u, err)
	}
	// And from now on a change replaces the body.
	site.set("/a.html", `<title>A</title><p>third</p>`)
	run(t, st, cfg)
	if vs := versionsOf(t, st.Store, a); len(vs) != 1 || !vs[0].Current {
		t.Errorf("with no history kept: %+v", vs)
	}
	if u, _ := st.HistoryUsage(context.Background()); u.Bodies != 0 || u.Unnamed != 0 {
		t.Errorf("bodies left behind: %+v", u)
	}
}

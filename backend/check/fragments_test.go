package check

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fragmentWeb is a site whose links point to parts of pages: parts that are there (ids,
// an <a name>, a percent-encoded id), parts that are not, on its own pages, on a page that
// moved, on a page that is missing, in a PDF, and on a page of another host.
type fragmentWeb struct {
	*httptest.Server
	other *httptest.Server
	mu    sync.Mutex
	hits  map[string]int // "METHOD path", both servers
}

func newFragmentWeb(t *testing.T) *fragmentWeb {
	t.Helper()
	w := &fragmentWeb{hits: map[string]int{}}
	count := func(h http.HandlerFunc) http.HandlerFunc {
		return func(rw http.ResponseWriter, r *http.Request) {
			w.mu.Lock()
			w.hits[r.Method+" "+r.URL.Path]++
			w.mu.Unlock()
			h(rw, r)
		}
	}
	w.other = httptest.NewServer(count(func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html")
		fmt.Fprint(rw, page("Elsewhere", "", `<h1 id="there">there</h1>`))
	}))
	t.Cleanup(w.other.Close)
	mux := http.NewServeMux()
	html := func(path, body string) {
		mux.HandleFunc(path, func(rw http.ResponseWriter, r *http.Request) {
			rw.Header().Set("Content-Type", "text/html")
			fmt.Fprint(rw, body)
		})
	}
	html("/{$}", page("Top", "", `<h1 id="here">Top</h1>
		<a href="/page.html#present">1</a> <a href="/page.html#absent">2</a> <a href="/page.html#named">3</a>
		<a href="/page.html#caf%C3%A9">4</a> <a href="/page.html">5</a> <a href="#here">6</a> <a href="#nowhere">7</a>
		<a href="/moved#present">8</a> <a href="/moved#lost">8b</a> <a href="/missing#x">9</a> <a href="/doc.pdf#page=2">10</a>
		<a href="`+w.other.URL+`/ext.html#there">11</a> <a href="`+w.other.URL+`/ext.html#gone">12</a>`))
	html("/page.html", page("Page", "", `<h2 id="present">P</h2><a name="named"></a><p id="café">c</p>
		<a href="/#here">up</a> <a href="/#nope">up, nowhere</a> <a href="#present">self</a>`))
	html("/moved-to.html", page("Moved here", "", `<h2 id="present">P</h2>`))
	mux.HandleFunc("/moved", func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, "/moved-to.html", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/doc.pdf", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "application/pdf")
		fmt.Fprint(rw, "%PDF-1.4 not really")
	})
	mux.HandleFunc("/", func(rw http.ResponseWriter, r *http.Request) { http.NotFound(rw, r) })
	w.Server = httptest.NewServer(count(mux.ServeHTTP))
	t.Cleanup(w.Close)
	return w
}

// A link to a part of a page that the page lacks has a verdict of its own, named with its
// fragment, never "broken"; each page is read once however many fragments point into it
// (issue 29, item 14).
func TestFragmentsAreChecked(t *testing.T) {
	t.Parallel()
	w := newFragmentWeb(t)
	st := openStore(t)
	ctx := context.Background()
	task := addTask(t, st, Task{Name: "frags", Type: Site, Top: w.URL + "/", Options: Options{Report: DefaultReport}})
	res := runTasks(t, st, task)
	m := loadModel(t, st, res.Reports[0].ReportID)

	missing := []string{w.URL + "/page.html#absent", w.URL + "/moved#lost", w.URL + "/#nowhere", w.URL + "/#nope", w.other.URL + "/ext.html#gone"}
	for _, u := range missing {
		if l := linkOf(m, u); l == nil || l.Verdict != string(FragmentMissing) || !strings.Contains(l.Reason, "no element") {
			t.Errorf("%s: %+v, want fragment_missing", u, l)
		}
	}
	var got []string
	for _, it := range m.News.Fragments {
		got = append(got, it.URL)
	}
	if len(got) != len(missing) {
		t.Errorf("missing fragments in the news: %q, want %q", got, missing)
	}
	// Parts that are there show as their page; so do parts of a page that fails or that is
	// not HTML.
	for _, u := range []string{"/page.html#present", "/page.html#named", "/page.html#caf%C3%A9", "/#here", "/moved#present",
		"/missing#x", "/doc.pdf#page=2"} {
		if l := linkOf(m, w.URL+u); l != nil {
			t.Errorf("%s is listed on its own: %+v", u, l)
		}
	}
	if l := linkOf(m, w.URL+"/missing"); l == nil || l.Verdict != string(Broken) {
		t.Errorf("/missing: %+v", l)
	}
	if len(m.News.Broken) != 1 || m.News.Broken[0].URL != w.URL+"/missing" {
		t.Errorf("broken news: %+v (a missing fragment is never broken)", m.News.Broken)
	}
	if it := newsItem(m.News.Fragments, w.URL+"/page.html#absent"); it == nil || len(it.From) != 1 || it.From[0] != w.URL+"/" {
		t.Errorf("the missing fragment's cross-reference: %+v", it)
	}
	// The top references /page.html once for its four fragments that are there and the bare
	// link, and /page.html#absent apart.
	top := m.Docs[0]
	n := 0
	for _, r := range top.Refs {
		if m.Links[r.Link].URL == w.URL+"/page.html" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the top references /page.html %d times, want once", n)
	}
	// Each page is read once; the other host's page, a leaf, once with GET for its ids.
	w.mu.Lock()
	hits := fmt.Sprint(w.hits)
	pageGets, pageHeads, extGets, extHeads := w.hits["GET /page.html"], w.hits["HEAD /page.html"], w.hits["GET /ext.html"], w.hits["HEAD /ext.html"]
	w.mu.Unlock()
	if pageGets != 1 || pageHeads != 0 || extGets != 1 || extHeads != 0 {
		t.Errorf("requests: %s", hits)
	}
	// The missing part is recorded under its own URL; it never counts towards dead.
	runTasks(t, st, task)
	health, err := st.LinkHealth(ctx, []string{w.URL + "/page.html#absent"})
	if h := health[w.URL+"/page.html#absent"]; err != nil || h.Verdict != string(FragmentMissing) || h.Failures != 0 || h.DeadAt != 0 {
		t.Errorf("health of the missing fragment: %+v, %v", h, err)
	}

	// Links checked one by one are named with their fragments.
	r2, err := Run(ctx, st, testConfig(), Request{URLs: []string{w.URL + "/page.html#absent", w.URL + "/page.html#present",
		w.URL + "/missing#x"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		url  string
		kind Kind
	}{{w.URL + "/page.html#absent", FragmentMissing}, {w.URL + "/page.html#present", OK}, {w.URL + "/missing#x", Broken}}
	for i, c := range want {
		if l := r2.Links[i]; l.URL != c.url || l.Verdict.Kind != c.kind {
			t.Errorf("link %d: %s %s, want %s %s", i, l.URL, l.Verdict.Kind, c.url, c.kind)
		}
	}
}

// What a fragment may name that no id has: the top, text directives, script routes, ranges
// of lines whose first line is there; a page that forwards its reader takes any fragment.
func TestFragmentFindsItsPlace(t *testing.T) {
	ids := func(s ...string) []uint64 {
		var h []uint64
		for _, x := range s {
			h = append(h, hashString(x))
		}
		return h
	}
	a := newAnchorSet(ids("intro", "café", "12", "L40"), false)
	for frag, want := range map[string]bool{
		"intro": true, "caf%C3%A9": true, "": true, "top": true, "TOP": true, ":~:text=hello": true, "intro:~:text=x": true,
		"!/route": true, "/route": true, "12-30": true, "L40-L45": true, "13-30": false, "intro-2": false,
		"outro": false, "Intro": false, "caf%C3": false,
	} {
		if got := a.has(frag, "example.org"); got != want {
			t.Errorf("has(%q) = %v, want %v", frag, got, want)
		}
	}
	if !newAnchorSet(ids("user-content-usage"), false).has("usage", "github.com") {
		t.Error("a GitHub README's heading")
	}
	if !newAnchorSet(nil, true).has("method.map", "example.org") {
		t.Error("a page that forwards its reader")
	}
}

package crawl

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"mundaneum/backend/rules"
	"mundaneum/backend/store"
)

// tierSite serves a small web whose pages fall in every rule category, and records the
// order in which they are fetched.
type tierSite struct {
	mu    sync.Mutex
	order []string
	links map[string][]string
	body  map[string]string
}

func (s *tierSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/robots.txt" {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	s.order = append(s.order, r.Host+r.URL.Path)
	s.mu.Unlock()
	var b strings.Builder
	for _, l := range s.links[r.URL.Path] {
		fmt.Fprintf(&b, `<a href="%s">link to %s</a> `, l, l)
	}
	w.Header().Set("Content-Type", "text/html")
	fmt.Fprint(w, page("Page "+r.URL.Path, s.body[r.URL.Path]+" "+b.String()))
}

func TestCrawlFollowsCategories(t *testing.T) {
	other := &tierSite{}
	osrv := httptest.NewServer(other)
	defer osrv.Close()
	site := &tierSite{
		links: map[string][]string{
			"/":       {"/last/c", "/rej/d", "/dir/b", "/imp/a", osrv.URL + "/x"},
			"/imp/a":  {"/rej/z", "/dir/b"},
			"/dir/b":  {"/imp/e", "/dir/f"},
			"/dir/f":  {"/dir/never"},
			"/last/c": {"/last/h"},
		},
		body: map[string]string{"/dir/f": "Welcome to the casino"},
	}
	srv := httptest.NewServer(site)
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	ohost := strings.TrimPrefix(osrv.URL, "http://")
	st := openStore(t)
	cfg := Config{Seeds: []string{srv.URL + "/"}, Agents: 1, Delay: 0, Rules: `
		*path:/imp/*
		*url:` + osrv.URL + `/*
		+path:/dir/*
		?path:/last/*
		-path:/rej/*
		-body:*casino*`}
	p := run(t, st, cfg)
	got := site.order
	want := []string{"/", "/imp/a", "/dir/b", "/imp/e", "/dir/f", "/last/c", "/last/h"}
	for i := range want {
		want[i] = host + want[i]
	}
	if !slices.Equal(got, want) {
		t.Errorf("fetch order\n got %v\nwant %v", got, want)
	}
	// The imperative rule took the crawl to the other host (outside the site scope), first.
	if !slices.Equal(other.order, []string{ohost + "/x"}) {
		t.Errorf("other host: %v", other.order)
	}
	if p.Fetched != 8 {
		t.Errorf("fetched %d", p.Fetched)
	}
	for _, u := range []string{"/rej/d", "/rej/z"} {
		if r := pageOf(t, st, srv.URL+u); r.state != store.StateSkipped || r.reason != ReasonRule {
			t.Errorf("%s: %+v", u, r)
		}
	}
	// The casino page was read, then rejected: its links are recorded, not followed.
	if r := pageOf(t, st, srv.URL+"/dir/never"); r.state != store.StateSkipped || r.reason != ReasonRule {
		t.Errorf("link of a rejected page: %+v", r)
	}

	els := elementsOf(t, st.Store, p.CrawlID)
	check := func(url, family string, v rules.Value, followed bool) {
		t.Helper()
		e, ok := els[srv.URL+url]
		if !ok {
			t.Errorf("no element for %s", url)
			return
		}
		if e.family != family || e.value != v || e.followed != followed {
			t.Errorf("%s: %s %v followed=%v, want %s %v %v", url, e.family, e.value, e.followed, family, v, followed)
		}
	}
	check("/", "01", rules.First, true)
	check("/imp/a", "01.04", rules.First, true)
	check("/dir/b", "01.03", rules.Next, true)
	check("/imp/e", "01.03.01", rules.First, true)
	check("/dir/f", "01.03.02", rules.Rejected, false)
	check("/last/c", "01.01", rules.Last, true)
	// The seed's children: every link is an element, rejected ones too.
	seed := els[srv.URL+"/"]
	if len(seed.children) != 5 || seed.children[1] != rules.Rejected || seed.children[3] != rules.First {
		t.Errorf("seed's children: %v", seed.children)
	}
	// The same URL reached by two paths keeps both: /dir/b is 01.03 and /imp/a's second link.
	if a := els[srv.URL+"/imp/a"]; len(a.children) != 2 || a.childIDs[1] != els[srv.URL+"/dir/b"].id {
		t.Errorf("/imp/a's children: %v", a.children)
	}
}

type elementRow struct {
	id       int64
	family   string
	value    rules.Value
	followed bool
	children []rules.Value
	childIDs []int64
}

func elementsOf(t *testing.T, st *store.Store, crawlID int64) map[string]elementRow {
	t.Helper()
	rows, err := st.ReadDB().Query(`SELECT p.url, e.page_id, e.family, e.category, e.followed, e.children
		FROM elements e JOIN pages p ON p.id = e.page_id WHERE e.crawl_id = ?`, crawlID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]elementRow{}
	for rows.Next() {
		var u string
		var fam, kids []byte
		var e elementRow
		if err := rows.Scan(&u, &e.id, &fam, &e.value, &e.followed, &kids); err != nil {
			t.Fatal(err)
		}
		f, err := rules.DecodeFamily(fam)
		if err != nil {
			t.Fatal(err)
		}
		e.family = f.String()
		cs, err := store.DecodeChildren(kids)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			e.children = append(e.children, rules.Value(c.Category))
			e.childIDs = append(e.childIDs, c.PageID)
		}
		out[u] = e
	}
	return out
}

func TestRulesErrorsArePositioned(t *testing.T) {
	st := openStore(t)
	_, err := Open(t.Context(), st.Store, st.idx, Config{Seeds: []string{"http://example.org/"}, Rules: "+url:a\n{AND +url:b"})
	var re *rules.Error
	if !errors.Is(err, ErrConfig) || !errors.As(err, &re) || re.Pos.Line != 2 {
		t.Fatalf("error %v", err)
	}
}

package graph

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"mundaneum/backend/crawl"
	"mundaneum/backend/rules"
	"mundaneum/backend/store"
)

// smallWeb is a known web:
//
//	/ -> a b c     a -> d b     b -> d e     c -> e x(first run only)     d -> f     e -> f /
//
// From / to f there are four shortest paths (length 3) and two of length 4.
var smallWeb = map[string][]string{
	"/": {"a", "b", "c"}, "/a": {"d", "b"}, "/b": {"d", "e"}, "/c": {"e"}, "/d": {"f"}, "/e": {"f", "/"}, "/f": nil, "/x": nil,
}

func serveSmallWeb(t *testing.T, second *atomic.Bool) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		links, ok := smallWeb[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if r.URL.Path == "/c" && !second.Load() {
			links = append(links, "x")
		}
		var b strings.Builder
		for _, l := range links {
			target := "/" + strings.TrimPrefix(l, "/")
			fmt.Fprintf(&b, `<a href="%s">to %s</a> `, target, l)
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><head><title>Page %s</title></head><body>%s page %s</body></html>", r.URL.Path, b.String(), r.URL.Path)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func crawled(t *testing.T) (*Graph, *store.Store, string, int64) {
	t.Helper()
	return crawledWith(t, store.Options{})
}

func crawledWith(t *testing.T, opt store.Options) (*Graph, *store.Store, string, int64) {
	t.Helper()
	var second atomic.Bool
	srv := serveSmallWeb(t, &second)
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "g.mundaneum"), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg := crawl.Config{Seeds: []string{srv.URL + "/"}, Agents: 1, Delay: 0}
	for run := 0; run < 2; run++ {
		cr, err := crawl.Open(context.Background(), st, nil, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Refresh = true
		if _, err := cr.Run(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		second.Store(true) // the second run: /c no longer links to /x
	}
	cs, err := st.Crawls(context.Background())
	if err != nil || len(cs) != 1 {
		t.Fatal(cs, err)
	}
	return New(st.ReadDB()), st, srv.URL, cs[0].ID
}

func id(t *testing.T, g *Graph, url string) int64 {
	t.Helper()
	i, err := g.PageID(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	return i
}

func pathURLs(base string, hops []Hop) []string {
	var out []string
	for _, h := range hops {
		out = append(out, strings.TrimPrefix(h.Page.URL, base))
	}
	return out
}

func TestGraphOnSmallWeb(t *testing.T) {
	g, st, base, crawlID := crawled(t)
	checkSmallWeb(t, g, st, base, crawlID)
}

// TestGraphWhileLinksArePacked checks that the graph's answers are the same while the
// crawl's links wait packed for their expansion (store's linkpack.go) as after it.
func TestGraphWhileLinksArePacked(t *testing.T) {
	g, st, base, crawlID := crawledWith(t, store.Options{HoldLinks: true})
	ctx := context.Background()
	if err := st.RepackLinks(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := st.PendingLinks(ctx); err != nil || n < 6 {
		t.Fatalf("%d pages with packed links, %v", n, err)
	}
	checkSmallWeb(t, g, st, base, crawlID)
	if err := st.ExpandLinks(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := st.PendingLinks(ctx); err != nil || n != 0 {
		t.Fatalf("%d pages with packed links after the expansion, %v", n, err)
	}
	checkSmallWeb(t, g, st, base, crawlID)
}

func checkSmallWeb(t *testing.T, g *Graph, st *store.Store, base string, crawlID int64) {
	t.Helper()
	ctx := context.Background()
	u := func(p string) int64 { return id(t, g, base+p) }

	cases := []struct {
		from, to   string
		undirected bool
		length     int
		shortest   uint64
		paths      uint64
	}{
		{"/", "/f", false, 3, 4, 6},
		{"/a", "/e", false, 2, 1, 1},
		{"/e", "/c", false, 2, 1, 1}, // e -> / -> c
		{"/f", "/", false, -1, 0, 0},
		{"/f", "/", true, 2, 0, 0}, // f <- e -> /
		{"/b", "/b", false, 0, 1, 1},
	}
	for _, c := range cases {
		r, err := g.Path(ctx, u(c.from), u(c.to), PathOptions{Undirected: c.undirected})
		if err != nil {
			t.Fatalf("%s -> %s: %v", c.from, c.to, err)
		}
		if c.length < 0 {
			if r.Found || r.Length != -1 {
				t.Errorf("%s -> %s: found %v", c.from, c.to, pathURLs(base, r.Path))
			}
			continue
		}
		if !r.Found || r.Length != c.length || len(r.Path) != c.length+1 {
			t.Errorf("%s -> %s: found=%v length %d path %v, want length %d", c.from, c.to, r.Found, r.Length, pathURLs(base, r.Path), c.length)
			continue
		}
		if r.Path[0].Page.ID != u(c.from) || r.Path[len(r.Path)-1].Page.ID != u(c.to) {
			t.Errorf("%s -> %s: path %v", c.from, c.to, pathURLs(base, r.Path))
		}
		if !c.undirected && (r.Shortest != c.shortest || r.Paths != c.paths) {
			t.Errorf("%s -> %s: %d shortest, %d paths of <= %d links; want %d and %d", c.from, c.to, r.Shortest, r.Paths, r.PathsMaxLength, c.shortest, c.paths)
		}
	}
	// Each hop says which link it took, with its words.
	r, _ := g.Path(ctx, u("/a"), u("/e"), PathOptions{})
	if r.Path[1].Anchor != "to b" || r.Path[1].Kind != "a" || r.Path[2].Anchor != "to e" {
		t.Errorf("hops: %+v", r.Path)
	}
	// Undirected: f is two links from / either way (f <- e -> /).
	r, _ = g.Path(ctx, u("/f"), u("/"), PathOptions{Undirected: true})
	if got := pathURLs(base, r.Path); !slices.Equal(got, []string{"/f", "/e", "/"}) || !r.Path[1].Backward || r.Path[2].Backward {
		t.Errorf("undirected: %v %+v", got, r.Path)
	}

	// Links both ways, in the page's order.
	ls, err := g.LinksOf(ctx, u("/b"), 0)
	if err != nil {
		t.Fatal(err)
	}
	var outs, ins []string
	for _, l := range ls.Out {
		outs = append(outs, strings.TrimPrefix(l.Page.URL, base)+" "+l.Anchor)
	}
	for _, l := range ls.In {
		ins = append(ins, strings.TrimPrefix(l.Page.URL, base))
	}
	slices.Sort(ins)
	if !slices.Equal(outs, []string{"/d to d", "/e to e"}) || !slices.Equal(ins, []string{"/", "/a"}) || ls.InTotal != 2 {
		t.Errorf("links of /b: out %v in %v", outs, ins)
	}

	// Click depth from the seed.
	dp, err := g.ClickDepth(ctx, crawlID, u("/f"))
	if err != nil || dp.Depth != 3 || len(dp.Path) != 4 {
		t.Errorf("click depth of /f: %+v %v", dp, err)
	}

	// /x lost its only link in the second run: an orphan; the seed is not one.
	or, err := g.OrphansOf(ctx, crawlID, 10)
	if err != nil || or.Total != 1 || or.Pages[0].URL != base+"/x" {
		t.Errorf("orphans: %+v %v", or, err)
	}

	// The elements of /b: visited as 01.02 (the seed's second link), reached again as
	// 01.01.02 (a's second link).
	es, err := g.ElementsOf(ctx, crawlID, u("/b"), 0)
	if err != nil {
		t.Fatal(err)
	}
	var fams []string
	for _, e := range es {
		fams = append(fams, fmt.Sprintf("%s %s %v", e.Family, e.Value, e.Visited))
	}
	if !slices.Equal(fams, []string{"01.02 next true", "01.01.02 next false"}) {
		t.Errorf("elements of /b: %v", fams)
	}

	// The crawl's tree, with its leaves.
	tr, err := g.CrawlTree(ctx, crawlID, 100, true)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, e := range tr.Elements {
		lines = append(lines, e.Family+" "+strings.TrimPrefix(e.Page.URL, base))
	}
	want := []string{"01 /", "01.01 /a", "01.01.01 /d", "01.01.01.01 /f", "01.01.02 /b", "01.02 /b", "01.02.01 /d",
		"01.02.02 /e", "01.02.02.01 /f", "01.02.02.02 /", "01.03 /c", "01.03.01 /e"}
	if !slices.Equal(lines, want) {
		t.Errorf("tree:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}

	// The tree rules make over the stored web: not /b, and so not what only /b leads to.
	rt, err := g.RuleTree(ctx, RuleTreeOptions{Roots: []int64{u("/")}, Rules: rules.MustParse("-url:*/b"), Texts: st})
	if err != nil {
		t.Fatal(err)
	}
	lines = nil
	for _, e := range rt.Elements {
		lines = append(lines, fmt.Sprintf("%s %s %s", e.Family, strings.TrimPrefix(e.Page.URL, base), e.Value))
	}
	want = []string{"01 / first", "01.01 /a next", "01.02 /b rejected", "01.03 /c next", "01.01.01 /d next",
		"01.01.02 /b rejected", "01.03.01 /e next", "01.01.01.01 /f next", "01.03.01.01 /f next", "01.03.01.02 / next"}
	if !slices.Equal(lines, want) {
		t.Errorf("rule tree:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	// Rules on the page's text read what is stored.
	rt, err = g.RuleTree(ctx, RuleTreeOptions{Roots: []int64{u("/")}, Rules: rules.MustParse(`-body:"*page /d*"`), Texts: st})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rt.Elements {
		if strings.HasSuffix(e.Page.URL, "/d") && (e.Value != "rejected" || e.Visited) {
			t.Errorf("/d by its body: %+v", e)
		}
	}

	// The picture: every visited element, parents by family, links between them.
	v, err := g.CrawlView(ctx, crawlID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Nodes) != 7 || v.Nodes[0].Parent != -1 || v.Nodes[1].Parent != 0 || len(v.Edges) != 11 {
		t.Errorf("view: %d nodes, %d edges: %+v", len(v.Nodes), len(v.Edges), v.Nodes)
	}
}

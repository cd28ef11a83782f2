package crawl

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mundaneum/backend/history"
	"mundaneum/backend/render"
	"mundaneum/backend/render/rendertest"
	"mundaneum/backend/search"
	"mundaneum/backend/store"
)

func renderOf(t *testing.T, st *ws, raw string) store.Render {
	t.Helper()
	id, err := st.PageID(context.Background(), raw)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	rd, err := st.PageRender(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return rd
}

// TestRenderCrawlAuto crawls the test site of script-built pages with --render auto: every
// route is a page (pushState routes, route fragments, links a script adds), every page's
// text is searchable, the shells are rendered and say why, the static pages are not, and
// a recrawl after a card changed gives that card alone a new version, with a diff.
func TestRenderCrawlAuto(t *testing.T) {
	rendertest.Browser(t)
	site := rendertest.New(6)
	defer site.Close()
	st := openStore(t)
	cfg := Config{Seeds: []string{site.URL + "/"}, Scope: ScopeSite, Delay: 0, PerHost: 4, Agents: 4}
	p := run(t, st, cfg)
	u := func(path string) string { return site.URL + path }
	rendered := []string{"/app/", "/app/about", "/hash/", "/hash/#!/otlet", "/hash/#/fontaine", "/scroll/", "/links/", "/shadow/"}
	for i := 1; i <= 6; i++ {
		rendered = append(rendered, fmt.Sprintf("/app/cards/%d", i))
	}
	if testing.Verbose() {
		rows, _ := st.ReadDB().Query(`SELECT url, state, coalesce(render, ''), coalesce(render_why, ''), coalesce(render_detail, '') FROM pages ORDER BY url`)
		for rows.Next() {
			var a, b, c, d, e string
			rows.Scan(&a, &b, &c, &d, &e)
			t.Logf("%s %s %s %s %s", a, b, c, d, e)
		}
		rows.Close()
	}
	for _, path := range rendered {
		if pg := pageOf(t, st, u(path)); pg.state != store.StateFetched {
			t.Errorf("%s: %+v", path, pg)
			continue
		}
		rd := renderOf(t, st, u(path))
		if rd.State != store.RenderRendered || rd.Why != "shell" || rd.Signal == "" || !strings.HasPrefix(RenderText(rd), "rendered because") {
			t.Errorf("%s: %+v (%s)", path, rd, RenderText(rd))
		}
	}
	for _, path := range []string{"/", "/static/", "/links/target-1", "/links/target-3"} {
		if rd := renderOf(t, st, u(path)); rd.State != store.RenderStatic || rd.Why != "auto" {
			t.Errorf("%s, a static page: %+v", path, rd)
		}
	}
	for _, w := range []string{rendertest.WordApp, rendertest.WordAbout, rendertest.WordHash, rendertest.WordHash2, rendertest.WordScroll,
		rendertest.WordLinks, rendertest.WordShadow, rendertest.WordClosed, rendertest.WordStatic, "cardword6"} {
		if matches(t, st, w) == 0 {
			t.Errorf("%q is not searchable", w)
		}
	}
	if n := matches(t, st, rendertest.WordNever); n != 0 {
		t.Errorf("the shells' noscript text is indexed in %d pages", n)
	}
	if site.Hits("/static/counter.js") != 0 {
		t.Errorf("the static page went through the browser")
	}
	if site.Hits("/app/about") != 1 {
		t.Errorf("/app/about was requested %d times: the browser fetched the document again", site.Hits("/app/about"))
	}
	id, _ := st.PageID(context.Background(), u("/app/about"))
	shots, err := st.PageScreenshots(context.Background(), id)
	if err != nil || len(shots) != 1 || shots[0].Kind != store.ShotViewport || shots[0].Bytes < 100 {
		t.Errorf("screenshots of /app/about: %+v %v", shots, err)
	}
	counts, err := st.RenderCounts(context.Background(), p.CrawlID)
	if err != nil || counts[store.RenderRendered] != int64(len(rendered)) {
		t.Errorf("render counts %v (%v), want %d rendered", counts, err, len(rendered))
	}
	// Search: the render facet, and the render: filter it refines with.
	sr := search.New(st.idx.SearchDB())
	res, err := sr.Search(context.Background(), search.Request{Query: "card", Facets: true})
	if err != nil {
		t.Fatal(err)
	}
	facet := map[string]search.FacetCount{}
	for _, f := range res.Facets["render"] {
		facet[f.Value] = f
	}
	if facet["rendered"].Count == 0 || facet["rendered"].Refine != "render:rendered" {
		t.Errorf("the render facet of 'card': %+v", res.Facets["render"])
	}
	for q, want := range map[string]int{"classification render:rendered": 6, "render:static codex": 1, "codex render:rendered": 0, "classification render:shell": 0} {
		r, err := sr.Search(context.Background(), search.Request{Query: q})
		if err != nil || r.Total != want {
			t.Errorf("%q: %d results (%v), want %d", q, r.Total, err, want)
		}
	}

	// A recrawl: card 2's data changed, nothing else did.
	site.SetCardText(2, "Card two now speaks of the "+"zeitgeist"+".")
	cfg.Refresh = true
	run(t, st, cfg)
	if n := len(versionsOf(t, st.Store, u("/app/cards/2"))); n != 2 {
		t.Errorf("card 2 has %d versions after its text changed, want 2", n)
	}
	if vs := versionsOf(t, st.Store, u("/app/cards/3")); len(vs) != 1 || vs[0].ConfirmedAt == 0 {
		t.Errorf("card 3, unchanged: %+v", vs)
	}
	if matches(t, st, "zeitgeist") != 1 {
		t.Errorf("the changed card's new text is not searchable")
	}
	cid, _ := st.PageID(context.Background(), u("/app/cards/2"))
	vs := versionsOf(t, st.Store, u("/app/cards/2"))
	cmp, err := history.Compare(context.Background(), st.Store, cid, vs[0].ID, vs[1].ID)
	if err != nil || cmp.Added == 0 {
		t.Fatalf("diff of card 2: %+v %v", cmp, err)
	}
	var added []string
	for _, op := range cmp.Ops {
		if op.Kind == history.Added {
			added = append(added, op.Text)
		}
	}
	if !strings.Contains(strings.Join(added, " "), "zeitgeist") {
		t.Errorf("the diff does not show the new words: %q", added)
	}
}

// TestRenderCrawlNever: with --render never the shells are recorded as shells, with their
// signal, and nothing only scripts say is searchable.
func TestRenderCrawlNever(t *testing.T) {
	site := rendertest.New(2)
	defer site.Close()
	st := openStore(t)
	run(t, st, Config{Seeds: []string{site.URL + "/"}, Scope: ScopeSite, Delay: 0, PerHost: 4, Render: "never"})
	for path, signal := range map[string]render.Signal{"/app/": render.SignalEmptyRoot, "/scroll/": render.SignalEmptyRoot, "/shadow/": render.SignalNoscript} {
		rd := renderOf(t, st, site.URL+path)
		if rd.State != store.RenderShell || rd.Why != "never" || rd.Signal != string(signal) || !strings.Contains(RenderText(rd), "not rendered") {
			t.Errorf("%s: %+v, want a shell (%s) not rendered", path, rd, signal)
		}
	}
	if rd := renderOf(t, st, site.URL+"/static/"); rd.State != store.RenderStatic || rd.Why != "never" {
		t.Errorf("/static/: %+v", rd)
	}
	if r, err := search.New(st.idx.SearchDB()).Search(context.Background(), search.Request{Query: "render:shell-never"}); err != nil || r.Total < 3 {
		t.Errorf("render:shell-never finds %d pages (%v)", r.Total, err)
	}
	if matches(t, st, rendertest.WordApp) != 0 || matches(t, st, rendertest.WordStatic) != 1 {
		t.Errorf("never: %d pages say %s, %d say %s", matches(t, st, rendertest.WordApp), rendertest.WordApp, matches(t, st, rendertest.WordStatic), rendertest.WordStatic)
	}
	if _, err := st.PageID(context.Background(), site.URL+"/app/about"); err == nil {
		t.Errorf("a link only the script makes was found without it")
	}
}

// TestRenderCrawlHostile crawls the hostile pages: each ends, recorded with how it was
// read (rendered, or its HTML kept and the cause said); nothing outside the crawl's hosts
// or disallowed by robots.txt is requested; the crawl finishes.
func TestRenderCrawlHostile(t *testing.T) {
	rendertest.Browser(t)
	site := rendertest.New(1)
	defer site.Close()
	st := openStore(t)
	var seeds []string
	for _, h := range rendertest.Hostile {
		seeds = append(seeds, site.URL+"/hostile/"+h)
	}
	p := run(t, st, Config{Seeds: seeds, Scope: ScopeList, Delay: 0, PerHost: 4, Agents: 4, RenderBudget: 4 * time.Second})
	if p.State != store.CrawlDone {
		t.Fatalf("the crawl ended %s: %s", p.State, p.Note)
	}
	for _, h := range rendertest.Hostile {
		raw := site.URL + "/hostile/" + h
		pg := pageOf(t, st, raw)
		rd := renderOf(t, st, raw)
		if pg.state != store.StateFetched || rd.State == "" || rd.State == store.RenderStatic || rd.Detail == "" {
			t.Errorf("%s: page %+v, render %+v", h, pg, rd)
		}
		if rd.State == store.RenderShell && !slices.Contains([]string{render.CauseTimeout, render.CauseCrashed, render.CauseMemory, render.CauseBrowserDied}, rd.Why) {
			t.Errorf("%s not rendered for %q: %s", h, rd.Why, rd.Detail)
		}
		t.Logf("%s: %s (%s): %s", h, rd.State, rd.Why, rd.Detail)
	}
	if rd := renderOf(t, st, site.URL+"/hostile/loop"); rd.State != store.RenderShell || rd.Why != render.CauseTimeout {
		t.Errorf("the endless loop: %+v", rd)
	}
	// (Read unless the browser died under it, of the memory hog beside it: then its cause.)
	if rd := renderOf(t, st, site.URL+"/hostile/unsettled"); rd.Why != render.CauseBrowserDied && !strings.Contains(rd.Detail, "did not settle") {
		t.Errorf("the page that never settles: %+v", rd)
	}
	for _, path := range []string{"tracker/t.js", "tracker/pixel.gif", "tracker/collect", "/private/secret.json"} {
		if n := site.Hits(path); n != 0 {
			t.Errorf("%s was requested %d times", path, n)
		}
	}
	// (That its own requests come through is TestRenderKeepsToTheScope's: here, on a
	// machine the endless loop and the memory hog share, it may run out of time.)
	if rd := renderOf(t, st, site.URL+"/hostile/outside"); rd.State == store.RenderRendered && matches(t, st, rendertest.WordOutside) != 1 {
		t.Errorf("the page's own request did not come through")
	}
}

// TestRenderPoliteness: the requests of a rendered page count against its host's delay,
// the document's and the robots.txt's included: no two start closer than the delay. The
// crawl controls when it lets a request go; the server sees it a transit later, and the
// browser's transit varies by tens of milliseconds on a loaded two-core machine (seen: 32
// ms between two requests of the same page at a load of 20): the gaps are measured at the
// server against the delay less that jitter's bound (15%).
func TestRenderPoliteness(t *testing.T) {
	rendertest.Browser(t)
	site := rendertest.New(1)
	defer site.Close()
	var mu sync.Mutex
	var times []time.Time
	var paths []string
	target, _ := url.Parse(site.URL)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		times = append(times, time.Now())
		paths = append(paths, r.URL.String())
		mu.Unlock()
		r.URL.Scheme, r.URL.Host = target.Scheme, target.Host
		res, err := http.DefaultTransport.RoundTrip(r.Clone(r.Context()))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer res.Body.Close()
		for k, v := range res.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(res.StatusCode)
		buf := make([]byte, 32<<10)
		for {
			n, err := res.Body.Read(buf)
			w.Write(buf[:n])
			if err != nil {
				break
			}
		}
	}))
	defer proxy.Close()
	st := openStore(t)
	const delay = time.Second
	run(t, st, Config{Seeds: []string{proxy.URL + "/app/about"}, Scope: ScopeList, Delay: delay, PerHost: 2})
	if rd := renderOf(t, st, proxy.URL+"/app/about"); rd.State != store.RenderRendered {
		t.Fatalf("not rendered: %+v", rd)
	}
	mu.Lock()
	defer mu.Unlock()
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	if len(times) != 4 {
		t.Fatalf("%d requests %q, want 4 (robots.txt, the page, its script, its JSON)", len(times), paths)
	}
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); gap < delay*85/100 {
			t.Errorf("request %d came %v after the one before; the delay is %v", i+1, gap.Round(time.Millisecond), delay)
		}
	}
}

// TestRenderWithoutBrowser: no Chromium, the crawl goes on, its pages say so and the run's
// note says how to install one.
func TestRenderWithoutBrowser(t *testing.T) {
	t.Setenv("MUNDANEUM_CHROMIUM", "/nonexistent/chromium")
	site := rendertest.New(1)
	defer site.Close()
	st := openStore(t)
	p := run(t, st, Config{Seeds: []string{site.URL + "/"}, Scope: ScopeSite, Delay: 0, PerHost: 4})
	if !strings.Contains(p.Note, "apt-get install chromium") {
		t.Errorf("the note %q does not say how to install a browser", p.Note)
	}
	rd := renderOf(t, st, site.URL+"/app/")
	if rd.State != store.RenderShell || rd.Why != render.CauseNoBrowser || !strings.Contains(RenderText(rd), "no browser") {
		t.Errorf("/app/ without a browser: %+v (%s)", rd, RenderText(rd))
	}
	if pg := pageOf(t, st, site.URL+"/static/"); pg.state != store.StateFetched {
		t.Errorf("the crawl did not go on: %+v", pg)
	}
}

func renderCrashConfig(seed string) Config {
	return Config{Seeds: []string{seed}, Scope: ScopeSite, Delay: 0, PerHost: 4, Agents: 4}
}

// TestRenderCrashAndResume kills a crawl (and so its browser) while it renders pages: the
// pages it committed stay, the workspace and index are whole, and the crawl run again
// renders what was not rendered; the killed browser's profile is removed then.
func TestRenderCrashAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	rendertest.Browser(t)
	site := rendertest.New(12)
	defer site.Close()
	seed := site.URL + "/app/"
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	cmd := startChild(t, db, seed, "render")
	ctx := context.Background()
	rendered := func() int {
		ro, err := store.Open(ctx, db, store.Options{ReadOnly: true})
		if err != nil {
			return 0
		}
		defer ro.Close()
		var n int
		ro.ReadDB().QueryRow(`SELECT count(*) FROM pages WHERE render = 'rendered'`).Scan(&n)
		return n
	}
	deadline := time.Now().Add(2 * time.Minute)
	for rendered() < 3 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	before := rendered()
	if before < 3 {
		t.Fatalf("the child rendered %d pages before it was killed", before)
	}
	w := reopen(t, db)
	defer w.close()
	cr, err := Open(ctx, w.Store, w.idx, renderCrashConfig(seed))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cr.Run(ctx, nil); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 12; i++ {
		raw := fmt.Sprintf("%s/app/cards/%d", site.URL, i)
		if rd := renderOf(t, w, raw); rd.State != store.RenderRendered {
			t.Errorf("card %d after the resumed crawl: %+v", i, rd)
		}
		if n := matches(t, w, fmt.Sprintf(rendertest.WordCardFmt, i)); n != 1 {
			id, _ := w.PageID(ctx, raw)
			pt, _ := w.Text(ctx, id)
			t.Errorf("card %d's word is in %d pages of the index (text %q)", i, n, pt.Body)
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "mundaneum-chromium-*"))
	for _, d := range dirs {
		if b, err := os.ReadFile(filepath.Join(d, "mundaneum.pid")); err == nil && strings.TrimSpace(string(b)) == fmt.Sprint(cmd.Process.Pid) {
			t.Errorf("the killed crawl's browser profile %s is still there", d)
		}
	}
}

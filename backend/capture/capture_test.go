package capture_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mundaneum/backend/capture"
	"mundaneum/backend/index"
	"mundaneum/backend/library"
	"mundaneum/backend/search"
	"mundaneum/backend/store"
)

func openStore(t testing.TB) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// A page as a script built it, logged in: inline scripts, handlers, a form with a filled
// password field, a style sheet, relative links and images, and a title with markup in it.
const scriptBuilt = `<!DOCTYPE html><html><head><title>ignored</title><base href="/app/">
<style>body{background:url(https://tracker.example/x.png)}</style>
<script>window.secret = "s3cr3t-session"</script>
<link rel="stylesheet" href="/s.css"></head>
<body onload="steal()"><div id="root"><h1 id="top">Quarterly <em>zebrafish</em> report</h1>
<p>Rendered by the app: <a href="next.html" onclick="x()">next page</a>, <a href="javascript:alert(1)">bad</a>.</p>
<img src="chart.png" alt="the chart" onerror="pwn()">
<form action="/login"><input type="password" name="pw" value="hunter2"><button>Sign in now</button></form>
<iframe src="https://ads.example/"></iframe><template><p>templated secret</p></template>
<svg><title>icon title</title></svg><noscript>enable scripts</noscript></div></body></html>`

func TestSaveStoresTheSanitisedDOMAsAVersion(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	sv := capture.NewSaver(st)
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	title := `<b>Report</b> & "Q3" <script>alert(1)</script>`
	s, err := sv.Save(ctx, capture.Page{URL: "https://intranet.example/app/report#section", Title: title, DOM: scriptBuilt}, at)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Changed || s.PageID == 0 || s.CrawlID == 0 {
		t.Fatalf("saved = %+v", s)
	}
	if s.Title != title {
		t.Errorf("title = %q, want it literally: %q", s.Title, title)
	}
	p, err := st.Page(ctx, s.PageID)
	if err != nil {
		t.Fatal(err)
	}
	if p.URL != "https://intranet.example/app/report" || p.State != store.StateFetched || p.Title != title {
		t.Errorf("page = %q %s %q", p.URL, p.State, p.Title)
	}
	body, ct, _, err := st.Body(ctx, s.PageID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ct, "text/html") {
		t.Errorf("content type %q", ct)
	}
	out := string(body)
	for _, bad := range []string{"<script", "s3cr3t-session", "onload", "onclick", "onerror", "javascript:", "<form", "hunter2",
		"<input", "<iframe", "<style", "tracker.example", "<link", "templated secret", "icon title", "enable scripts", "Sign in now"} {
		if strings.Contains(out, bad) {
			t.Errorf("the stored page keeps %q:\n%s", bad, out)
		}
	}
	for _, good := range []string{`<h1 id="top">Quarterly <em>zebrafish</em> report</h1>`,
		`href="https://intranet.example/app/next.html"`, `src="https://intranet.example/app/chart.png"`, `alt="the chart"`,
		"&lt;b&gt;Report&lt;/b&gt; &amp; &#34;Q3&#34; &lt;script&gt;"} {
		if !strings.Contains(out, good) {
			t.Errorf("the stored page lacks %q:\n%s", good, out)
		}
	}
	links, err := st.Links(ctx, s.PageID)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range links {
		found = found || l.URL == "https://intranet.example/app/next.html"
	}
	if !found {
		t.Errorf("the link to next.html is not recorded: %+v", links)
	}

	// The same DOM again confirms the version; another one adds a version.
	again, err := sv.Save(ctx, capture.Page{URL: "https://intranet.example/app/report", Title: title, DOM: scriptBuilt}, at.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if again.Changed || again.PageID != s.PageID {
		t.Errorf("the same page again: %+v", again)
	}
	changed, err := sv.Save(ctx, capture.Page{URL: "https://intranet.example/app/report", Title: "Report",
		DOM: strings.Replace(scriptBuilt, "Quarterly", "Yearly", 1)}, at.Add(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if !changed.Changed {
		t.Error("a changed page is not a new version")
	}
	vs, err := st.Versions(ctx, s.PageID)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 || !vs[1].Current || vs[1].CrawlID != s.CrawlID || vs[1].Header != "" {
		t.Errorf("versions = %+v", vs)
	}
	c, err := st.Crawl(ctx, s.CrawlID)
	if err != nil {
		t.Fatal(err)
	}
	if c.Key != capture.CrawlKey || c.State != store.CrawlDone || c.Scope != store.ScopeImport {
		t.Errorf("captures' crawl = %+v", c)
	}
}

func TestSavedPageIsSearchable(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	idx, err := index.Open(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	s, err := capture.NewSaver(st).Save(ctx, capture.Page{URL: "https://spa.example/", Title: "App",
		DOM: `<div id=app><p>the xylophonist arrives</p></div>`}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := idx.Wait(ctx, func(index.Progress) {}); err != nil {
		t.Fatal(err)
	}
	res, err := search.New(idx.SearchDB()).Search(ctx, search.Request{Query: "xylophonist"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 1 || res.Results[0].PageID != s.PageID {
		t.Fatalf("search found %+v", res.Results)
	}
}

func TestSaveRefusesWhatItCannotStore(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	sv := capture.NewSaver(st)
	for _, u := range []string{"", "javascript:alert(1)", "file:///etc/passwd", "chrome://settings", "ftp://x.example/",
		"about:blank", "https://x.example/\x00", "data:text/html,<p>x", "/relative", "https://" + strings.Repeat("a", 9000) + ".example/"} {
		_, err := sv.Save(ctx, capture.Page{URL: u, DOM: "<p>x</p>"}, time.Now())
		if !errors.Is(err, capture.ErrInvalid) {
			t.Errorf("URL %.40q: err = %v, want invalid", u, err)
		}
	}
	if _, err := sv.Save(ctx, capture.Page{URL: "https://x.example/", DOM: " \n"}, time.Now()); !errors.Is(err, capture.ErrInvalid) {
		t.Errorf("an empty document: %v", err)
	}
	big := strings.Repeat("<p>x</p>", capture.MaxDOM/8+1)
	_, err := sv.Save(ctx, capture.Page{URL: "https://x.example/", DOM: big}, time.Now())
	if !errors.Is(err, capture.ErrTooLarge) || !errors.Is(err, capture.ErrInvalid) {
		t.Errorf("a DOM over the limit: %v", err)
	}
	if _, err := st.PageID(ctx, "https://x.example/"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a refused page was stored: %v", err)
	}
}

func TestExtensionOrigin(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"chrome-extension://abcdefghijklmnopabcdefghijklmnop", "chrome-extension://abcdefghijklmnopabcdefghijklmnop", true},
		{"CHROME-EXTENSION://ABCDEFGHIJKLMNOPABCDEFGHIJKLMNOP", "chrome-extension://abcdefghijklmnopabcdefghijklmnop", true},
		{"moz-extension://0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", "moz-extension://0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", true},
		{"chrome-extension://abcdefghijklmnopabcdefghijklmnoq", "", false}, // q is not an id letter
		{"chrome-extension://abcdefghijklmnopabcdefghijklmno", "", false},
		{"chrome-extension://abcdefghijklmnopabcdefghijklmnop/", "", false},
		{"chrome-extension://abcdefghijklmnopabcdefghijklmnop:80", "", false},
		{"moz-extension://0f1e2d3c4b5a69788796a5b4c3d2e1f0", "", false},
		{"moz-extension://0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1fg", "", false},
		{"https://evil.example", "", false},
		{"http://127.0.0.1:7343", "", false},
		{"null", "", false},
		{"", "", false},
	} {
		got, ok := capture.ExtensionOrigin(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("ExtensionOrigin(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

const (
	chromeOrigin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop"
	otherOrigin  = "chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba"
	mozOrigin    = "moz-extension://0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"
)

// clock is a settable time for the pairing codes.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestPairingBindsTheTokenToTheExtensionsOrigin(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	clk := &clock{t: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)}
	p := capture.NewPairing(clk.now)

	if _, err := capture.Pair(ctx, st, p, "ABCD-EFGH", chromeOrigin, "x"); !errors.Is(err, capture.ErrForbidden) {
		t.Fatalf("pairing without a code made: %v", err)
	}
	code, err := p.New()
	if err != nil {
		t.Fatal(err)
	}
	if len(code.Code) != 9 || code.Code[4] != '-' || !code.Expires.Equal(clk.t.Add(capture.CodeLifetime)) {
		t.Fatalf("code = %+v", code)
	}
	// A web page's Origin is refused before the code is even looked at: the code stays.
	for _, o := range []string{"https://evil.example", "null", "", "http://127.0.0.1:7343"} {
		if _, err := capture.Pair(ctx, st, p, code.Code, o, "x"); !errors.Is(err, capture.ErrForbidden) {
			t.Errorf("pairing from %q: %v", o, err)
		}
	}
	typed := strings.ToLower(strings.ReplaceAll(code.Code, "-", " "))
	paired, err := capture.Pair(ctx, st, p, typed, strings.ToUpper(chromeOrigin), "Chromium\n156\x00 on Linux")
	if err != nil {
		t.Fatal(err)
	}
	if len(paired.Token) != 64 || paired.Client.Origin != chromeOrigin || paired.Client.Browser != "Chromium 156 on Linux" {
		t.Errorf("paired = %+v", paired)
	}
	if _, err := capture.Pair(ctx, st, p, code.Code, chromeOrigin, "x"); !errors.Is(err, capture.ErrForbidden) {
		t.Error("a code worked twice")
	}
	if _, ok := p.Current(); ok {
		t.Error("a used code is still shown")
	}

	c, err := capture.Authorize(ctx, st, paired.Token, chromeOrigin)
	if err != nil || c.ID != paired.Client.ID {
		t.Fatalf("authorize = %+v, %v", c, err)
	}
	for name, call := range map[string][2]string{
		"another extension": {paired.Token, otherOrigin},
		"a web page":        {paired.Token, "https://evil.example"},
		"no origin":         {paired.Token, ""},
		"no token":          {"", chromeOrigin},
		"a wrong token":     {strings.Repeat("0", 64), chromeOrigin},
		"a huge token":      {strings.Repeat("a", 5000), chromeOrigin},
	} {
		if _, err := capture.Authorize(ctx, st, call[0], call[1]); !errors.Is(err, capture.ErrForbidden) {
			t.Errorf("%s: authorize gave %v", name, err)
		}
	}
	// The token is stored as its hash only.
	var n int
	if err := st.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM capture_clients WHERE hash = ?`, paired.Token).Scan(&n); err != nil || n != 0 {
		t.Errorf("the token is stored in clear (%d, %v)", n, err)
	}
	if err := st.RemoveCaptureClient(ctx, paired.Client.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := capture.Authorize(ctx, st, paired.Token, chromeOrigin); !errors.Is(err, capture.ErrForbidden) {
		t.Errorf("an unpaired browser's token still works: %v", err)
	}
}

func TestPairingCodesExpireAndDieOfWrongGuesses(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	clk := &clock{t: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)}
	p := capture.NewPairing(clk.now)

	code, _ := p.New()
	clk.t = clk.t.Add(capture.CodeLifetime)
	if _, err := capture.Pair(ctx, st, p, code.Code, mozOrigin, "Firefox"); !errors.Is(err, capture.ErrForbidden) {
		t.Errorf("an expired code worked: %v", err)
	}

	code, _ = p.New()
	for i := range 4 {
		if _, err := capture.Pair(ctx, st, p, "2222-2222", mozOrigin, "Firefox"); !errors.Is(err, capture.ErrForbidden) {
			t.Fatalf("wrong code %d: %v", i, err)
		}
	}
	if _, err := capture.Pair(ctx, st, p, code.Code, mozOrigin, "Firefox"); err != nil {
		t.Fatalf("the right code after four wrong ones: %v", err)
	}

	code, _ = p.New()
	for range 5 {
		capture.Pair(ctx, st, p, "2222-2222", mozOrigin, "Firefox")
	}
	if _, err := capture.Pair(ctx, st, p, code.Code, mozOrigin, "Firefox"); !errors.Is(err, capture.ErrForbidden) {
		t.Errorf("the right code after five wrong ones: %v", err)
	}
	clients, err := st.CaptureClients(ctx)
	if err != nil || len(clients) != 1 || clients[0].Origin != mozOrigin {
		t.Errorf("clients = %+v, %v", clients, err)
	}
}

// tree makes /Computing/Go, /Computing/Rust, /Reading and a create-only /Archive.
func tree(t *testing.T, st *store.Store) map[string]int64 {
	t.Helper()
	ctx := context.Background()
	lib := library.New(st)
	ids := map[string]int64{}
	mk := func(parent int64, title string, createOnly bool) int64 {
		n, err := lib.Create(ctx, parent, library.LibraryInput{Title: title, CreateOnly: createOnly})
		if err != nil {
			t.Fatal(err)
		}
		return n.ID
	}
	ids["Computing"] = mk(library.RootID, "Computing", false)
	ids["Go"] = mk(ids["Computing"], "Go", false)
	ids["Rust"] = mk(ids["Computing"], "Rust", false)
	ids["Reading"] = mk(library.RootID, "Reading", false)
	ids["Archive"] = mk(library.RootID, "Archive", true)
	return ids
}

func paths(cs []capture.Choice) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Path)
	}
	return out
}

func TestLibrariesComplete(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	ids := tree(t, st)
	got, err := capture.Libraries(ctx, st, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(paths(got), " ") != "/ /Computing /Computing/Go /Computing/Rust /Reading" {
		t.Errorf("no query: %v", paths(got))
	}
	if got, _ := capture.Libraries(ctx, st, "comp g", 10); strings.Join(paths(got), " ") != "/Computing/Go" {
		t.Errorf("comp g: %v", paths(got))
	}
	// The library's own title first: "r" starts Reading and Rust, and is in Computing's.
	if got, _ := capture.Libraries(ctx, st, "r", 10); strings.Join(paths(got), " ") != "/Reading /Computing/Rust" {
		t.Errorf("r: %v", paths(got))
	}
	if got, _ := capture.Libraries(ctx, st, "archive", 10); len(got) != 0 {
		t.Errorf("a create-only library is offered: %v", paths(got))
	}
	// A library pointers went to lately comes first.
	if _, err := library.New(st).Point(ctx, ids["Rust"], library.PointerInput{URL: "https://rust-lang.org/"}); err != nil {
		t.Fatal(err)
	}
	got, _ = capture.Libraries(ctx, st, "", 2)
	if len(got) != 2 || got[0].Path != "/Computing/Rust" || !got[0].Recent || got[1].Recent {
		t.Errorf("after a pointer to Rust: %+v", got)
	}
	if got, _ := capture.Libraries(ctx, st, "r", 10); strings.Join(paths(got), " ") != "/Computing/Rust /Reading" {
		t.Errorf("r, Rust used lately: %v", paths(got))
	}
}

func TestAddPointsAndSavesAndTellsWhere(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	ids := tree(t, st)
	sv := capture.NewSaver(st)
	now := time.Now()
	notes := "<script>alert('note')</script>\n  a quoted selection & more"
	a, err := capture.Add(ctx, st, sv, capture.Addition{URL: "https://go.dev/doc/effective_go", Title: `Effective <Go>`,
		Notes: notes, Tags: []string{"go", "<b>style</b>"}, Library: "/Computing/Go",
		Page: &capture.Page{Title: "Effective Go", DOM: "<h1>Effective Go</h1><p>gophers write</p>"}}, now)
	if err != nil {
		t.Fatal(err)
	}
	if a.Existing || a.Place.Library != "/Computing/Go" || a.Place.LibraryID != ids["Go"] || a.Saved == nil || !a.Saved.Changed {
		t.Fatalf("added = %+v", a)
	}
	n, err := st.LibNode(ctx, a.Place.ID)
	if err != nil {
		t.Fatal(err)
	}
	if n.Title != "Effective <Go>" || n.Notes != "<script>alert('note')</script>\n  a quoted selection & more" ||
		strings.Join(n.Tags, "|") != "go|<b>style</b>" {
		t.Errorf("stored %q %q %q: not literally", n.Title, n.Notes, n.Tags)
	}

	w, err := capture.Where(ctx, st, "https://go.dev/doc/effective_go#introduction")
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Places) != 1 || w.Places[0].Library != "/Computing/Go" || w.Known == nil || !w.Known.Copy {
		t.Errorf("where = %+v", w)
	}
	if w, _ := capture.Where(ctx, st, "https://elsewhere.example/"); len(w.Places) != 0 || w.Known != nil {
		t.Errorf("where (unknown) = %+v", w)
	}

	// Again in the same library: left as it was. In another: added, with AlsoIn.
	again, err := capture.Add(ctx, st, sv, capture.Addition{URL: "https://go.dev/doc/effective_go", Notes: "other", LibraryID: ids["Go"]}, now)
	if err != nil || !again.Existing || again.Place.ID != a.Place.ID {
		t.Errorf("again = %+v, %v", again, err)
	}
	other, err := capture.Add(ctx, st, sv, capture.Addition{URL: "https://go.dev/doc/effective_go", LibraryID: ids["Reading"]}, now)
	if err != nil || other.Existing || len(other.AlsoIn) != 1 || other.AlsoIn[0] != "/Computing/Go" {
		t.Errorf("other = %+v, %v", other, err)
	}
	if other.Place.Title != "Effective Go" {
		t.Errorf("without a title the stored page's is taken: %q", other.Place.Title)
	}

	for name, in := range map[string]capture.Addition{
		"create-only":    {URL: "https://x.example/", LibraryID: ids["Archive"]},
		"no library":     {URL: "https://x.example/"},
		"a missing one":  {URL: "https://x.example/", LibraryID: 9999},
		"a bad path":     {URL: "https://x.example/", Library: "/Nowhere"},
		"a pointer":      {URL: "https://x.example/", LibraryID: a.Place.ID},
		"a bad address":  {URL: "javascript:void(0)", LibraryID: ids["Go"]},
		"too many tags":  {URL: "https://x.example/", LibraryID: ids["Go"], Tags: strings.Fields(strings.Repeat("t ", 40) + "a b c d e f g h i j k l m n o p q r s u v w x y z aa bb cc dd ee ff gg hh")},
		"too long notes": {URL: "https://x.example/", LibraryID: ids["Go"], Notes: strings.Repeat("n", library.MaxNotes+1)},
		"a huge page":    {URL: "https://x.example/", LibraryID: ids["Go"], Page: &capture.Page{DOM: strings.Repeat("x", capture.MaxDOM+1)}},
	} {
		if _, err := capture.Add(ctx, st, sv, in, now); err == nil {
			t.Errorf("%s: added", name)
		}
	}
	if _, err := st.PageID(ctx, "https://x.example/"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a refused addition stored its page: %v", err)
	}
}

func TestTagsComplete(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	ids := tree(t, st)
	lib := library.New(st)
	for i, tags := range [][]string{{"research", "Go"}, {"research"}, {"rust", "prerelease"}} {
		if _, err := lib.Point(ctx, ids["Go"], library.PointerInput{URL: "https://x.example/" + string(rune('a'+i)), Tags: tags}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := capture.Tags(ctx, st, "re", 10)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tc := range got {
		names = append(names, tc.Tag)
	}
	if strings.Join(names, " ") != "research prerelease" {
		t.Errorf("tags re: %v", names)
	}
}

package offline

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"mundaneum/backend/extract"
	"mundaneum/backend/store"
)

// A small site in a real workspace: three pages linking to each other and out, one moved
// (a recorded redirect), a style sheet with an image and an import, an image, and an old
// version of the first page with a style sheet of its time.
type site struct {
	st    *store.Store
	crawl int64
	ids   map[string]int64
}

const host = "http://docs.test"

var pages = map[string]string{
	"/": `<!doctype html><html><head><title>Manual</title><link rel="stylesheet" href="/style.css"></head>
<body><h1>Manual</h1><p>Start at <a href="intro.html">the introduction</a> or <a href="/old">the old page</a>,
then <a href="http://elsewhere.test/x">elsewhere</a> and <a href="/missing.html">a missing page</a>.</p>
<img src="/logo.png" alt="Logo"></body></html>`,
	"/intro.html": `<!doctype html><html><head><title>Introduction</title><link rel="stylesheet" href="/style.css"></head>
<body><h1 id="top">Introduction</h1><p>Back to <a href="/">the manual</a>; see <a href="#details">details</a>.</p>
<h2 id="details">Details</h2><pre>code  here</pre></body></html>`,
	"/new.html":  `<!doctype html><title>New</title><p>Moved here. <a href="/intro.html#details">Details</a></p>`,
	"/notes.txt": "Plain notes.\n\nSecond paragraph.",
}

func newSite(t *testing.T) *site {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cr, err := st.CreateCrawl(ctx, "k", []string{host + "/"}, "site", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	s := &site{st: st, crawl: cr.ID, ids: map[string]int64{}}
	var targets []store.Target
	for _, p := range []string{"/", "/intro.html", "/new.html", "/notes.txt", "/old", "/missing.html"} {
		targets = append(targets, store.Target{URL: host + p, Origin: host, Kind: "a", Follow: true})
	}
	if _, err := st.Enqueue(ctx, cr.ID, targets); err != nil {
		t.Fatal(err)
	}
	st.Writer().Flush(ctx)
	for _, p := range []string{"/", "/intro.html", "/new.html", "/notes.txt", "/old", "/missing.html"} {
		id, err := st.PageID(ctx, host+p)
		if err != nil {
			t.Fatal(err)
		}
		s.ids[p] = id
	}
	s.save(t, "/", `<!doctype html><title>Manual, first</title><link rel="stylesheet" href="/style.css"><p>An older <a href="intro.html">intro</a>.`, 1000)
	for p, body := range pages {
		s.save(t, p, body, 5000)
	}
	s.result(t, &store.Result{PageID: s.ids["/old"], URL: host + "/old", State: store.StateRedirected, Status: 301,
		Reason: "redirect", FinalURL: host + "/new.html"})
	s.result(t, &store.Result{PageID: s.ids["/missing.html"], URL: host + "/missing.html", State: store.StateFailed,
		Status: 404, Reason: "not-found"})
	for _, r := range []store.RequisiteFetch{
		{URL: host + "/style.css", FetchedAt: 900, Kind: "stylesheet", Status: 200, ContentType: "text/css", Body: []byte(`h1{color:gray}`)},
		{URL: host + "/style.css", FetchedAt: 5100, Kind: "stylesheet", Status: 200, ContentType: "text/css",
			Body: []byte(`@import "print.css" print; h1{color:navy;background:url(bg.png)}`)},
		{URL: host + "/print.css", FetchedAt: 5100, Kind: "stylesheet", Status: 200, ContentType: "text/css", Body: []byte(`body{margin:0}`)},
		{URL: host + "/bg.png", FetchedAt: 5100, Kind: "image", Status: 200, ContentType: "image/png", Body: png},
		{URL: host + "/logo.png", FetchedAt: 5100, Kind: "image", Status: 200, ContentType: "text/html", Body: png},
	} {
		if err := st.SaveRequisite(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	return s
}

var png = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

func (s *site) save(t *testing.T, path, body string, at int64) {
	t.Helper()
	sum := sha256.Sum256([]byte(body))
	ct := "text/html"
	if strings.HasSuffix(path, ".txt") {
		ct = "text/plain"
	}
	s.result(t, &store.Result{PageID: s.ids[path], URL: host + path, State: store.StateFetched, Status: 200, ContentType: ct,
		Charset: "utf-8", Hash: hex.EncodeToString(sum[:]), Blob: []byte(body), Codec: "identity", Size: int64(len(body)),
		Doc: &store.Doc{Title: path}, FetchedAt: at})
}

func (s *site) result(t *testing.T, r *store.Result) {
	t.Helper()
	r.CrawlID = s.crawl
	if _, err := s.st.SaveResult(context.Background(), r); err != nil {
		t.Fatal(err)
	}
}

func (s *site) source(t *testing.T, path string) Source {
	t.Helper()
	body, ct, cs, err := s.st.Body(context.Background(), s.ids[path])
	if err != nil {
		t.Fatal(err)
	}
	return Source{PageID: s.ids[path], URL: host + path, Title: path, Body: body, ContentType: ct, Charset: cs, At: 5000}
}

func TestACopyOpensWhatTheWorkspaceHolds(t *testing.T) {
	s := newSite(t)
	ctx := context.Background()
	c, err := Make(ctx, s.st, s.source(t, "/"))
	if err != nil {
		t.Fatal(err)
	}
	doc := c.Document
	for _, want := range []string{
		`href="http://docs.test/intro.html" rel="nofollow noreferrer noopener" target="_blank" data-mundaneum-page="` + itoa(s.ids["/intro.html"]) + `"`,
		// The old address opens where it moved.
		`data-mundaneum-page="` + itoa(s.ids["/new.html"]) + `"`,
		`data-mundaneum-missing="" data-mundaneum-known="` + itoa(s.ids["/missing.html"]) + `"`,
		`href="http://elsewhere.test/x" rel="nofollow noreferrer noopener" target="_blank" data-mundaneum-missing=""`,
		// The style sheet of the page's time, its import and its image put in; the logo sniffed as PNG.
		`@media print{body{margin:0}} h1{color:navy;background:url("data:image/png;base64,`,
		`<img alt="Logo" src="data:image/png;base64,`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("copy lacks %q:\n%s", want, doc)
		}
	}
	if strings.Contains(doc, "data-mundaneum-version") {
		t.Errorf("a current copy's links name versions:\n%s", doc)
	}
	if c.Assets.Shown != 4 || c.Assets.Missing != 0 {
		t.Errorf("assets %+v, want 4 shown (two sheets, two images)", c.Assets)
	}
	if len(c.Blocks) == 0 || c.Blocks[0].Kind != extract.BlockHeading || c.Blocks[0].Text != "Manual" {
		t.Errorf("blocks %+v", c.Blocks)
	}

	c, err = Make(ctx, s.st, s.source(t, "/intro.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.Document, `data-mundaneum-anchor="details"`) {
		t.Errorf("in-page anchor not marked:\n%s", c.Document)
	}
	if n := len(c.Blocks); n < 4 || c.Blocks[n-1].Kind != extract.BlockPre || c.Blocks[n-1].Text != "code  here" {
		t.Errorf("blocks %+v", c.Blocks)
	}

	c, err = Make(ctx, s.st, s.source(t, "/notes.txt"))
	if err != nil || len(c.Blocks) != 2 || !strings.Contains(c.Document, "<pre>Plain notes.") {
		t.Errorf("a text page: %+v %v", c, err)
	}
}

func TestAnOldVersionsLinksGoToTheNearestVersions(t *testing.T) {
	s := newSite(t)
	ctx := context.Background()
	vs, err := s.st.Versions(ctx, s.ids["/"])
	if err != nil || len(vs) != 2 {
		t.Fatalf("versions %+v %v", vs, err)
	}
	old := vs[0]
	body, err := s.st.BlobBody(ctx, old.Hash)
	if err != nil {
		t.Fatal(err)
	}
	intro, err := s.st.NearestVersion(ctx, s.ids["/intro.html"], old.FetchedAt)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Make(ctx, s.st, Source{PageID: s.ids["/"], URL: host + "/", Body: body, ContentType: "text/html",
		At: old.FetchedAt, Replay: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.Document, `data-mundaneum-version="`+itoa(intro.ID)+`"`) {
		t.Errorf("the old copy's link does not name the nearest version %d:\n%s", intro.ID, c.Document)
	}
	if !strings.Contains(c.Document, `h1{color:gray}`) || strings.Contains(c.Document, "navy") {
		t.Errorf("the old copy has not the style sheet of its time:\n%s", c.Document)
	}
}

func TestSiteExport(t *testing.T) {
	s := newSite(t)
	files := map[string][]byte{}
	rep, err := Site(context.Background(), s.st, s.crawl, func(name string, data []byte) error {
		if _, dup := files[name]; dup {
			t.Errorf("%s written twice", name)
		}
		files[name] = data
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The two images have one content, and print.css is in style.css: two files.
	if rep.Pages != 4 || rep.Requisites != 2 || rep.Files != 7 {
		t.Errorf("report %+v; files %v", rep, keys(files))
	}
	root := string(files["docs.test/index.html"])
	for _, want := range []string{`href="intro.html" rel="nofollow noreferrer noopener" data-mundaneum-page`, `href="new.html"`,
		`<link rel="stylesheet" href="../_requisites/`, `src="../_requisites/`, `href="http://elsewhere.test/x" rel="nofollow noreferrer noopener" target="_blank"`,
		"file:"} {
		if !strings.Contains(root, want) {
			t.Errorf("index page lacks %q:\n%s", want, root)
		}
	}
	if !strings.Contains(string(files["docs.test/new.html"]), `href="intro.html#details"`) {
		t.Errorf("new.html:\n%s", files["docs.test/new.html"])
	}
	var css string
	for name, data := range files {
		if strings.HasSuffix(name, ".css") {
			css = string(data)
		}
	}
	if !strings.Contains(css, "@media print{body{margin:0}}") || !strings.Contains(css, `url("`) || strings.Contains(css, "_requisites") {
		t.Errorf("the style sheet file: %q", css)
	}
	if idx := string(files["index.html"]); !strings.Contains(idx, `href="docs.test/intro.html"`) || !strings.Contains(idx, "4 pages") {
		t.Errorf("index.html:\n%s", idx)
	}
}

func TestSiteZipAndFolderAgree(t *testing.T) {
	s := newSite(t)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "site")
	if _, err := SiteFolder(ctx, s.st, s.crawl, dir, nil); err != nil {
		t.Fatal(err)
	}
	var zbuf bytes.Buffer
	if _, err := SiteZip(ctx, s.st, s.crawl, &zbuf, nil); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(zbuf.Bytes()), int64(zbuf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range zr.File {
		rc, _ := f.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		onDisk, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Name)))
		if err != nil {
			t.Errorf("%s is in the zip, not in the folder: %v", f.Name, err)
			continue
		}
		if f.Name != "index.html" && !bytes.Equal(data, onDisk) {
			t.Errorf("%s differs", f.Name)
		}
		n++
	}
	if n != 7 {
		t.Errorf("%d files in the zip", n)
	}
	// A folder that exists is not written over.
	if _, err := SiteFolder(ctx, s.st, s.crawl, dir, nil); err == nil {
		t.Error("an existing folder was written over")
	}
}

func TestFileNames(t *testing.T) {
	for _, tc := range []struct{ url, ct, want string }{
		{"http://a.test/", "text/html", "a.test/index.html"},
		{"http://a.test", "text/html", "a.test/index.html"},
		{"http://a.test:8080/docs/", "text/html", "a.test_8080/docs/index.html"},
		{"http://a.test/docs/intro.html", "text/html", "a.test/docs/intro.html"},
		{"http://a.test/docs/intro", "text/html", "a.test/docs/intro.html"},
		{"http://a.test/q.php?a=1", "text/html", "a.test/q@" + "d1fb8e29" + ".php.html"},
		{"http://a.test/p.pdf", "application/pdf", "a.test/p.pdf"},
		{"http://a.test/../x/..%2f/a b", "text/html", "a.test/_../x/_../a_b.html"},
		{"http://a.test/.hidden", "text/html", "a.test/_.hidden.html"},
	} {
		u := mustParse(t, tc.url)
		got := fileName(u, tc.ct)
		if strings.Contains(tc.want, "@") {
			if !strings.HasPrefix(got, "a.test/q@") || !strings.HasSuffix(got, ".php.html") {
				t.Errorf("fileName(%s) = %s", tc.url, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("fileName(%s) = %s, want %s", tc.url, got, tc.want)
		}
	}
	for _, tc := range []struct{ from, to, want string }{
		{"a.test/index.html", "a.test/intro.html", "intro.html"},
		{"a.test/docs/x.html", "a.test/intro.html", "../intro.html"},
		{"a.test/x.html", "_requisites/ab.css", "../_requisites/ab.css"},
		{"index.html", "a.test/docs/x.html", "a.test/docs/x.html"},
		{"_requisites/sheet.css", "_requisites/ab.png", "ab.png"},
	} {
		if got := relative(tc.from, tc.to); got != tc.want {
			t.Errorf("relative(%s, %s) = %s, want %s", tc.from, tc.to, got, tc.want)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func mustParse(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

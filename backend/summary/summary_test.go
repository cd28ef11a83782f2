package summary

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"context"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"

	"mundaneum/backend/testenv"
)

func summarise(t *testing.T, body []byte, contentType, rawURL string, b Budget) *Result {
	t.Helper()
	u, _ := url.Parse(rawURL)
	r, err := Summarise(context.Background(), Input{Body: body, ContentType: contentType, URL: u}, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func gz(b []byte) []byte {
	var w bytes.Buffer
	z := gzip.NewWriter(&w)
	z.Write(b)
	z.Close()
	return w.Bytes()
}

func zipOf(files map[string][]byte) []byte {
	var w bytes.Buffer
	z := zip.NewWriter(&w)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		f, _ := z.Create(n)
		f.Write(files[n])
	}
	z.Close()
	return w.Bytes()
}

func tarOf(files map[string][]byte) []byte {
	var w bytes.Buffer
	t := tar.NewWriter(&w)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		t.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: int64(len(files[n])), Typeflag: tar.TypeReg})
		t.Write(files[n])
	}
	t.Close()
	return w.Bytes()
}

func needPDFTools(t testing.TB) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		testenv.Missing(t, "pdftotext is not installed (poppler-utils)")
	}
}

func fixture(t testing.TB, name string) []byte {
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const rss = `<?xml version="1.0" encoding="ISO-8859-1"?>
<rss version="2.0"><channel><title>Otlet's news</title><description>Cards &amp; catalogues</description>
<item><title>First &lt;b&gt;card&lt;/b&gt;</title><link>/cards/1</link><description>&lt;p&gt;The zymurgic index&lt;/p&gt;</description></item>
<item><title>Second card</title><guid>http://other.test/2</guid></item>
</channel></rss>`

const atom = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title type="text">Atom of knowledge</title><author><name>Henri La Fontaine</name></author>
<entry><title>Repertory</title><link rel="alternate" href="https://ex.test/rep"/><link rel="edit" href="https://ex.test/edit"/><summary>universal bibliographic repertory</summary></entry>
</feed>`

func TestChoose(t *testing.T) {
	pdf := []byte("%PDF-1.4\n...")
	for _, c := range []struct {
		body        string
		ct, url     string
		want        string
		description string
	}{
		{"<html><title>x</title>", "text/html", "http://a.test/", "html", "declared HTML"},
		{string(pdf), "application/octet-stream", "http://a.test/get?id=3", "pdf", "a PDF by its signature"},
		{string(pdf), "text/html", "http://a.test/x", "pdf", "a PDF served as HTML"},
		{"plain words", "text/plain", "http://a.test/a.txt", "text", "text"},
		{"# Title\nwords", "text/plain", "http://a.test/README.md", "markdown", "Markdown served as text"},
		{"# Title", "text/markdown", "http://a.test/x", "markdown", "declared Markdown"},
		{rss, "application/xml", "http://a.test/feed", "feed", "a feed served as XML"},
		{rss, "text/html", "http://a.test/feed", "html", "a declared media type beats a text signature"},
		{atom, "", "http://a.test/feed", "feed", "an undeclared Atom feed"},
		{"<html>", "text/plain", "http://a.test/x.html", "text", "text/plain is text"},
		{string(gz([]byte("x"))), "application/octet-stream", "http://a.test/x", "gzip", "gzip"},
		{string(zipOf(map[string][]byte{"a": []byte("b")})), "", "http://a.test/x", "zip", "zip"},
		{string(tarOf(map[string][]byte{"a": []byte("b")})), "application/octet-stream", "http://a.test/x", "tar", "tar"},
		{"anything", "image/png", "http://a.test/x", "html", "the fallback"},
	} {
		u, _ := url.Parse(c.url)
		if got := Choose(Input{Body: []byte(c.body), ContentType: c.ct, URL: u}).Name; got != c.want {
			t.Errorf("%s: chose %s, want %s", c.description, got, c.want)
		}
	}
}

func TestFeeds(t *testing.T) {
	r := summarise(t, []byte(rss), "application/rss+xml", "http://a.test/feed.xml", Budget{})
	if r.Summariser != "feed" || r.Title != "Otlet's news" || r.Description != "Cards & catalogues" {
		t.Fatalf("rss: %q %q %q", r.Summariser, r.Title, r.Description)
	}
	if !strings.Contains(r.Text, "zymurgic") || strings.Contains(r.Text, "<p>") {
		t.Errorf("rss text %q", r.Text)
	}
	if len(r.Links) != 2 || r.Links[0].URL != "http://a.test/cards/1" || r.Links[0].Anchor != "First card" ||
		r.Links[1].URL != "http://other.test/2" {
		t.Errorf("rss links %+v", r.Links)
	}
	if r.Attr(AttrEntries) != "2" {
		t.Errorf("entries %q", r.Attr(AttrEntries))
	}
	a := summarise(t, []byte(atom), "application/atom+xml", "http://a.test/atom", Budget{})
	if a.Title != "Atom of knowledge" || a.Author != "Henri La Fontaine" || len(a.Links) != 1 ||
		a.Links[0].URL != "https://ex.test/rep" || a.Links[0].Anchor != "Repertory" || !strings.Contains(a.Text, "bibliographic") {
		t.Errorf("atom: %+v", a)
	}
}

func TestMarkdown(t *testing.T) {
	r := summarise(t, []byte("# The Repertory\n\nSome *quillwort* text, see [the site](http://b.test/x) and <http://c.test/>.\n\n## Part two\n"),
		"text/markdown", "http://a.test/r.md", Budget{})
	if r.Title != "The Repertory" || !strings.Contains(r.Text, "quillwort") || strings.Contains(r.Text, "*") ||
		len(r.Links) != 2 || r.Links[0].Anchor != "the site" || !strings.Contains(r.Headings, "Part two") {
		t.Errorf("markdown: %+v", r)
	}
}

func TestArchives(t *testing.T) {
	inner := tarOf(map[string][]byte{"doc/readme.txt": []byte("the xylograph words"), "doc/logo.png": {0x89, 'P', 'N', 'G', 0, 1, 2},
		"doc/page.html": []byte("<title>Inner page</title><p>vellum leaves</p>")})
	z := zipOf(map[string][]byte{"notes.md": []byte("# Notes\nmarginalia"), "src.tar.gz": gz(inner)})
	r := summarise(t, z, "application/zip", "http://a.test/bundle.zip", Budget{})
	for _, w := range []string{"notes.md", "marginalia", "src.tar.gz", "doc/logo.png", "xylograph", "vellum", "Inner page"} {
		if !strings.Contains(r.Text, w) {
			t.Errorf("zip text lacks %q: %q", w, r.Text)
		}
	}
	if r.Summariser != "zip" || r.Title != "bundle.zip" || r.Attr(AttrMembers) != "2" || len(r.Problems) != 0 {
		t.Errorf("zip: %q %q %v %v", r.Summariser, r.Title, r.Attrs, r.Problems)
	}
	g := summarise(t, gz([]byte("compressed quagga text")), "application/gzip", "http://a.test/notes.txt.gz", Budget{})
	if g.Summariser != "gzip" || g.Attr(AttrInner) != "text" || !strings.Contains(g.Text, "quagga") {
		t.Errorf("gzip: %+v", g)
	}
	// A shallower depth budget lists the nested tar but does not open it.
	d := summarise(t, z, "application/zip", "http://a.test/bundle.zip", Budget{MaxDepth: 2})
	if strings.Contains(d.Text, "xylograph") || !slices.Contains(d.Problems, ProblemTooDeep) {
		t.Errorf("depth 2: %q %v", d.Text, d.Problems)
	}
}

func TestBombs(t *testing.T) {
	zeros := make([]byte, 8<<20)
	b := Budget{MaxDecoded: 1 << 20}
	for name, body := range map[string][]byte{
		"gzip": gz(zeros), "zip": zipOf(map[string][]byte{"a.txt": zeros}),
		"gzip of zip": gz(zipOf(map[string][]byte{"a.txt": zeros})),
	} {
		r := summarise(t, body, "", "http://a.test/x", b)
		if !slices.Contains(r.Problems, ProblemBomb) {
			t.Errorf("%s: problems %v", name, r.Problems)
		}
	}
	// Nested archives: a tar in a tar in a tar... stops at the depth budget.
	deep := []byte("bottom words")
	for i := 0; i < 50; i++ {
		deep = tarOf(map[string][]byte{"level.tar": deep})
	}
	r := summarise(t, deep, "application/x-tar", "http://a.test/deep.tar", Budget{})
	if !slices.Contains(r.Problems, ProblemTooDeep) || strings.Contains(r.Text, "bottom") {
		t.Errorf("deep tar: %v %q", r.Problems, r.Text)
	}
	// Many members: the first MaxMembers are read, the rest listed.
	many := map[string][]byte{}
	for i := 0; i < 30; i++ {
		many[string(rune('a'+i%26))+strings.Repeat("x", i)+".txt"] = []byte("member")
	}
	r = summarise(t, zipOf(many), "", "http://a.test/m.zip", Budget{MaxMembers: 5})
	if !slices.Contains(r.Problems, ProblemTooMany) || r.Attr(AttrMembers) != "30" {
		t.Errorf("many: %v %v", r.Problems, r.Attrs)
	}
	// Broken archives are recorded problems.
	for name, body := range map[string][]byte{"zip": []byte("PK\x03\x04garbage"), "gzip": {0x1f, 0x8b, 8, 0, 1, 2}} {
		r := summarise(t, body, "", "http://a.test/x", Budget{})
		if !slices.Contains(r.Problems, ProblemUnreadable) {
			t.Errorf("broken %s: %v", name, r.Problems)
		}
	}
}

func TestPDF(t *testing.T) {
	needPDFTools(t)
	r := summarise(t, fixture(t, "paper.pdf"), "application/pdf", "http://a.test/paper.pdf", Budget{})
	if r.Summariser != "pdf" || r.Title != "A planted paper" || r.Author != "Paul Otlet" || r.Attr(AttrPages) != "12" ||
		!strings.Contains(r.Text, "quoxilated") || !strings.Contains(r.Text, "page 12") || len(r.Problems) != 0 {
		t.Fatalf("pdf: %+v", r)
	}
	if r.Attr(AttrKeywords) != "catalogue, index cards" {
		t.Errorf("keywords %v", r.Attrs)
	}
	real := summarise(t, fixture(t, "sqlite-copyright-release.pdf"), "application/pdf", "http://a.test/c.pdf", Budget{})
	if !strings.Contains(real.Text, "Copyright Release") || real.Attr(AttrPages) != "1" {
		t.Errorf("real pdf: %q %v", real.Text[:min(80, len(real.Text))], real.Attrs)
	}
	for name, want := range map[string]string{"broken.pdf": ProblemUnreadable, "encrypted.pdf": ProblemEncrypted} {
		r := summarise(t, fixture(t, name), "application/pdf", "http://a.test/x.pdf", Budget{})
		if !slices.Contains(r.Problems, want) {
			t.Errorf("%s: problems %v, want %s", name, r.Problems, want)
		}
	}
	// The text budget cuts the text, and says so.
	c := summarise(t, fixture(t, "paper.pdf"), "application/pdf", "http://a.test/paper.pdf", Budget{MaxText: 100})
	if len(c.Text) > 100 || !slices.Contains(c.Problems, "truncated") {
		t.Errorf("capped: %d bytes, %v", len(c.Text), c.Problems)
	}
}

func TestTimeBudget(t *testing.T) {
	needPDFTools(t)
	// A tool that never ends is killed at the document's deadline.
	dir := t.TempDir()
	os.WriteFile(dir+"/pdftotext", []byte("#!/bin/sh\nexec sleep 60\n"), 0o755)
	old := pdfTools
	pdfTools.text = dir + "/pdftotext"
	defer func() { pdfTools = old }()
	start := time.Now()
	r := summarise(t, fixture(t, "paper.pdf"), "application/pdf", "http://a.test/p.pdf", Budget{Timeout: 300 * time.Millisecond})
	if !slices.Contains(r.Problems, ProblemTimeout) || time.Since(start) > 10*time.Second {
		t.Errorf("timeout: %v after %v", r.Problems, time.Since(start))
	}
}

func TestTypes(t *testing.T) {
	d, err := ParseTypes("")
	if err != nil || d.String() != "html,pdf,txt" {
		t.Fatalf("defaults %q %v", d, err)
	}
	all, _ := ParseTypes("all")
	if all.String() != "feed,gz,html,md,pdf,tar,txt,zip" {
		t.Errorf("all: %q", all)
	}
	if _, err := ParseTypes("pdf,docx"); err == nil {
		t.Error("an unknown type was accepted")
	}
	if !d.Accepts("application/pdf") || d.Accepts("application/zip") || !d.Accepts("application/octet-stream") ||
		!all.Accepts("application/zip") || !d.AcceptsExt("pdf") || d.AcceptsExt("zip") {
		t.Error("Accepts")
	}
	u, _ := url.Parse("http://a.test/x.zip")
	if _, err := Summarise(context.Background(), Input{Body: zipOf(map[string][]byte{"a": nil}), URL: u}, Budget{}, d); err == nil {
		t.Error("a zip was summarised for a crawl that does not want zips")
	}
}

// TestGateKnowsServedTypes: every media type that common servers' type tables give a
// summariser's extensions passes the download gate of a crawl that wants that type, and the
// summariser then reads it. The tables: Debian's /etc/mime.types (media-types), which
// Python's http.server and Apache on Debian use; Apache's and nginx's own mime.types;
// freedesktop's shared-mime-info; Windows' registry. (An RSS feed served as Debian's
// application/x-rss+xml was once skipped as "not a web page".)
func TestGateKnowsServedTypes(t *testing.T) {
	served := map[string][]string{
		"rss":      {"application/x-rss+xml", "application/rss+xml"},
		"atom":     {"application/atom+xml"},
		"rdf":      {"application/rdf+xml"},
		"xml":      {"application/xml", "text/xml"},
		"md":       {"text/markdown", "text/x-markdown"},
		"markdown": {"text/markdown", "text/x-markdown"},
		"pdf":      {"application/pdf", "application/x-pdf"},
		"gz":       {"application/gzip", "application/x-gzip"},
		"tgz":      {"application/x-gtar-compressed", "application/x-compressed-tar", "application/gzip", "application/x-gzip"},
		"tar":      {"application/x-tar"},
		"zip":      {"application/zip", "application/x-zip-compressed"},
		"txt":      {"text/plain"},
		"text":     {"text/plain"},
		"csv":      {"text/csv"},
		"tsv":      {"text/tab-separated-values"},
		"html":     {"text/html"},
		"htm":      {"text/html"},
		"shtml":    {"text/html"},
		"xhtml":    {"application/xhtml+xml"},
	}
	bodies := map[string][]byte{"feed": []byte(rss), "pdf": []byte("%PDF-1.4\n..."), "gzip": gz([]byte("x")),
		"tar": tarOf(map[string][]byte{"a": []byte("b")}), "zip": zipOf(map[string][]byte{"a": []byte("b")}),
		"text": []byte("plain words"), "markdown": []byte("# Title\nwords"), "html": []byte("<title>x</title>")}
	for _, k := range Kinds() {
		for _, ext := range k.Exts {
			types, ok := served[ext]
			if !ok {
				continue // no server's table names it (.log, .mdown), or names another thing (.asc: PGP keys)
			}
			for _, mt := range types {
				if !(Types{k.Type: true}).Accepts(mt) {
					t.Errorf("%s: a .%s served as %s does not pass the gate of a crawl of %s", k.Name, ext, mt, k.Type)
				}
				u, _ := url.Parse("http://a.test/f." + ext)
				if got := Choose(Input{Body: bodies[k.Name], ContentType: mt, URL: u}).Name; got != k.Name {
					t.Errorf("a .%s served as %s is read by %s, want %s", ext, mt, got, k.Name)
				}
			}
		}
	}
}

// A file cut off on the way says so, and what came of it is read: a gzip stream, a tar in
// it, and a PDF without its end (which poppler may or may not still read).
func TestIncompleteFiles(t *testing.T) {
	text := []byte(strings.Repeat("the quagga and the okapi graze together ", 4000))
	full := gz(text)
	r := summarise(t, full[:len(full)/2], "application/gzip", "http://a.test/notes.txt.gz", Budget{})
	if !slices.Contains(r.Problems, ProblemIncomplete) || !strings.Contains(r.Text, "okapi") {
		t.Errorf("a gzip cut in half: problems %v, text %d bytes", r.Problems, len(r.Text))
	}
	if r := summarise(t, full, "application/gzip", "http://a.test/notes.txt.gz", Budget{}); len(r.Problems) != 0 {
		t.Errorf("a whole gzip: problems %v", r.Problems)
	}
	tgz := gz(tarOf(map[string][]byte{"a.txt": []byte("first quagga"), "b.txt": text}))
	r = summarise(t, tgz[:len(tgz)*2/3], "application/gzip", "http://a.test/bundle.tar.gz", Budget{})
	if !slices.Contains(r.Problems, ProblemIncomplete) || !strings.Contains(r.Text, "first quagga") {
		t.Errorf("a tar.gz cut short: problems %v, text %.80q", r.Problems, r.Text)
	}
	for code := range map[string]bool{ProblemIncomplete: true, ProblemUnreadable: true, ProblemBomb: true} {
		if ProblemWords[code] == "" {
			t.Errorf("no words for %s", code)
		}
	}
	needPDFTools(t)
	pdf := fixture(t, "paper.pdf")
	r = summarise(t, pdf[:len(pdf)*3/4], "application/pdf", "http://a.test/paper.pdf", Budget{})
	if !slices.Contains(r.Problems, ProblemIncomplete) {
		t.Errorf("a PDF cut short: problems %v", r.Problems)
	}
	if r := summarise(t, pdf, "application/pdf", "http://a.test/paper.pdf", Budget{}); slices.Contains(r.Problems, ProblemIncomplete) {
		t.Errorf("a whole PDF: problems %v", r.Problems)
	}
}

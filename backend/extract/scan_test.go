package extract

import (
	"bytes"
	"flag"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

var scanEvery = flag.Int("scan-every", 16, "TestScanOnDebianDocs: compare every Nth page")

// scanSeeds are the shapes where the scanner must find the tokenizer's token boundaries:
// quotes holding '>', comments of every ending, raw text, bogus comments, cut-off input.
var scanSeeds = []string{
	`<title>T &amp; U</title><a href="/a?x=1&amp;y=2" rel="NoFollow">a</a><img src=i.png alt="x>y">`,
	`<a href='/q>r'>q</a><a href=/u/>u</a><a/ href=/v>v</a><a =x href=/w>w</a>`,
	`<!-- <a href=/no> --><!--><a href=/yes1><!---><a href=/yes2><!-- x --!><a href=/yes3><!-- x --!-><a href=/no2>-->`,
	`<!DOCTYPE html><?xml x><!bogus <a href=/no>><a href=/yes></ 3 <a href=/no2>></><a href=/yes2>`,
	`<script>var s = "<a href=/no>"; if (a</b) {}</script ><a href=/after-script>`,
	`<script><!-- <script></script> --></script><a href=/esc>`,
	`<style>a{}</style x=">"><textarea><a href=/no></textarea><iframe src=/f><a href=/no></iframe>`,
	`<svg><title>tip</title><a xlink:href=/svg/>x</svg><title>Real</title><noscript><a href=/ns></noscript>`,
	`<template><a href=/inert></template><a href=/live>`,
	`<meta http-equiv=Refresh content="0; url=/r"><meta name=OWNER content=me><link rev=MADE href=mailto:a@b.c>`,
	`<base href="http://other.example/dir/"><a href=x>x</a>`,
	`<xmp><a href=/x></xmp>`, `<plaintext><a href=/x>`, "<title>a\r\nb</title>", "<a href=/x\x00>",
	`<a href="/cut`, `<a href=/cut`, `<!-- cut`, `<title>cut`, `<script>cut`, `<!`, `<?`, `</`, `</a`, `<`, `a < b`,
	`<a href=/1><a href=/2>nested</a><h1>H</h1><area href=/area><form action=/f>`,
	`<TITLE>Upper</TITLE><A HREF="/UP">x</A></SCRIPT>`,
	`<img srcset="a.png 1x, b.png 2x" src=c.png><video poster=p.png src=v.mp4><source srcset=s.png>`,
	`<title>one</title><title>two</title>`, `<title></title>`, `<p title=">"></p>`,
	`<h2 id=s1>S</h2><a name=old></a><a id=aid name=aname href="#s1">x</a><a href="/p.html#a">a</a><a href="/p.html#a">again</a>`,
	`<div ID = "upper"><p title="x id=fake"><p id="a&amp;b"><template><p id=inert></template><svg><g id=svgid></g></svg>`,
	`<a href="#">top</a><a href="#with space">w</a><a href="mailto:x@y#z">m</a><img src="/i.svg#icon"><a href="x.html#caf%C3%A9">c</a>`,
}

func compareScan(t *testing.T, name string, body []byte, page *url.URL) bool {
	t.Helper()
	orig := bytes.Clone(body)
	got, want := Links(body, page), linksTokenized(body, page)
	if !bytes.Equal(body, orig) {
		t.Fatalf("%s: Links wrote to the document", name)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: the scanner and the tokenizer disagree\nscan:      %+v\ntokenizer: %+v", name, got, want)
	}
	// With fragments and anchors too.
	var scanIDs, tokIDs []string
	opt := func(ids *[]string) LinkOptions {
		return LinkOptions{Fragments: true, Anchor: func(id []byte) { *ids = append(*ids, string(id)) }}
	}
	got, want = opt(&scanIDs).Links(body, page), opt(&tokIDs).linksTokenized(body, page)
	slices.Sort(scanIDs) // a page the scanner gives up on half-way hands out its first ids twice
	slices.Sort(tokIDs)
	scanIDs, tokIDs = slices.Compact(scanIDs), slices.Compact(tokIDs)
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(scanIDs, tokIDs) {
		t.Fatalf("%s: with fragments, the scanner and the tokenizer disagree\nscan:      %+v %q\ntokenizer: %+v %q",
			name, got, scanIDs, want, tokIDs)
	}
	p := newParser()
	p.reset(page, MaxText)
	p.linksOnly = true
	return p.scan(body)
}

func TestScanAgreesWithTheTokenizer(t *testing.T) {
	page, _ := url.Parse("http://example.org/docs/page.html")
	fast := 0
	for i, s := range scanSeeds {
		if compareScan(t, "seed "+string(rune('a'+i)), []byte(s), page) {
			fast++
		}
	}
	files, _ := filepath.Glob("testdata/*.html")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		compareScan(t, f, b, page)
	}
	if fast < len(scanSeeds)/2 {
		t.Errorf("only %d of %d seeds took the scanner", fast, len(scanSeeds))
	}
}

// TestScanOnDebianDocs compares the two on the documentation sets the link benchmark checks
// (make bench-check), when the machine has them: every 16th page (all 33,270 with
// -scan-every 1; they all agree, and all are read by the scanner).
func TestScanOnDebianDocs(t *testing.T) {
	if testing.Short() {
		t.Skip("reads thousands of pages")
	}
	roots := []string{"/usr/share/doc/postgresql-doc-15/html", "/usr/share/doc/rust-doc/html"}
	pages, fast, seen := 0, 0, 0
	for _, root := range roots {
		if _, err := os.Stat(root); err != nil {
			t.Logf("%s: not installed", root)
			continue
		}
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
				return err
			}
			if seen++; (seen-1)%*scanEvery != 0 {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return nil // a dangling link of the package
			}
			page, _ := url.Parse("http://127.0.0.1:8080/" + strings.TrimPrefix(path, root+"/"))
			pages++
			if compareScan(t, path, b, page) {
				fast++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d pages, %d read by the scanner", pages, fast)
}

// FuzzScan: Links (the scanner, or the tokenizer where it gives up) and the tokenizer alone
// give the same Summary, and the document is not written to.
func FuzzScan(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add([]byte(s))
	}
	page, _ := url.Parse("http://example.org/docs/page.html")
	f.Fuzz(func(t *testing.T, b []byte) {
		compareScan(t, "input", b, page)
	})
}

// With fragments, a link into a part of a document keeps its fragment ("#x" alone names a
// part of this document), a link of another kind does not, and every id and <a name> is
// handed out, except inside a <template> (issue 29, item 14).
func TestLinkFragmentsAndAnchors(t *testing.T) {
	page, _ := url.Parse("http://example.org/docs/page.html?v=1")
	body := []byte(`<title>T</title><h2 id=s1>S</h2><a name=old></a><a id=aid name=aname href="#s1">to s1</a>
		<a href="/p.html#a">a</a> <a href="/p.html#b">b</a> <a href="/p.html">p</a> <a href="/p.html#a">a again</a>
		<a href="#">top</a> <a href="#with space">w</a> <a href="mailto:x@y#z">m</a> <img src="/i.svg#icon">
		<div ID = "upper"><p title="x id=fake"><p id="a&amp;b"><template><p id=inert><a href="#inert">i</a></template>
		<svg><g id=svgid></g></svg><meta http-equiv=refresh content="5; url=/next.html#part">`)
	var ids []string
	s := LinkOptions{Fragments: true, Anchor: func(id []byte) { ids = append(ids, string(id)) }}.Links(body, page)
	var links []string
	for _, l := range s.Links {
		links = append(links, l.Kind+" "+l.URL+" "+strings.Join(l.Fragments, ","))
	}
	want := []string{
		"a http://example.org/p.html a,b", "img http://example.org/i.svg ", "refresh http://example.org/next.html part",
	}
	if !reflect.DeepEqual(links, want) {
		t.Errorf("links\n got %q\nwant %q", links, want)
	}
	if want := []string{"s1", "with%20space"}; !reflect.DeepEqual(s.SelfFragments, want) {
		t.Errorf("own parts linked to: %q, want %q", s.SelfFragments, want)
	}
	// Against a <base>, "#x" names a part of the base's document.
	based := LinkOptions{Fragments: true}.Links([]byte(`<base href="http://other.example/d/"><a href="#x">x</a>`), page)
	if len(based.Links) != 1 || based.Links[0].URL != "http://other.example/d/" || based.Links[0].Fragments[0] != "x" ||
		based.SelfFragments != nil {
		t.Errorf("with a base: %+v", based)
	}
	if want := []string{"s1", "old", "aid", "aname", "upper", "a&b", "svgid"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("ids %q, want %q", ids, want)
	}
	// Without the options, nothing changes: fragments are dropped, "#x" links are none.
	plain := Links(body, page)
	for _, l := range plain.Links {
		if l.Fragments != nil || l.URL == "http://example.org/docs/page.html?v=1" {
			t.Errorf("without fragments: %+v", l)
		}
	}
	if plain.SelfFragments != nil {
		t.Errorf("without fragments: %q", plain.SelfFragments)
	}
}

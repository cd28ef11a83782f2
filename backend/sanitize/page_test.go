package sanitize

import (
	"net/url"
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"
)

// shelf is a Resolver over a small workspace: pages by URL, stored images, stored style
// sheets. It answers as the offline package does, without a database.
type shelf struct {
	self   string           // the page's own URL
	pages  map[string]int64 // URL -> page id with a copy
	known  map[string]int64 // URL -> page id without a copy
	sheets map[string]string
	images map[string]bool
	asked  []string
}

func (s *shelf) Link(u *url.URL) LinkMark {
	frag := u.Fragment
	v := *u
	v.Fragment, v.RawFragment = "", ""
	switch {
	case v.String() == s.self && frag != "":
		return LinkMark{Anchor: frag}
	case s.pages[v.String()] > 0:
		return LinkMark{Page: s.pages[v.String()], Version: 7}
	}
	return LinkMark{Known: s.known[v.String()]}
}

func (s *shelf) Asset(u *url.URL, k AssetKind) string {
	s.asked = append(s.asked, k.String()+" "+u.String())
	if s.images[u.String()] {
		return "data:image/png;base64,QQ=="
	}
	return ""
}

func (s *shelf) Stylesheet(u *url.URL, media string) Style {
	s.asked = append(s.asked, "stylesheet "+u.String()+" ["+media+"]")
	css, ok := s.sheets[u.String()]
	if !ok {
		return Style{}
	}
	return Style{CSS: RewriteCSS([]byte(css), u, CSSRewrite{Asset: s.Asset})}
}

func (s *shelf) InlineStyle(css []byte, base *url.URL) string {
	return RewriteCSS(css, base, CSSRewrite{Asset: s.Asset})
}

func newShelf() *shelf {
	return &shelf{
		self:   "http://example.test/dir/page.html",
		pages:  map[string]int64{"http://example.test/dir/next.html": 12},
		known:  map[string]int64{"http://example.test/gone.html": 13},
		sheets: map[string]string{"http://example.test/css/site.css": `h1{color:red;background:url(../img/logo.png)}`},
		images: map[string]bool{"http://example.test/img/logo.png": true, "http://example.test/dir/fig.png": true},
	}
}

const manual = `<!doctype html><html lang="en"><head><title>Page</title>
<link rel="stylesheet" href="/css/site.css"><link rel="stylesheet" href="/css/print.css" media="print">
<link rel="alternate stylesheet" href="/css/alt.css"><link rel=stylesheet href="/css/odd.css" media="x{y}">
<style>p.note{border:1px solid;background:url(bg.png)}</style></head>
<body class="book" id="top"><h1 id="intro">Intro</h1>
<p class="note" style="color:blue;background:url(fig.png)">See <a href="next.html#part2">the next page</a>,
<a href="#intro">the top</a>, <a href="/gone.html">a gone page</a> and <a href="http://elsewhere.test/">elsewhere</a>.</p>
<img src="fig.png" alt="A figure"><img src="missing.png" alt="Not kept"><img srcset="fig.png 1x, big.png 2x" alt="set">
<a name="old-anchor">old</a>
<object type="image/svg+xml" data="fig.png" width="100%"><p>A <b>figure</b> as an object</p></object>
<object data="movie.swf" type="application/x-shockwave-flash">flash</object>
</body></html>`

func TestPageKeepsTheLookAndMarksTheLinks(t *testing.T) {
	s := newShelf()
	out := Page([]byte(manual), base, PageOptions{Title: "Page", Resolver: s})
	for _, want := range []string{
		`<html lang="en">`, `<body id="top" class="book">`,
		`<style>h1{color:red;background:url("data:image/png;base64,QQ==")}</style>`,
		`<style>p.note{border:1px solid;background:none}</style>`,
		`<h1 id="intro">Intro</h1>`, `class="note"`, `style="color:blue;background:url(&#34;data:image/png;base64,QQ==&#34;)"`,
		`data-mundaneum-page="12" data-mundaneum-version="7"`, `href="http://example.test/dir/next.html#part2"`,
		`data-mundaneum-anchor="intro"`,
		`data-mundaneum-missing="" data-mundaneum-known="13"`,
		`<img alt="A figure" src="data:image/png;base64,QQ=="/>`, `Not kept`, `<img alt="set" src="data:image/png;base64,QQ=="/>`,
		`<a name="old-anchor">old</a>`, `<img alt="A figure as an object" width="100%" src="data:image/png;base64,QQ=="/>`, `img-src data:; font-src data:; style-src &#39;unsafe-inline&#39;`, `target="_blank"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("copy lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"missing.png", "alt.css", "odd.css", "http://example.test/img/logo.png", "46em"} {
		if strings.Contains(out, bad) {
			t.Errorf("copy has %q:\n%s", bad, out)
		}
	}
	// The print sheet was asked for with its media (and is not stored); the rest in order.
	want := "stylesheet http://example.test/css/site.css []|image http://example.test/img/logo.png|stylesheet http://example.test/css/print.css [print]"
	if got := strings.Join(s.asked, "|"); !strings.HasPrefix(got, want) {
		t.Errorf("asked %q, want it to start with %q", got, want)
	}
	// The page's own style sheets come after the marks' style, so the page has the last word.
	if strings.Index(out, "data-mundaneum-missing]") > strings.Index(out, "h1{color:red") {
		t.Error("the page's style sheet comes before the marks' style")
	}
}

func TestPageWithoutStylesUsesTheReadingStyle(t *testing.T) {
	out := Page([]byte(`<p>plain <a href="next.html">next</a></p>`), base, PageOptions{Resolver: newShelf()})
	if !strings.Contains(out, "46em") {
		t.Errorf("no reading style:\n%s", out)
	}
	if !strings.Contains(out, `data-mundaneum-page="12"`) {
		t.Errorf("link not marked:\n%s", out)
	}
}

func TestPageRemovesEverythingActive(t *testing.T) {
	hostile := `<html><head><base href="http://other.test/b/"><script>alert(1)</script>
	<meta http-equiv=refresh content="0;url=http://evil.test/">
	<style>body{background:url(http://evil.test/track)}</style><style></style><script>alert(8)</script></head>
	<body onload="alert(2)"><h1 onclick="alert(3)">Title</h1>
	<p>Text <a href="rel/link" data-mundaneum-page="99" data-x="1">relative</a> <a href="javascript:alert(4)">js</a>
	<a href="data:text/html,x">data</a> <a href="https://ok.test/" ping="http://evil.test/">ok</a></p>
	<img src="http://evil.test/pixel.gif" onerror="alert(5)" alt="pixel"><img src="data:image/svg+xml,x" alt="inline">
	<iframe src="http://evil.test/"></iframe><form action="http://evil.test/"><input name=q></form>
	<svg><script>alert(6)</script></svg><object data="x"></object><embed src="x">
	<p style="background:url(http://evil.test/);behavior:url(x.htc)">styled</p>
	<math><mtext><table><mglyph><style><img src=x onerror=alert(7)></style></mglyph></table></mtext></math>
	<link rel=stylesheet href="http://evil.test/x.css">
	</body></html>`
	out := Page([]byte(hostile), base, PageOptions{Title: `<script>t</script>`, Resolver: newShelf()})
	if bad := activeParts(out); bad != "" {
		t.Errorf("copy has %s:\n%s", bad, out)
	}
	// (A <style> the parser finds in the math is the page's: its text is inert CSS, with no '<'.)
	for _, bad := range []string{"<script", "onload", "onclick", "javascript:", "data:text", "<iframe",
		"<form", "<input", "<svg", "<object", "<embed", "evil.test", "http-equiv=\"refresh", "<math", "ping=",
		`data-mundaneum-page="99"`, "data-x", "data:image/svg", "<img src=x"} {
		if strings.Contains(strings.ToLower(out), strings.ToLower(bad)) {
			t.Errorf("copy contains %q:\n%s", bad, out)
		}
	}
	for _, good := range []string{"<h1>Title</h1>", `href="http://other.test/b/rel/link"`, `href="https://ok.test/"`,
		"&lt;script&gt;t&lt;/script&gt;", `styled`, `pixel`, `data-mundaneum-missing`} {
		if !strings.Contains(out, good) {
			t.Errorf("copy lacks %q:\n%s", good, out)
		}
	}
}

func TestPageForAStaticExport(t *testing.T) {
	exp := &exportShelf{shelf: newShelf()}
	out := Page([]byte(manual), base, PageOptions{Resolver: exp, CSP: "default-src 'none'"})
	for _, want := range []string{`<link rel="stylesheet" href="../_files/site.css"/>`, `href="next.html#part2"`,
		`src="../_files/fig.png"`} {
		if !strings.Contains(strings.ReplaceAll(out, `">`, `"/>`), want) {
			t.Errorf("export copy lacks %q:\n%s", want, out)
		}
	}
	// A link to a file opens in the same window; one to the web in another.
	if strings.Contains(out, `href="next.html#part2" target`) || !strings.Contains(out, `href="http://elsewhere.test/" rel="nofollow noreferrer noopener" target="_blank"`) {
		t.Errorf("targets:\n%s", out)
	}
}

type exportShelf struct{ *shelf }

func (e *exportShelf) Link(u *url.URL) LinkMark {
	m := e.shelf.Link(u)
	if m.Page > 0 {
		m.Href = "next.html#" + u.Fragment
	}
	return m
}

func (e *exportShelf) Asset(u *url.URL, k AssetKind) string {
	if e.images[u.String()] {
		return "../_files/" + u.Path[strings.LastIndex(u.Path, "/")+1:]
	}
	return ""
}

func (e *exportShelf) Stylesheet(u *url.URL, media string) Style {
	if _, ok := e.sheets[u.String()]; ok {
		return Style{Href: "../_files/site.css"}
	}
	return Style{}
}

func TestRequisites(t *testing.T) {
	var got []string
	for _, r := range Requisites([]byte(manual), base) {
		got = append(got, r.Kind.String()+" "+r.URL.String())
	}
	want := []string{
		"stylesheet http://example.test/css/site.css", "stylesheet http://example.test/css/print.css",
		"stylesheet http://example.test/css/odd.css", "image http://example.test/dir/bg.png",
		"image http://example.test/dir/fig.png", "image http://example.test/dir/missing.png", // fig.png once
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Requisites =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// FuzzPage checks, whatever the page: nothing active comes out, every image is one the
// resolver gave, and the only marks are the resolver's.
func FuzzPage(f *testing.F) {
	for _, s := range []string{manual, "<p>x</p>", "<a href=x>y</a>", "<script>", "<<a href='", "<base href=//x>",
		"\x00<p>", `<style>a{b:url(x)}</style>`, `<img src=a.png onerror=x>`, `<a href="#a" data-mundaneum-page=1>`,
		`<p style="background:url(fig.png)">`, `<link rel=stylesheet href=/css/site.css media=print>`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Page([]byte(s), base, PageOptions{Title: s, Resolver: newShelf()})
		if bad := activeParts(out); bad != "" {
			t.Fatalf("%s: %q -> %q", bad, s, out)
		}
	})
}

// activeParts parses a copy as a browser would and says what in it could act or load: an
// element that runs or embeds something, an event handler, an address other than http(s),
// an image the resolver did not give, a page mark it did not give.
func activeParts(doc string) string {
	root, err := xhtml.Parse(strings.NewReader(doc))
	if err != nil {
		return "unparsable: " + err.Error()
	}
	var bad string
	var walk func(n *xhtml.Node)
	walk = func(n *xhtml.Node) {
		if n.Type == xhtml.ElementNode {
			switch n.Data {
			case "script", "iframe", "frame", "object", "embed", "form", "input", "base", "svg", "math", "link", "video", "audio", "source":
				bad = "element " + n.Data
			case "meta":
				if a := attr(n, "http-equiv"); a != "" && !strings.EqualFold(a, "Content-Security-Policy") {
					bad = "meta " + a
				}
			}
			for _, a := range n.Attr {
				v := strings.TrimSpace(a.Val)
				switch {
				case strings.HasPrefix(strings.ToLower(a.Key), "on"):
					bad = "handler " + a.Key
				case a.Key == "href" && !strings.HasPrefix(v, "http://") && !strings.HasPrefix(v, "https://"):
					bad = "href " + v
				case a.Key == "src" && v != "data:image/png;base64,QQ==":
					bad = "src " + v
				case a.Key == AttrPage && v != "12":
					bad = "page mark " + v
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return bad
}

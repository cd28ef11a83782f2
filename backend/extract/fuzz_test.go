package extract

import (
	"golang.org/x/net/html"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkSummary asserts the invariants every Summary keeps, whatever the input.
func checkSummary(t *testing.T, s *Summary) {
	t.Helper()
	for name, v := range map[string]string{
		"Title": s.Title, "Headings": s.Headings, "Text": s.Text, "Lang": s.Lang,
		"Description": s.Description, "Keywords": s.Keywords, "Author": s.Author,
		"Owner": s.Owner, "Expires": s.Expires, "Generator": s.Generator, "Canonical": s.Canonical,
	} {
		if !utf8.ValidString(v) {
			t.Fatalf("%s is not valid UTF-8: %q", name, v)
		}
	}
	if len(s.Text) > MaxText || len(s.Title) > MaxTitle || len(s.Headings) > MaxHeadings {
		t.Fatalf("caps broken: text %d title %d headings %d", len(s.Text), len(s.Title), len(s.Headings))
	}
	for _, v := range []string{s.Description, s.Keywords, s.Author, s.Owner, s.Expires, s.Generator} {
		if len(v) > MaxMeta {
			t.Fatalf("meta value of %d bytes", len(v))
		}
	}
	if len(s.Links) > MaxLinks {
		t.Fatalf("%d links", len(s.Links))
	}
	seen := map[linkKey]bool{}
	for _, l := range s.Links {
		u, err := url.Parse(l.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "" || u.Opaque != "" ||
			!utf8.ValidString(l.URL) {
			t.Fatalf("link %q is not an absolute http(s) URL without fragment (%v)", l.URL, err)
		}
		if len(l.Anchor) > MaxAnchor || !utf8.ValidString(l.Anchor) || !utf8.ValidString(l.Rel) {
			t.Fatalf("bad anchor or rel %q %q", l.Anchor, l.Rel)
		}
		k := linkKey{l.URL, l.Kind}
		if seen[k] {
			t.Fatalf("duplicate link %v", k)
		}
		seen[k] = true
	}
	if s.Canonical != "" {
		if u, err := url.Parse(s.Canonical); err != nil || u.Host == "" {
			t.Fatalf("canonical %q", s.Canonical)
		}
	}
	for i, p := range s.Problems {
		if !slices.Contains(problemNames[:], p) || slices.Contains(s.Problems[:i], p) {
			t.Fatalf("problems %q", s.Problems)
		}
	}
}

func FuzzHTML(f *testing.F) {
	entries, _ := os.ReadDir("testdata")
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".html") {
			b, err := os.ReadFile("testdata/" + e.Name())
			if err == nil && len(b) < 4096 { // big seeds make mutation and minimising slow
				f.Add(b)
			}
		}
	}
	for _, s := range []string{
		`<a href="x`, `<!--`, `<title>`, `<a href=http://[::1]:80/>`, `<base href="//h/">x<a href=y>`,
		`<img srcset=",,, a 1x,b(,),c">`, `<meta http-equiv=refresh content="0;url=//x/#f">`,
		`<svg><a xlink:href="/s"><title>t</title></a></svg>`, `<a href="ht\ttp://x/">`,
		`<link rev=made href="mailto:">`, "<p>\xc2<a href=\"\xff\">\xa0</a>", `<plaintext><a href=x>`,
		`<noscript><a href="n">n</a></noscript>`, `<a href="http://x/%zz">`, `<a href="http:x">`,
	} {
		f.Add([]byte(s))
	}
	page, _ := url.Parse("http://example.com/dir/page.html?q=1")
	f.Fuzz(func(t *testing.T, body []byte) {
		checkSummary(t, HTML(body, page))
		checkSummary(t, Text(body, page))
	})
}

func FuzzXRobots(f *testing.F) {
	for _, s := range []string{"noindex", "googlebot: noindex, nofollow", "mundaneum: none",
		"unavailable_after: 25 Jun 2010 15:00:00 PST", ":,:,", "NONE\nall"} {
		f.Add(s, "mundaneum")
	}
	f.Fuzz(func(t *testing.T, header, agent string) {
		values := strings.Split(header, "\n")
		ni, nf := XRobots(values, agent)
		low := strings.ToLower(header)
		if ni && !strings.Contains(low, "noindex") && !strings.Contains(low, "none") {
			t.Fatalf("noindex from %q", header)
		}
		if nf && !strings.Contains(low, "nofollow") && !strings.Contains(low, "none") {
			t.Fatalf("nofollow from %q", header)
		}
		if ni2, nf2 := XRobots(values, agent); ni2 != ni || nf2 != nf {
			t.Fatal("not deterministic")
		}
	})
}

func FuzzRefreshURL(f *testing.F) {
	for _, s := range []string{"5; url=next.html", "0;URL='x'", ".5", "1,url=\"a\" b", "url=x", "9999999999999999; u"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		target, delay, ok := RefreshURL(content)
		if !ok {
			if target != "" || delay != 0 {
				t.Fatalf("not ok but %q %d", target, delay)
			}
			return
		}
		if delay < 0 || delay > 999999999 {
			t.Fatalf("delay %d", delay)
		}
		if target != strings.Trim(target, " \t\n\r\f") || !strings.Contains(content, target) {
			t.Fatalf("target %q from %q", target, content)
		}
	})
}

// FuzzResolve checks that the fast path agrees with net/url wherever it answers.
func FuzzResolve(f *testing.F) {
	for _, s := range [][2]string{
		{"http://example.com/dir/page.html?q=1", "a/b.html"},
		{"http://example.com", "x"},
		{"http://example.com", "?q"},
		{"http://example.com/a/", "?q"},
		{"https://h:8080/a/b", "/c?d=e&f"},
		{"http://h/a//b/c", "d"},
		{"http://h/", "HTTP://Other.Example:81/x//y?z"},
		{"http://h/", "http://other//x"},
		{"http://h/", "http://other?x"},
		{"http://h/", "http://h:/x"},
		{"http://h/a/b", "c:d/e"},
		{"http://h/a/b", "./c"},
		{"http://h/a/b", ".c/d"},
		{"http://h/a/b", "c/..d"},
		{"http://u@h/a/b", "c"},
		{"http://h/a/b/c.html", "../../std/index.html"},
		{"http://h/a/b/c.html", "../../../../x"},
		{"http://h/a/b/", "./../?q"},
		{"http://h/a/b/", "..//x"},
		{"http://h/a/b/", "../"},
		{"http://h/a/", "..x/../y"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, base, href string) {
		b, err := url.Parse(base)
		if err != nil {
			return
		}
		p := newParser()
		p.reset(b, MaxText)
		h := trimSpace([]byte(href))
		if i := strings.IndexByte(string(h), '#'); i >= 0 {
			h = h[:i]
		}
		if len(h) == 0 {
			return
		}
		fast, ok := p.fastResolve(h)
		if !ok {
			return
		}
		slow, st := resolveSlow(b, h)
		if st != linkOK || slow != fast {
			t.Fatalf("base %q href %q: fast %q, slow %q (%d)", base, href, fast, slow, st)
		}
	})
}

// FuzzAttrs checks that attrIter's in-place reading of a raw tag gives what
// Tokenizer.TagAttr gives, wherever it is used.
func FuzzAttrs(f *testing.F) {
	for _, s := range []string{
		`<a href="x" REL=nofollow title='t'>`, `<a =x href = y / >`, `<img src=a/b.gif/>`,
		`<p a=">" b c=d e='' f=>`, `<a href="1" href="2">`, "<a\thref\n=\fx>", `<a/href=x>`,
		`<meta name=robots content="noindex, nofollow">`, `<x a="b"c=d>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		z := html.NewTokenizer(strings.NewReader(tag))
		tt := z.Next()
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			return
		}
		raw := z.Raw()
		if strings.ContainsAny(string(raw), "&\x00\r") {
			return // attrIter defers to TagAttr for these
		}
		raw = []byte(string(raw)) // TagAttr must not see our reads, nor we its
		it := attrIter{raw: raw, i: skipTagName(raw)}
		var own []string
		seen := map[string]bool{}
		for k, v, ok := it.next(); ok; k, v, ok = it.next() {
			if len(k) > 0 && !seen[string(k)] {
				seen[string(k)] = true
				own = append(own, string(k), string(v))
			}
		}
		var want []string
		for more := true; more; {
			var k, v []byte
			k, v, more = z.TagAttr()
			if len(k) > 0 && len(k) <= 32 {
				want = append(want, string(k), string(v))
			}
		}
		if !slices.Equal(own, want) {
			t.Fatalf("tag %q:\n own %q\n want %q", tag, own, want)
		}
	})
}

func FuzzHeaderLinks(f *testing.F) {
	for _, s := range []string{`<https://a/x>; rel="canonical"`, `</a,b>; rel=next, <c>; title="x, \"y"; rel=prev`,
		`<`, `<>;;;==, ,<x>;rel`, "<http://a/\xff>; rel=\"\\"} {
		f.Add(s)
	}
	page, _ := url.Parse("http://example.com/dir/page.html?q=1")
	f.Fuzz(func(t *testing.T, v string) {
		links := HeaderLinks([]string{v, v}, page)
		if len(links) > maxHeaderLinks {
			t.Fatalf("%d links", len(links))
		}
		for _, l := range links {
			u, err := url.Parse(l.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "" || l.Kind != KindLink {
				t.Fatalf("link %+v", l)
			}
		}
	})
}

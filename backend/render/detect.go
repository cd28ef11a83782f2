package render

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Signal says why an HTML page looks like a shell that scripts build in the browser.
type Signal string

// The signals of Detect, strongest first: a page may show several, the first is named.
const (
	// SignalHashRoute: the URL's fragment is a route (#!/x or #/x): only the page's
	// scripts can show what it names.
	SignalHashRoute Signal = "hash-route"
	// SignalEmptyRoot: an application root (<div id="root">, <div id="app">, <app-root>,
	// #__next, ...) with nothing in it.
	SignalEmptyRoot Signal = "empty-root"
	// SignalNoscript: the only text of any weight is in <noscript> ("enable JavaScript").
	SignalNoscript Signal = "noscript"
	// SignalScriptLinks: the page has no links of its own, but its inline scripts name
	// paths and URLs (a route table, a router's data).
	SignalScriptLinks Signal = "script-links"
	// SignalLittleText: next to no text against the page's markup and scripts.
	SignalLittleText Signal = "little-text"
)

// Verdict is what Detect found in a page.
type Verdict struct {
	Shell  bool
	Signal Signal // the strongest signal ("" when not a shell)
	// Detail says it in words, with the figures it was judged by.
	Detail string
	// Scripts is the number of scripts the page runs (with a src, or inline code).
	Scripts int
	// Text is the number of letters and digits outside scripts, styles and <noscript>.
	Text int
}

// Bounds of Detect. A shell is small; a long page is judged by its first maxScan bytes.
const (
	maxScan = 2 << 20
	// Below minText letters a page with scripts says nothing by itself.
	minText = 100
	// littleRatio: text under 1/littleRatio of the markup is "little" (SSR pages run
	// 5-30%; a shell with an inline bundle under 0.1%), up to littleMax letters.
	littleRatio = 100
	littleMax   = 1000
	// A root is an application's own when the rest of the page has less text than this.
	rootMaxText = 1500
	// A page whose links exist only in scripts has fewer than maxAnchors of its own, and
	// its scripts name at least minScriptLinks paths.
	maxAnchors     = 2
	minScriptLinks = 2
)

// rootIDs are the ids frameworks mount an application on.
var rootIDs = map[string]bool{"root": true, "app": true, "__next": true, "___gatsby": true, "__nuxt": true,
	"svelte": true, "q-app": true, "main-app": true, "application": true, "react-root": true, "app-root": true,
	"docusaurus": true, "ember-app": true, "elm": true}

// rootTags are custom elements that are an application's root (Angular's <app-root>).
var rootTags = map[string]bool{"app-root": true, "my-app": true, "ion-app": true}

// rootAttrs mark an element as an application's root.
var rootAttrs = map[string]bool{"ng-app": true, "data-reactroot": true, "data-v-app": true, "ng-version": true}

// Detect says whether an HTML page (the body as served, any charset that keeps ASCII
// markup as ASCII) looks like a shell that its scripts build, and why. pageURL may carry a
// fragment: a route fragment (#! or #/) makes any page with scripts a shell. A page with
// no script is never a shell: nothing could build it. Detect reads at most 2 MiB, in one
// pass, and never fails.
func Detect(body []byte, pageURL string) Verdict {
	if !hasScriptTag(body) {
		return Verdict{}
	}
	f := scan(body)
	v := Verdict{Scripts: f.scripts, Text: f.text}
	if f.scripts == 0 {
		return v
	}
	markup := max(f.markup, 1)
	switch {
	case routeFragment(pageURL) != "":
		v.Signal = SignalHashRoute
		v.Detail = "its URL's fragment is a route only its scripts can show"
	case f.emptyRoot != "" && f.text < rootMaxText:
		v.Signal = SignalEmptyRoot
		v.Detail = fmt.Sprintf("its application root %s is empty (%d letters of text elsewhere)", f.emptyRoot, f.text)
	case f.noscript > 0 && f.text < minText*2 && f.noscript >= f.text/2:
		v.Signal = SignalNoscript
		v.Detail = fmt.Sprintf("its text is in <noscript> (%d letters there, %d outside)", f.noscript, f.text)
	case f.anchors < maxAnchors && f.scriptLinks >= minScriptLinks && f.text < rootMaxText:
		v.Signal = SignalScriptLinks
		v.Detail = fmt.Sprintf("its links are only in its scripts (%d paths named there, %d links in the page)", f.scriptLinks, f.anchors)
	case f.text < minText || (f.text < littleMax && f.text*littleRatio < markup):
		v.Signal = SignalLittleText
		v.Detail = fmt.Sprintf("little text for its markup (%d letters in %s of markup and scripts)", f.text, sizeText(markup))
	}
	v.Shell = v.Signal != ""
	return v
}

// RouteFragment returns the fragment of u when it is a route (#!x or #/x) that a page's
// scripts show as a page of its own, else "".
func RouteFragment(u string) string { return routeFragment(u) }

func routeFragment(u string) string {
	i := strings.IndexByte(u, '#')
	if i < 0 {
		return ""
	}
	f := u[i+1:]
	if len(f) > 1 && (f[0] == '!' || f[0] == '/') {
		return f
	}
	return ""
}

func sizeText(n int) string {
	if n < 10<<10 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%d KB", n>>10)
}

// hasScriptTag reports whether body has "<script" in any case: the fast way out for
// pages without scripts (most static sites).
func hasScriptTag(body []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(body[i:], '<')
		if j < 0 {
			return false
		}
		i += j + 1
		if len(body)-i >= 6 && asciiEqualFold(body[i:i+6], "script") {
			return true
		}
	}
}

func asciiEqualFold(b []byte, s string) bool {
	for i := range len(s) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// facts are what one pass over a page finds.
type facts struct {
	scripts     int    // scripts that run: with a src, or inline code
	text        int    // letters and digits outside script, style, noscript, template, head
	noscript    int    // letters and digits inside <noscript>
	markup      int    // bytes of the page but its style sheets
	anchors     int    // <a href> to somewhere (not "#", not javascript:)
	scriptLinks int    // paths and URLs named in inline scripts (capped)
	emptyRoot   string // the first application root with nothing in it, as "<div id=root>"
}

// openRoot is an application root being read: its nesting depth and whether anything
// is in it yet.
type openRoot struct {
	name  string
	depth int
	full  bool
}

func scan(body []byte) facts {
	if len(body) > maxScan {
		body = body[:maxScan]
	}
	var f facts
	f.markup = len(body)
	z := html.NewTokenizer(bytes.NewReader(body))
	z.SetMaxBuf(maxScan + 4096)
	var (
		depth    int
		skip     atom.Atom // inside script/style/template/head-only text: whose text is not the page's
		inScript bool      // the script being read runs (its text is code)
		noscript int
		roots    []openRoot
	)
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return f
		case html.TextToken:
			raw := z.Raw()
			switch {
			case skip == atom.Script:
				if inScript && len(bytes.TrimSpace(raw)) > 0 {
					f.scripts++
					inScript = false // counted once
				}
				if f.scriptLinks < 64 {
					f.scriptLinks += countPaths(raw, 64-f.scriptLinks)
				}
			case skip == atom.Style:
				f.markup -= len(raw)
			case skip != 0:
			case noscript > 0:
				// The tokenizer reads <noscript> as raw text (scripting on): its markup is in it.
				f.noscript += letters(stripTags(raw))
			default:
				n := letters(z.Text())
				f.text += n
				if n > 0 {
					for i := range roots {
						roots[i].full = true
					}
				}
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			if skip != 0 {
				continue
			}
			attrs := readAttrs(z, hasAttr)
			switch a {
			case atom.Script:
				if tt == html.SelfClosingTagToken {
					continue
				}
				skip, inScript = atom.Script, runs(attrs["type"])
				if inScript && attrs["src"] != "" {
					f.scripts++
					inScript = false
				}
				continue
			case atom.Style, atom.Template, atom.Title, atom.Textarea:
				if tt != html.SelfClosingTagToken {
					skip = a
				}
				continue
			case atom.Noscript:
				noscript++
				continue
			case atom.A:
				if h := strings.TrimSpace(attrs["href"]); h != "" && h != "#" && !strings.HasPrefix(strings.ToLower(h), "javascript:") && noscript == 0 {
					f.anchors++
				}
			}
			if noscript == 0 && a != atom.Html && a != atom.Head && a != atom.Body {
				// Anything with content of its own fills the roots it is in.
				if a == atom.Img || a == atom.A || a == atom.Iframe || a == atom.Video || a == atom.Canvas || a == atom.Svg {
					for i := range roots {
						roots[i].full = true
					}
				}
			}
			if tt == html.SelfClosingTagToken || voidElement(a) {
				continue
			}
			depth++
			if r := rootName(string(name), attrs); r != "" && noscript == 0 {
				roots = append(roots, openRoot{name: r, depth: depth})
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if skip != 0 {
				if a == skip {
					skip, inScript = 0, false
				}
				continue
			}
			if a == atom.Noscript {
				if noscript > 0 {
					noscript--
				}
				continue
			}
			if voidElement(a) {
				continue
			}
			if n := len(roots); n > 0 && roots[n-1].depth == depth {
				if !roots[n-1].full && f.emptyRoot == "" {
					f.emptyRoot = roots[n-1].name
				}
				roots = roots[:n-1]
			}
			if depth > 0 {
				depth--
			}
		}
	}
}

// readAttrs reads the attributes Detect looks at, lower-cased names, at most 32.
func readAttrs(z *html.Tokenizer, more bool) map[string]string {
	if !more {
		return nil
	}
	m := map[string]string{}
	for n := 0; more && n < 32; n++ {
		var k, v []byte
		k, v, more = z.TagAttr()
		m[string(k)] = string(v)
	}
	return m
}

// runs reports whether a <script type=...> runs as code (not data: JSON, templates).
func runs(typ string) bool {
	t := strings.ToLower(strings.TrimSpace(typ))
	switch t {
	case "", "module", "text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript",
		"text/jsx", "text/babel":
		return true
	}
	return false
}

// rootName names an element that is an application's root, "" when it is none.
func rootName(tag string, attrs map[string]string) string {
	if rootTags[tag] {
		return "<" + tag + ">"
	}
	if id := attrs["id"]; rootIDs[strings.ToLower(id)] {
		return fmt.Sprintf("<%s id=%s>", tag, id)
	}
	for a := range attrs {
		if rootAttrs[a] {
			return fmt.Sprintf("<%s %s>", tag, a)
		}
	}
	return ""
}

func voidElement(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img, atom.Input, atom.Link,
		atom.Meta, atom.Source, atom.Track, atom.Wbr:
		return true
	}
	return false
}

// letters counts the letters and digits of s (UTF-8, or bytes of another charset: only
// ASCII matters for a count this rough).
func letters(s []byte) int {
	n := 0
	for len(s) > 0 {
		r, size := utf8.DecodeRune(s)
		s = s[size:]
		if r < utf8.RuneSelf {
			if 'a' <= r|0x20 && r|0x20 <= 'z' || '0' <= r && r <= '9' {
				n++
			}
			continue
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

// stripTags drops what is between < and > (a <noscript>'s markup, read as raw text).
func stripTags(s []byte) []byte {
	out := make([]byte, 0, len(s))
	in := false
	for _, c := range s {
		switch {
		case c == '<':
			in = true
		case c == '>':
			in = false
			out = append(out, ' ')
		case !in:
			out = append(out, c)
		}
	}
	return out
}

// countPaths counts, up to limit, the quoted strings in script text that look like links:
// a site path ("/docs/intro", '/about') or an http(s) URL.
func countPaths(s []byte, limit int) int {
	n := 0
	for i := 0; i < len(s)-2 && n < limit; i++ {
		q := s[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		rest := s[i+1:]
		switch {
		case len(rest) > 1 && rest[0] == '/' && isPathStart(rest[1]):
		case bytes.HasPrefix(rest, []byte("http://")) || bytes.HasPrefix(rest, []byte("https://")):
		default:
			continue
		}
		end := bytes.IndexByte(rest, q)
		if end < 0 || end > 300 || bytes.ContainsAny(rest[:end], " \n<>") {
			continue
		}
		n++
		i += end + 1
	}
	return n
}

func isPathStart(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// pageOf is u without its fragment: the document a route fragment belongs to.
func pageOf(u *url.URL) string {
	c := *u
	c.Fragment, c.RawFragment = "", ""
	return c.String()
}

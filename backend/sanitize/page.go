package sanitize

import (
	"bytes"
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/microcosm-cc/bluemonday"
	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Page builds an offline copy of a page that reads like the page: HTML's document, with the
// page's look kept where the workspace stored what it needs (its style sheets, rewritten by
// RewriteCSS; its images) and its links marked with what the workspace holds of their
// targets, so that the app can open them in place. It is made in three passes:
//
//  1. the page is parsed: relative addresses are made absolute (against <base href> or the
//     page's URL), and its style sheets (<link rel=stylesheet> and <style>, in order) are
//     collected before the sanitiser drops them;
//  2. the sanitiser's policy (pagePolicy: HTML's plus images, classes, ids and style
//     attributes) removes everything active;
//  3. the clean markup is parsed again and what only the workspace knows is put in: each
//     link's marks (data-mundaneum-*), each image's stored body (or its alt text), each
//     style attribute rewritten. Nothing of the page's own reaches this pass but what the
//     sanitiser kept, and only the Resolver's answers are added.
//
// The page's style sheets go into the head, each rewritten, in the order the page had them.

// PageOptions say how Page makes a copy.
type PageOptions struct {
	Title string
	// CSP is the document's Content-Security-Policy; "" is FrameCSP.
	CSP string
	// Resolver says what the workspace holds of the page's links and resources; nil keeps
	// links as HTML does and drops every resource.
	Resolver Resolver
}

// Resolver answers Page's questions about the page's links and resources.
type Resolver interface {
	// Link says what the app knows of a link's target: u is absolute http(s), with the
	// fragment the page gave it.
	Link(u *url.URL) LinkMark
	// Asset returns what replaces an image or a font of the page (or of its style
	// attributes): a data: URL or a relative file name; "" drops it.
	Asset(u *url.URL, kind AssetKind) string
	// Stylesheet returns how the document gets the page's style sheet u (with the media
	// query list the page gave it, checked by PlainMedia): its rewritten text to put in a
	// <style>, or a relative file name to <link>; neither drops it.
	Stylesheet(u *url.URL, media string) Style
	// InlineStyle rewrites a <style> element's text found in the page (base is where its
	// relative URLs point from).
	InlineStyle(css []byte, base *url.URL) string
}

// Style is how a document gets one of its page's style sheets.
type Style struct {
	CSS  string // rewritten text to put in a <style> element
	Href string // or a relative file name for a <link rel=stylesheet>
}

// LinkMark is what the app knows of a link's target.
type LinkMark struct {
	// Page is the page view that shows the target's stored copy (0: the workspace holds
	// none); Version the version of it to show (0: its current content).
	Page, Version int64
	// Anchor is set for a link within the document itself: the id (or name) to scroll to.
	Anchor string
	// Known is the target's page when the workspace knows it but holds no copy of it (it
	// failed, was skipped or never visited).
	Known int64
	// Href replaces the link's address (a static export's relative file); "" keeps it.
	Href string
}

// Attribute names of the marks Page puts on links: the app reads them (and nothing else the
// copy holds) to open a link in place.
const (
	AttrPage    = "data-mundaneum-page"    // the target's page id
	AttrVersion = "data-mundaneum-version" // the version of it to open
	AttrAnchor  = "data-mundaneum-anchor"  // an id within this document
	AttrMissing = "data-mundaneum-missing" // the workspace holds no copy of the target
	AttrKnown   = "data-mundaneum-known"   // ... but knows its page (this id)
)

// FrameCSP is the Content-Security-Policy of a copy shown in the app's frame: nothing loads
// but what the document holds (inline styles, data: images and fonts).
const FrameCSP = "default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'"

// markStyle shows which links the workspace cannot open.
const markStyle = `a[data-mundaneum-missing]{text-decoration-style:dashed}` +
	`a[data-mundaneum-missing]::after{content:"\2197";font-size:.75em;vertical-align:super;opacity:.7}`

// pagePolicy is the sanitiser's policy for pages: HTML's, with images (their addresses
// replaced in the third pass), classes and ids (for the page's style sheets and anchors),
// style attributes (rewritten in the third pass) and the presentational attributes of old
// pages.
var pagePolicy = func() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("p", "br", "hr", "div", "span", "section", "article", "main", "header", "footer",
		"nav", "aside", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd",
		"blockquote", "q", "cite", "pre", "code", "kbd", "samp", "var", "em", "strong", "b", "i", "u",
		"s", "small", "sub", "sup", "mark", "abbr", "dfn", "time", "figure", "figcaption", "table",
		"thead", "tbody", "tfoot", "tr", "th", "td", "caption", "details", "summary", "address",
		"img", "col", "colgroup", "center", "tt", "big", "del", "ins", "wbr", "bdi", "bdo", "ruby", "rt", "rp", "font")
	p.AllowAttrs("href").OnElements("a")
	p.AllowAttrs("name").OnElements("a")
	p.AllowAttrs("src").OnElements("img")
	p.AllowAttrs("alt").OnElements("img")
	p.AllowURLSchemes("http", "https")
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(false)
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	p.AllowAttrs("colspan", "rowspan").Matching(bluemonday.Integer).OnElements("td", "th")
	p.AllowAttrs("span").Matching(bluemonday.Integer).OnElements("col", "colgroup")
	p.AllowAttrs("start").Matching(bluemonday.Integer).OnElements("ol")
	p.AllowAttrs("type").Matching(bluemonday.ListType).OnElements("ol", "ul", "li")
	p.AllowAttrs("width", "height").Matching(bluemonday.NumberOrPercent).OnElements("img", "table", "td", "th", "col", "colgroup")
	p.AllowAttrs("align").Matching(bluemonday.CellAlign).OnElements("div", "p", "table", "td", "th", "tr", "img",
		"h1", "h2", "h3", "h4", "h5", "h6", "col", "colgroup", "thead", "tbody", "tfoot", "caption")
	p.AllowAttrs("valign").Matching(bluemonday.CellVerticalAlign).OnElements("td", "th", "tr", "col", "colgroup", "thead", "tbody", "tfoot")
	p.AllowAttrs("border", "cellpadding", "cellspacing").Matching(bluemonday.Integer).OnElements("table")
	p.AllowAttrs("summary").OnElements("table")
	p.AllowAttrs("scope").Matching(regexp.MustCompile(`(?i)^(row|col|rowgroup|colgroup)$`)).OnElements("th", "td")
	p.AllowAttrs("open").Matching(regexp.MustCompile(`(?i)^(open)?$`)).OnElements("details")
	p.AllowAttrs("datetime").OnElements("time", "del", "ins")
	p.AllowAttrs("title", "lang", "dir", "class", "id", "style").Globally()
	return p
}()

// maxPageImages bounds the images a copy shows (the rest show their alt text).
const maxPageImages = 500

// maxStyles bounds the style sheets a copy keeps.
const maxStyles = 64

// pageStyle is a style sheet of the page as found: linked (URL) or inline (CSS).
type pageStyle struct {
	url   *url.URL
	css   []byte
	media string
}

// parsed is what the first pass finds.
type parsed struct {
	base     *url.URL
	styles   []pageStyle
	lang     string
	dir      string
	bodyID   string
	bodyCls  string
	rendered []byte
	images   []*url.URL // every image's address, absolute (for Requisites)
	inline   [][]byte   // style attributes' text (for Requisites)
}

// Page returns the offline copy of the UTF-8 HTML body of a page fetched from base.
func Page(body []byte, base *url.URL, opt PageOptions) string {
	p := firstPass(body, base)
	clean := pagePolicy.SanitizeBytes(p.rendered)
	r := opt.Resolver
	var b strings.Builder
	b.Grow(len(clean) + 2048)
	b.WriteString(`<!doctype html><html`)
	writeAttr(&b, "lang", p.lang)
	writeAttr(&b, "dir", p.dir)
	b.WriteString(`><head><meta charset="utf-8">`)
	csp := opt.CSP
	if csp == "" {
		csp = FrameCSP
	}
	b.WriteString(`<meta http-equiv="Content-Security-Policy" content="` + html.EscapeString(csp) + `">`)
	b.WriteString(`<meta name="referrer" content="no-referrer"><title>`)
	b.WriteString(html.EscapeString(opt.Title))
	b.WriteString(`</title>`)
	var sheets strings.Builder
	if r != nil {
		for _, s := range p.styles {
			media := ""
			if PlainMedia(s.media) {
				media = strings.TrimSpace(s.media)
			} else if strings.TrimSpace(s.media) != "" {
				continue // a media list this reader does not vouch for: the sheet is left out
			}
			var st Style
			if s.url != nil {
				st = r.Stylesheet(s.url, media)
			} else {
				st.CSS = r.InlineStyle(s.css, p.base)
			}
			switch {
			case st.Href != "":
				sheets.WriteString(`<link rel="stylesheet"`)
				writeAttr(&sheets, "href", st.Href)
				writeAttr(&sheets, "media", media)
				sheets.WriteString(`>`)
			case strings.TrimSpace(st.CSS) != "":
				sheets.WriteString(`<style`)
				writeAttr(&sheets, "media", media)
				sheets.WriteString(`>`)
				// RewriteCSS's output holds no '<': it cannot end the element.
				sheets.WriteString(strings.ReplaceAll(st.CSS, "<", `\3c `))
				sheets.WriteString(`</style>`)
			}
		}
	}
	if sheets.Len() == 0 {
		b.WriteString(`<style>` + style + `</style>`)
	}
	b.WriteString(`<style>` + markStyle + `</style>`)
	b.WriteString(sheets.String())
	b.WriteString(`</head><body`)
	writeAttr(&b, "id", p.bodyID)
	writeAttr(&b, "class", p.bodyCls)
	b.WriteString(`>`)
	b.WriteString(thirdPass(clean, p.base, r))
	b.WriteString(`</body></html>`)
	return b.String()
}

// Requisites lists what Page would ask the Resolver for of this page, each once: its style
// sheets (linked, and imported by its <style> elements), its images, and the images and
// fonts its <style> elements and style attributes name. A crawl stores them when asked for
// a page's requisites.
func Requisites(body []byte, base *url.URL) []Ref {
	p := firstPass(body, base)
	var out []Ref
	seen := map[string]bool{}
	add := func(r Ref) {
		if key := r.Kind.String() + " " + r.URL.String(); !seen[key] {
			seen[key] = true
			out = append(out, r)
		}
	}
	for _, s := range p.styles {
		if s.url != nil {
			add(Ref{URL: s.url, Kind: AssetStylesheet})
			continue
		}
		for _, r := range CSSRefs(s.css, p.base) {
			add(r)
		}
	}
	for _, u := range p.images {
		add(Ref{URL: u, Kind: AssetImage})
	}
	for _, css := range p.inline {
		for _, r := range CSSRefs(css, p.base) {
			add(r)
		}
	}
	return out
}

func writeAttr(b *strings.Builder, name, val string) {
	if val == "" {
		return
	}
	b.WriteString(" " + name + `="` + html.EscapeString(val) + `"`)
}

// firstPass parses the page, makes its addresses absolute and collects its style sheets.
func firstPass(body []byte, base *url.URL) parsed {
	p := parsed{base: base}
	doc, err := xhtml.Parse(bytes.NewReader(body))
	if err != nil {
		p.rendered = body
		return p
	}
	// <base href> counts from where it stands, but it is almost always first: take the
	// first one before resolving anything.
	if b := find(doc, atom.Base); b != nil && base != nil {
		if u, err := base.Parse(strings.TrimSpace(attr(b, "href"))); err == nil && (u.Scheme == "http" || u.Scheme == "https") && attr(b, "href") != "" {
			p.base = u
		}
	}
	abs := func(v string) *url.URL {
		v = strings.TrimSpace(v)
		if v == "" || p.base == nil && !strings.Contains(v, "://") {
			return nil
		}
		var u *url.URL
		var err error
		if p.base != nil {
			u, err = p.base.Parse(v)
		} else {
			u, err = url.Parse(v)
		}
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil
		}
		return u
	}
	var walk func(n *xhtml.Node)
	walk = func(n *xhtml.Node) {
		if n.Type == xhtml.ElementNode {
			switch n.DataAtom {
			case atom.Html:
				p.lang, p.dir = attr(n, "lang"), attr(n, "dir")
			case atom.Body:
				p.bodyID, p.bodyCls = attr(n, "id"), attr(n, "class")
			case atom.Link:
				rel := " " + strings.ToLower(strings.Join(strings.Fields(attr(n, "rel")), " ")) + " "
				if strings.Contains(rel, " stylesheet ") && !strings.Contains(rel, " alternate ") && len(p.styles) < maxStyles {
					if u := abs(attr(n, "href")); u != nil {
						u.Fragment, u.RawFragment = "", ""
						p.styles = append(p.styles, pageStyle{url: u, media: attr(n, "media")})
					}
				}
			case atom.Style:
				if n.Namespace != "" {
					break // an SVG or MathML <style>: not the page's
				}
				if t := strings.ToLower(strings.TrimSpace(attr(n, "type"))); (t == "" || t == "text/css") && len(p.styles) < maxStyles {
					var css bytes.Buffer
					for c := n.FirstChild; c != nil; c = c.NextSibling {
						if c.Type == xhtml.TextNode {
							css.WriteString(c.Data)
						}
					}
					p.styles = append(p.styles, pageStyle{css: css.Bytes(), media: attr(n, "media")})
				}
			case atom.A:
				setAttr(n, "href", func(v string) string {
					if u := abs(v); u != nil {
						return u.String()
					}
					return v
				})
			case atom.Object:
				// An image embedded as an object (DocBook's SVG figures): shown as the image
				// it is, its fallback content as its words.
				if objectImage(n) && len(p.images) < maxPageImages {
					if u := abs(attr(n, "data")); u != nil {
						u.Fragment, u.RawFragment = "", ""
						p.images = append(p.images, u)
						alt := strings.Join(strings.Fields(textOf(n)), " ")
						w, h := attr(n, "width"), attr(n, "height")
						for c := n.FirstChild; c != nil; c = n.FirstChild {
							n.RemoveChild(c)
						}
						n.Data, n.DataAtom = "img", atom.Img
						n.Attr = []xhtml.Attribute{{Key: "src", Val: u.String()}, {Key: "alt", Val: alt}}
						for _, a := range []xhtml.Attribute{{Key: "width", Val: w}, {Key: "height", Val: h}} {
							if a.Val != "" {
								n.Attr = append(n.Attr, a)
							}
						}
					}
				}
			case atom.Img:
				src := attr(n, "src")
				if strings.TrimSpace(src) == "" {
					src = firstSrcset(attr(n, "srcset"))
				}
				removeAttr(n, "src")
				removeAttr(n, "srcset")
				if u := abs(src); u != nil && len(p.images) < maxPageImages {
					u.Fragment, u.RawFragment = "", ""
					p.images = append(p.images, u)
					n.Attr = append(n.Attr, xhtml.Attribute{Key: "src", Val: u.String()})
				}
			}
			if s := attr(n, "style"); s != "" {
				p.inline = append(p.inline, []byte(s))
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	var out bytes.Buffer
	if err := xhtml.Render(&out, doc); err != nil {
		p.rendered = body
		return p
	}
	p.rendered = out.Bytes()
	return p
}

// objectImage reports whether an <object> embeds an image (by its type, or by its data's
// extension when it has none).
func objectImage(n *xhtml.Node) bool {
	if t := strings.ToLower(strings.TrimSpace(attr(n, "type"))); t != "" {
		return strings.HasPrefix(t, "image/")
	}
	d := strings.ToLower(attr(n, "data"))
	if i := strings.IndexAny(d, "?#"); i >= 0 {
		d = d[:i]
	}
	for _, ext := range []string{".svg", ".png", ".gif", ".jpg", ".jpeg", ".webp"} {
		if strings.HasSuffix(d, ext) {
			return true
		}
	}
	return false
}

// textOf is the text inside a node.
func textOf(n *xhtml.Node) string {
	var b strings.Builder
	var walk func(*xhtml.Node)
	walk = func(n *xhtml.Node) {
		if n.Type == xhtml.TextNode {
			b.WriteString(n.Data)
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil && b.Len() < 1000; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// firstSrcset returns the first candidate's URL of a srcset attribute.
func firstSrcset(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t\n,"); i >= 0 {
		s = s[:i]
	}
	return s
}

func find(n *xhtml.Node, a atom.Atom) *xhtml.Node {
	if n.Type == xhtml.ElementNode && n.DataAtom == a {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, a); f != nil {
			return f
		}
	}
	return nil
}

func attr(n *xhtml.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

// setAttr replaces the value of the attribute key (when present) by f's.
func setAttr(n *xhtml.Node, key string, f func(string) string) {
	for i, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			n.Attr[i].Val = f(a.Val)
			return
		}
	}
}

// thirdPass puts the Resolver's answers into the sanitised markup.
func thirdPass(clean []byte, base *url.URL, r Resolver) string {
	ctx := &xhtml.Node{Type: xhtml.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := xhtml.ParseFragment(bytes.NewReader(clean), ctx)
	if err != nil {
		return ""
	}
	holder := &xhtml.Node{Type: xhtml.ElementNode, Data: "body", DataAtom: atom.Body}
	for _, n := range nodes {
		holder.AppendChild(n)
	}
	images := 0
	var walk func(n *xhtml.Node)
	walk = func(n *xhtml.Node) {
		next := n.FirstChild
		for c := next; c != nil; c = next {
			next = c.NextSibling
			walk(c)
		}
		if n.Type != xhtml.ElementNode {
			return
		}
		if s := attr(n, "style"); s != "" {
			v := ""
			if r != nil {
				v = strings.TrimSpace(RewriteCSS([]byte(s), base, CSSRewrite{Asset: r.Asset}))
			}
			removeAttr(n, "style")
			if v != "" {
				n.Attr = append(n.Attr, xhtml.Attribute{Key: "style", Val: v})
			}
		}
		switch n.DataAtom {
		case atom.A:
			markLink(n, r)
		case atom.Img:
			src := ""
			if u, err := url.Parse(attr(n, "src")); err == nil && (u.Scheme == "http" || u.Scheme == "https") && r != nil && images < maxPageImages {
				src = r.Asset(u, AssetImage)
			}
			if src == "" {
				// The workspace does not hold the image: its words stand in for it.
				alt := attr(n, "alt")
				if n.Parent != nil {
					if alt != "" {
						n.Parent.InsertBefore(&xhtml.Node{Type: xhtml.TextNode, Data: alt}, n)
					}
					n.Parent.RemoveChild(n)
				}
				return
			}
			images++
			removeAttr(n, "src")
			n.Attr = append(n.Attr, xhtml.Attribute{Key: "src", Val: src})
		}
	}
	walk(holder)
	var out bytes.Buffer
	for c := holder.FirstChild; c != nil; c = c.NextSibling {
		if err := xhtml.Render(&out, c); err != nil {
			return ""
		}
	}
	return out.String()
}

func removeAttr(n *xhtml.Node, key string) {
	out := n.Attr[:0]
	for _, a := range n.Attr {
		if a.Key != key || a.Namespace != "" {
			out = append(out, a)
		}
	}
	n.Attr = out
}

// markLink puts the Resolver's marks on a link the sanitiser kept (its href is absolute
// http(s); it opens in a new window, which the frame's sandbox refuses, so that a click the
// app does not take does nothing).
func markLink(n *xhtml.Node, r Resolver) {
	href := attr(n, "href")
	if href == "" || r == nil {
		return
	}
	u, err := url.Parse(href)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return
	}
	m := r.Link(u)
	if m.Href != "" {
		// A file of a static export: it opens in the same window.
		removeAttr(n, "target")
		setAttr(n, "href", func(string) string { return m.Href })
	}
	switch {
	case m.Anchor != "":
		n.Attr = append(n.Attr, xhtml.Attribute{Key: AttrAnchor, Val: m.Anchor})
	case m.Page > 0:
		n.Attr = append(n.Attr, xhtml.Attribute{Key: AttrPage, Val: strconv.FormatInt(m.Page, 10)})
		if m.Version > 0 {
			n.Attr = append(n.Attr, xhtml.Attribute{Key: AttrVersion, Val: strconv.FormatInt(m.Version, 10)})
		}
	default:
		n.Attr = append(n.Attr, xhtml.Attribute{Key: AttrMissing, Val: ""})
		if m.Known > 0 {
			n.Attr = append(n.Attr, xhtml.Attribute{Key: AttrKnown, Val: strconv.FormatInt(m.Known, 10)})
		}
		if attr(n, "title") == "" {
			n.Attr = append(n.Attr, xhtml.Attribute{Key: "title", Val: "Not in this workspace: " + href})
		}
	}
}

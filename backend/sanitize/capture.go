package sanitize

import (
	"bytes"
	"html"
	"net/url"
	"strings"

	"github.com/microcosm-cc/bluemonday"
	xhtml "golang.org/x/net/html"
)

// capturePolicy keeps of a page a browser sent ("the page as I see it": its DOM after
// scripts ran, logged in) what a fetched page's stored copy is read for: structure, text,
// links and the addresses of its images, with ids so that its anchors still lead somewhere.
// Nothing that runs, submits or embeds is kept, nor the content of elements that only make
// sense to scripts or as controls (a template, a <select>'s options, an SVG's drawing).
// What is stored is shown later through HTML's policy again, like any fetched page.
var capturePolicy = func() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("p", "br", "hr", "div", "span", "section", "article", "main", "header", "footer",
		"nav", "aside", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd",
		"blockquote", "q", "cite", "pre", "code", "kbd", "samp", "var", "em", "strong", "b", "i", "u",
		"s", "small", "sub", "sup", "mark", "abbr", "dfn", "time", "figure", "figcaption", "table",
		"thead", "tbody", "tfoot", "tr", "th", "td", "caption", "details", "summary", "address", "img")
	p.AllowAttrs("href").OnElements("a")
	p.AllowAttrs("src").OnElements("img")
	p.AllowAttrs("alt").OnElements("img")
	p.AllowAttrs("width", "height").Matching(bluemonday.Integer).OnElements("img")
	p.AllowURLSchemes("http", "https")
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(false)
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	p.AllowAttrs("colspan", "rowspan").Matching(bluemonday.Integer).OnElements("td", "th")
	p.AllowAttrs("datetime").OnElements("time")
	p.AllowAttrs("title", "lang", "dir").Globally()
	p.AllowAttrs("id").Matching(bluemonday.SpaceSeparatedTokens).Globally()
	p.SkipElementsContent("script", "style", "noscript", "template", "svg", "math", "select", "textarea",
		"iframe", "object", "canvas", "video", "audio", "button", "dialog")
	return p
}()

// Capture returns the stored form of a page's DOM as a browser sent it from base: a
// standalone UTF-8 document titled title, its links and image addresses made absolute
// (against <base href> or base) and everything the capture policy does not allow removed.
func Capture(dom []byte, base *url.URL, title string) []byte {
	clean := capturePolicy.SanitizeBytes(absoluteRefs(dom, base))
	var b bytes.Buffer
	b.Grow(len(clean) + 200)
	b.WriteString("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>")
	b.WriteString(html.EscapeString(title))
	b.WriteString("</title></head>\n<body>")
	b.Write(clean)
	b.WriteString("</body></html>\n")
	return b.Bytes()
}

// absoluteRefs rewrites a[href] and img[src] to absolute URLs against <base href> or base
// (only an http(s) <base> counts). On a parse failure the body is returned as it is: the
// policy then drops what is relative.
func absoluteRefs(body []byte, base *url.URL) []byte {
	if base == nil {
		return body
	}
	doc, err := xhtml.Parse(bytes.NewReader(body))
	if err != nil {
		return body
	}
	var walk func(*xhtml.Node)
	walk = func(n *xhtml.Node) {
		if n.Type == xhtml.ElementNode {
			key := ""
			switch n.Data {
			case "base":
				for _, a := range n.Attr {
					if a.Key == "href" {
						if u, err := base.Parse(strings.TrimSpace(a.Val)); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
							base = u
						}
					}
				}
			case "a":
				key = "href"
			case "img":
				key = "src"
			}
			for i, a := range n.Attr {
				if key != "" && a.Key == key {
					if u, err := base.Parse(strings.TrimSpace(a.Val)); err == nil {
						n.Attr[i].Val = u.String()
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	var out bytes.Buffer
	if err := xhtml.Render(&out, doc); err != nil {
		return body
	}
	return out.Bytes()
}

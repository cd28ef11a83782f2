// Package sanitize turns untrusted HTML (a cached page, a report a user wrote) into a
// self-contained document that is safe to show in a sandboxed frame: structure and text
// only, no script, no event handler, no form, no frame, no style sheet and nothing that
// loads from the network.
package sanitize

import (
	"bytes"
	"html"
	"net/url"
	"strings"

	"github.com/microcosm-cc/bluemonday"
	xhtml "golang.org/x/net/html"
)

// policy allows the elements that carry a document's structure and text. Links keep only
// absolute http(s) targets; images are dropped (their alt text stays where the extractor
// put it: in the page's text) because loading them would reach the network.
var policy = func() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("p", "br", "hr", "div", "span", "section", "article", "main", "header", "footer",
		"nav", "aside", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd",
		"blockquote", "q", "cite", "pre", "code", "kbd", "samp", "var", "em", "strong", "b", "i", "u",
		"s", "small", "sub", "sup", "mark", "abbr", "dfn", "time", "figure", "figcaption", "table",
		"thead", "tbody", "tfoot", "tr", "th", "td", "caption", "details", "summary", "address")
	p.AllowAttrs("href").OnElements("a")
	p.AllowURLSchemes("http", "https")
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(false)
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	p.AllowAttrs("colspan", "rowspan").Matching(bluemonday.Integer).OnElements("td", "th")
	p.AllowAttrs("title").Globally()
	p.AllowAttrs("lang", "dir").Globally()
	return p
}()

// CSP is the Content-Security-Policy of every document HTML returns: nothing may load.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'"

const style = `body{font:15px/1.55 system-ui,sans-serif;max-width:46em;margin:1.5em auto;padding:0 1em;color:#222;background:#fff}
pre{white-space:pre-wrap}a{color:#1a5fb4}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .4em}
@media (prefers-color-scheme:dark){body{color:#ddd;background:#1c1c1e}a{color:#78aeed}}`

// HTML returns a safe standalone document for the UTF-8 HTML body of a page fetched from
// base: relative links are made absolute first (the frame has no base URL), then
// everything the policy does not allow is removed.
func HTML(body []byte, base *url.URL, title string) string {
	abs := absolutise(body, base)
	clean := policy.SanitizeBytes(abs)
	var b strings.Builder
	b.Grow(len(clean) + 600)
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8">`)
	b.WriteString(`<meta http-equiv="Content-Security-Policy" content="` + CSP + `">`)
	b.WriteString(`<meta name="referrer" content="no-referrer"><title>`)
	b.WriteString(html.EscapeString(title))
	b.WriteString(`</title><style>` + style + `</style></head><body>`)
	b.Write(clean)
	b.WriteString(`</body></html>`)
	return b.String()
}

// absolutise rewrites a[href] to absolute URLs against <base href> or base, so that the
// sanitiser can keep the http(s) ones. Parsing is bounded by the input; on any failure the
// body is returned as it is (the sanitiser then drops the relative links).
func absolutise(body []byte, base *url.URL) []byte {
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
				for i, a := range n.Attr {
					if a.Key == "href" {
						if u, err := base.Parse(strings.TrimSpace(a.Val)); err == nil {
							n.Attr[i].Val = u.String()
						}
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

// Text returns a standalone document showing plain text as it is (escaped, preformatted).
func Text(text, title string) string {
	var b strings.Builder
	b.Grow(len(text) + 600)
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8">`)
	b.WriteString(`<meta http-equiv="Content-Security-Policy" content="` + CSP + `"><title>`)
	b.WriteString(html.EscapeString(title))
	b.WriteString(`</title><style>` + style + `</style></head><body><pre>`)
	b.WriteString(html.EscapeString(text))
	b.WriteString(`</pre></body></html>`)
	return b.String()
}

// Fragment returns untrusted HTML as a fragment the policy allows (no document around it,
// links absolute http(s) only): for pages Mundaneum writes itself, such as a library's
// static export, which carry their own Content-Security-Policy.
func Fragment(body []byte) string { return string(policy.SanitizeBytes(body)) }

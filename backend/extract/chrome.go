package extract

import (
	"bytes"

	"golang.org/x/net/html/atom"
)

// Main-content extraction. A page's own text is what a reader came for; the site's chrome
// around it (navigation bars, the site header and footer, breadcrumbs, "Prev Up Home Next"
// bars, menus, sidebars) repeats on every page of the site, and indexed as the page's text
// it makes every page match "home", "next" or "download", and opens snippets with
// "Prev Up Chapter 20 ... Home Next".
//
// The parser streams, so chrome is recognised by markup as it opens: the element <nav>; a
// <header> or <footer> outside <article>, <main> and <section> (there they are the
// article's own); ARIA landmarks role=navigation, banner, contentinfo and search; and a
// class or id naming a chrome part (chromeNames: DocBook's navheader/navfooter, Sphinx's
// related bar and sidebar, SQLite's nosearch, and the usual nav, menu, breadcrumb, sidebar,
// header and footer). Its text goes to a side buffer, not to Text or Headings; its links
// and their anchor text are kept, since where a page links is not text it claims. Chrome
// ends at the matching end tag, or when <main>, <article> or role=main opens (an unclosed
// nav never swallows the content), or at </body>; a block holding the page's <h1> is the
// page's header, not chrome. A page whose every word was chrome keeps
// that text (a menu page is still a page).

// chromeNames are the class and id values (a whole class token, or the whole id) that mark
// an element as chrome. "header" and "footer" count only outside article/main/section.
var chromeNames = map[string]bool{
	"nav": true, "navbar": true, "navigation": true, "navheader": true, "navfooter": true,
	"breadcrumb": true, "breadcrumbs": true, "menu": true, "mainmenu": true, "submenu": true,
	"sidebar": true, "sphinxsidebar": true, "related": true, "nosearch": true,
	"skip-link": true, "skiplink": true, "masthead": true, "topbar": true, "top-bar": true,
	"site-header": true, "site-footer": true, "searchmenu": true, "mobile-nav": true,
	"cookie-banner": true, "cookie-notice": true,
}

// scopedNames are chromeNames that mark chrome only outside article/main/section.
var scopedNames = map[string]bool{"header": true, "footer": true}

// chromeCandidate reports whether an element can be chrome (its attributes are read only
// for these).
func chromeCandidate(a atom.Atom) bool {
	switch a {
	case atom.Nav, atom.Header, atom.Footer, atom.Aside, atom.Div, atom.Ul, atom.Ol, atom.Table,
		atom.Section, atom.P, atom.Span, atom.Td, atom.Tr:
		return true
	}
	return false
}

// startsMain reports whether the element opens the page's main content.
func startsMain(a atom.Atom) bool { return a == atom.Main || a == atom.Article }

// chromeStart is called for every start tag with its atom: it opens or nests chrome, ends
// it at main content, and counts the scoping elements.
func (p *parser) chromeStart(a atom.Atom, selfClosing bool) {
	if selfClosing || p.linksOnly {
		return
	}
	role, isMain := p.chromeAttrs(a)
	if startsMain(a) || isMain {
		p.chromeTag, p.chromeDepth = 0, 0
	}
	if a == atom.Main || a == atom.Article || a == atom.Section {
		p.scoped++
	}
	if p.chromeTag != 0 {
		if a == p.chromeTag {
			p.chromeDepth++
		}
		return
	}
	if role || a == atom.Nav || (a == atom.Header || a == atom.Footer) && p.scoped == 0 {
		p.chromeTag, p.chromeDepth = a, 1
		p.brk()
		p.chromeFrom = len(p.chromeText.b)
	}
}

// chromeHeading is called when an h1 opens: a block taken for chrome that holds the page's
// h1 is the page's own header (asciidoc's <div id="header"> holds the manual page's title
// and its NAME line), so its text so far and the rest of it are the page's.
func (p *parser) chromeHeading() {
	if p.chromeTag == 0 || p.chromeTag == atom.Nav {
		return
	}
	p.text.space()
	p.text.writeValid(p.chromeText.b[p.chromeFrom:])
	p.text.space()
	p.chromeText.b = p.chromeText.b[:p.chromeFrom]
	p.chromeTag, p.chromeDepth = 0, 0
}

// chromeEnd is called for every end tag with its atom.
func (p *parser) chromeEnd(a atom.Atom) {
	if a == atom.Main || a == atom.Article || a == atom.Section {
		p.scoped = max(p.scoped-1, 0)
	}
	if p.chromeTag == 0 {
		return
	}
	if a == p.chromeTag {
		p.chromeDepth--
	}
	if p.chromeDepth <= 0 || a == atom.Body || a == atom.Html {
		p.chromeTag, p.chromeDepth = 0, 0
		p.chromeText.space()
	}
}

// chromeAttrs reads a candidate's role, class and id: chrome is whether they mark it as
// chrome, main whether they mark the main content (role=main).
func (p *parser) chromeAttrs(a atom.Atom) (chrome, main bool) {
	if !chromeCandidate(a) && !startsMain(a) {
		return false, false
	}
	role, class, id := p.attr3("role", "class", "id")
	role = bytes.TrimSpace(role)
	switch {
	case bytes.EqualFold(role, []byte("main")):
		return false, true
	case bytes.EqualFold(role, []byte("navigation")), bytes.EqualFold(role, []byte("search")):
		return true, false
	case bytes.EqualFold(role, []byte("banner")), bytes.EqualFold(role, []byte("contentinfo")):
		return p.scoped == 0, false
	}
	if p.chromeTag != 0 {
		return false, false // already in chrome: nesting is counted by tag
	}
	if name := bytes.TrimSpace(id); len(name) > 0 && len(name) <= 32 && p.chromeName(name) {
		return true, false
	}
	for _, tok := range bytes.Fields(class) {
		if len(tok) <= 32 && p.chromeName(tok) {
			return true, false
		}
	}
	return false, false
}

// chromeName reports whether a class token or id names chrome here.
func (p *parser) chromeName(b []byte) bool {
	var buf [32]byte
	n := copy(buf[:], b)
	for i := range n {
		buf[i] = lowerASCIIByte(buf[i])
	}
	name := buf[:n]
	return chromeNames[string(name)] || p.scoped == 0 && scopedNames[string(name)]
}

func lowerASCIIByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// pageText is the page's text: the main content, or the chrome's text when the page had
// no other.
func (p *parser) pageText() string {
	if len(trimSpace(p.text.b)) == 0 && len(p.chromeText.b) > 0 {
		return p.chromeText.String()
	}
	return p.text.String()
}

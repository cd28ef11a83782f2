package extract

import (
	"net/url"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// parser holds the state of one HTML summary. Parsers are pooled: their buffers
// and link map are reused, and everything handed out is copied.
type parser struct {
	z    *html.Tokenizer
	page *url.URL // the document's URL
	base *url.URL // what relative links resolve against

	// The fast path's view of base (see setFastBase); prefix "" disables it.
	prefix, basePath, baseDir string

	text, title, heading, headings, aText textBuf
	scratch                               textBuf // for collapsing attribute values

	titles  int       // <title> elements seen outside svg/math
	raw     atom.Atom // raw-text element whose content is next, until its end tag
	skip    int       // depth inside noscript and template: text hidden
	inert   int       // depth inside template: links ignored too
	foreign int       // depth inside svg and math
	hDepth  int       // depth inside h1-h6

	// Chrome (see chrome.go): the open chrome element and its nesting, the open
	// article/main/section elements, and the chrome's text.
	chromeTag   atom.Atom
	chromeDepth int
	scoped      int
	chromeText  textBuf
	chromeFrom  int // where the open chrome's text starts in chromeText

	linksOnly bool // Links: no visible text is gathered
	// LinkOptions: keep the fragments of links into documents; hand out the ids.
	fragments bool
	anchor    func(id []byte)
	selfFrags []string // the fragments of "#x" links
	fragSeen  map[fragKey]bool
	nfrags    int

	blk *blockBuilder // Blocks: the text's blocks are gathered too (nil: not)

	inA    bool   // an <a> is open
	aLink  int    // index in links of the open <a>'s target, or -1
	aImgs  []int  // links of images first seen inside the open <a>
	aAlt   string // alt text of the first image inside the open <a>
	aTitle string // title or aria-label of the open <a>

	lang, metaLang, description, keywords, author string
	owner, expires, generator, canonical          string
	noIndex, noFollow                             bool

	cur   []byte // the raw text of the current tag ("<a href=x>")
	curID bool   // scan found an attribute named id in cur
	low   []byte // lowered copies of attribute values (see lowered)

	links    []Link
	seen     map[linkKey]int
	cands    [][]byte // srcset candidates, reused
	attrIt   attrIter // reused by attrs
	problems problemSet
}

type linkKey struct{ url, kind string }

func newParser() *parser {
	return &parser{seen: make(map[linkKey]int, 64)}
}

// reset prepares a pooled parser for a new document.
func (p *parser) reset(pageURL *url.URL, maxText int) {
	clear(p.links) // drop references to the previous page's strings
	links, seen, aImgs, cands, low := p.links[:0], p.seen, p.aImgs[:0], p.cands[:0], p.low[:0]
	fragSeen := p.fragSeen
	if len(fragSeen) > 1024 {
		fragSeen = nil
	} else {
		clear(fragSeen)
	}
	text, title, heading, headings, aText, scratch, chrome := p.text, p.title, p.heading, p.headings, p.aText, p.scratch, p.chromeText
	if len(seen) > 1024 {
		seen = make(map[linkKey]int, 64) // clearing costs the map's peak size
	} else {
		clear(seen)
	}
	*p = parser{
		page: pageURL, base: pageURL, aLink: -1,
		links: links, seen: seen, aImgs: aImgs, cands: cands, low: low, fragSeen: fragSeen,
	}
	p.text, p.title, p.heading, p.headings, p.aText, p.scratch, p.chromeText = text, title, heading, headings, aText, scratch, chrome
	p.setFastBase()
	if cap(p.text.b) > 1<<20 {
		p.text.b = nil // a big page's buffer is not kept for the next, mostly small, one
	}
	p.text.reset(maxText)
	p.title.reset(MaxTitle)
	p.heading.reset(MaxHeadings)
	p.headings.reset(MaxHeadings)
	p.aText.reset(MaxAnchor)
	p.chromeText.reset(MaxHeadings)
}

func (p *parser) problem(x problemSet) { p.problems |= x }

// collapse returns v whitespace-collapsed and capped at max bytes.
func (p *parser) collapse(v []byte, max int) string {
	p.scratch.reset(max)
	p.scratch.write(v)
	return p.scratch.String()
}

// tagAtom returns the atom of the tag whose raw text ("<div ...>" or "</div>") is
// given, without the allocation of Tokenizer.TagName; 0 for unknown names.
func tagAtom(raw []byte) atom.Atom {
	i := 1
	if i < len(raw) && raw[i] == '/' {
		i++
	}
	var buf [16]byte
	n := 0
	for ; i < len(raw); i++ {
		c := raw[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '/' || c == '>' {
			break
		}
		if n == len(buf) {
			return 0 // longer than any element we handle
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[n] = c
		n++
	}
	return atom.Lookup(buf[:n])
}

// isBlock reports whether an element separates the words around it.
func isBlock(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Body, atom.Br,
		atom.Button, atom.Caption, atom.Center, atom.Dd, atom.Details, atom.Dialog, atom.Dir,
		atom.Div, atom.Dl, atom.Dt, atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer,
		atom.Form, atom.Frameset, atom.Head, atom.Header, atom.Hgroup, atom.Hr, atom.Html,
		atom.Iframe, atom.Img, atom.Input, atom.Legend, atom.Li, atom.Listing, atom.Main, atom.Menu,
		atom.Nav, atom.Noframes, atom.Ol, atom.Optgroup, atom.Option, atom.P, atom.Pre,
		atom.Search, atom.Section, atom.Select, atom.Summary, atom.Table, atom.Tbody, atom.Td,
		atom.Textarea, atom.Tfoot, atom.Th, atom.Thead, atom.Title, atom.Tr, atom.Ul, atom.Xmp:
		return true
	}
	return false
}

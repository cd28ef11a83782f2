// Package extract turns a fetched document into a Summary: its title, headings and
// visible text, the meta data Mundaneum records (description, keywords, author,
// owner, expiry, robots directives), every outgoing link with its kind and anchor
// text, and the HTML problems WWWW logged (missing titles, broken quotes, unclosed
// comments and elements).
//
// HTML runs the golang.org/x/net/html tokenizer once over the page (no tree is
// built) and bounds every output: text, title, anchor text and the link list are
// capped, so a hostile page costs time linear in its size and bounded memory.
package extract

import (
	"bytes"
	"net/url"
	"sync"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Caps on what a Summary holds.
const (
	MaxText     = 10 << 20 // bytes of Text, unless Options say otherwise
	MaxTitle    = 1024     // bytes of Title
	MaxHeadings = 32 << 10 // bytes of Headings
	MaxAnchor   = 300      // bytes of a link's anchor text
	MaxMeta     = 2048     // bytes of a meta value (description, keywords, ...)
	MaxLinks    = 10000    // links per document
	MaxURL      = 8192     // longer link targets are reported as bad links
)

// Link kinds: which element (or attribute) a link came from.
const (
	KindA       = "a"       // <a href>
	KindArea    = "area"    // <area href> in an image map
	KindImg     = "img"     // <img src/srcset>, <picture><source srcset>, <input type=image>, poster, background
	KindFrame   = "frame"   // <frame src>
	KindIFrame  = "iframe"  // <iframe src>
	KindLink    = "link"    // <link href> (Rel says which: stylesheet, alternate, ...)
	KindRefresh = "refresh" // <meta http-equiv=refresh content="0; url=...">
	KindScript  = "script"  // <script src>
	KindEmbed   = "embed"   // <embed src>
	KindObject  = "object"  // <object data>
	KindMedia   = "media"   // <video src>, <audio src>, <source src>, <track src>
	KindForm    = "form"    // <form action>
	KindText    = "text"    // a bare URL in a text/plain document
)

// Link is one outgoing reference of a document.
type Link struct {
	// URL is absolute, resolved against <base href> or the page URL, without
	// fragment; only http and https are kept. It is not otherwise normalised.
	URL string
	// Kind is one of the Kind constants.
	Kind string
	// Anchor is the link text, whitespace-collapsed and capped at MaxAnchor: for
	// <a> its text (or the alt of an image inside it, or its title attribute), for
	// images the alt text, or the text of the <a> the image sits in (as WWWW did).
	Anchor string
	// Rel is the rel attribute, lower-case and whitespace-collapsed.
	Rel string
	// NoFollow is set when Rel contains nofollow, ugc or sponsored.
	NoFollow bool
	// Fragments are the fragments (without '#') the link is written with, each once, in
	// order: only with LinkOptions.Fragments.
	Fragments []string
}

// Summary is what Mundaneum keeps of a document.
type Summary struct {
	Title    string // the first <title>, whitespace-collapsed, capped at MaxTitle
	Headings string // h1-h6 texts joined by " \n", capped at MaxHeadings
	// Text is the visible text (headings included, title and script, style,
	// noscript, template and form-field contents excluded), whitespace-collapsed,
	// capped at MaxText (or Options.MaxText) on a rune boundary: a cut text is
	// recorded as the problem "truncated".
	Text string

	Lang        string // <html lang>, else Content-Language from <meta http-equiv>, lower-case
	Description string // <meta name=description>
	Keywords    string // <meta name=keywords>
	Author      string // <meta name=author>
	Owner       string // <meta name=owner> or http-equiv=owner, else the address of <link rev=made href=mailto:...>
	Expires     string // <meta http-equiv=expires> or <meta name=expires>, as written
	Generator   string // <meta name=generator>
	Canonical   string // <link rel=canonical>, absolute

	// NoIndex and NoFollow come from <meta name=robots> or <meta name=mundaneum>
	// (noindex, nofollow, none).
	NoIndex, NoFollow bool

	Links []Link // de-duplicated by (URL, Kind), first occurrence first, at most MaxLinks
	// SelfFragments are the parts of this document that its "#x" links name, each once, in
	// order (only with LinkOptions.Fragments).
	SelfFragments []string
	Problems      []string // Problem constants, each at most once, in a fixed order
}

// Options tune a summary.
type Options struct {
	MaxText int // bytes of Text kept; MaxText when 0
}

func (o Options) maxText() int {
	if o.MaxText <= 0 {
		return MaxText
	}
	return o.MaxText
}

// HTML summarises a UTF-8 HTML document fetched from pageURL (which may be nil,
// in which case only absolute links are kept).
func HTML(body []byte, pageURL *url.URL) *Summary { return Options{}.HTML(body, pageURL) }

// HTML summarises a UTF-8 HTML document, as the package function does, with o's caps.
func (o Options) HTML(body []byte, pageURL *url.URL) *Summary { return o.html1(body, pageURL, false) }

// Links is HTML without the text: the title, the meta data and the links (without their
// anchor text), for a link checker, which reads every page of a site and needs no words.
//
// Most pages are read by scan, which finds the tags without tokenising the text between
// them; a page with anything scan leaves to the tokenizer is read by it instead, with the
// same result (FuzzScan compares the two on every input).
func Links(body []byte, pageURL *url.URL) *Summary { return LinkOptions{}.Links(body, pageURL) }

// linksTokenized is Links by the tokenizer alone, for the tests that compare the two.
func linksTokenized(body []byte, pageURL *url.URL) *Summary {
	return Options{}.html1(body, pageURL, true)
}

func (o Options) html1(body []byte, pageURL *url.URL, linksOnly bool) *Summary {
	p := parserPool.Get().(*parser)
	defer parserPool.Put(p)
	p.reset(pageURL, o.maxText())
	p.linksOnly = linksOnly
	if href, ok := findBase(body); ok {
		p.setBase(href)
	}
	p.z = html.NewTokenizer(bytes.NewReader(body))
	p.run()
	p.z = nil
	return p.summary()
}

var parserPool = sync.Pool{New: func() any { return newParser() }}

// run tokenizes the whole document.
func (p *parser) run() {
	z := p.z
	for {
		switch z.Next() {
		case html.ErrorToken:
			p.atEOF(z.Raw())
			return
		case html.TextToken:
			p.onText()
		case html.StartTagToken:
			p.cur = z.Raw()
			p.onStart(false)
		case html.SelfClosingTagToken:
			p.cur = z.Raw()
			p.onStart(true)
		case html.EndTagToken:
			p.cur = z.Raw()
			p.onEnd()
		case html.CommentToken:
			// A comment that ran to the end of the input has no closing '>'.
			if raw := z.Raw(); len(raw) > 0 && raw[len(raw)-1] != '>' {
				p.problem(probUnclosedComment)
			}
		}
	}
}

// onText handles a text token: raw element content or visible text.
func (p *parser) onText() {
	if p.raw != 0 {
		switch p.raw {
		case atom.Title:
			if p.titles == 1 {
				p.title.write(p.z.Text())
			}
		case atom.Xmp, atom.Plaintext:
			p.visible(p.z.Text())
		}
		return // script, style, textarea, iframe and noembed content is not text
	}
	if p.skip > 0 || p.linksOnly {
		return
	}
	p.visible(p.z.Text())
}

// visible adds text that a reader sees to the page text, the open anchor and the
// open heading.
func (p *parser) visible(s []byte) {
	if len(s) == 0 || p.text.full && !p.inA && p.hDepth == 0 {
		return
	}
	s = validBytes(s)
	if p.blk != nil {
		p.blk.text(s, p.chromeTag != 0)
	}
	if p.inA {
		p.aText.writeValid(s)
	}
	if p.chromeTag != 0 {
		p.chromeText.writeValid(s) // not the page's own text: neither Text nor Headings
		return
	}
	p.text.writeValid(s)
	if p.hDepth > 0 {
		p.heading.writeValid(s)
	}
}

// brk separates words at a block boundary.
func (p *parser) brk() {
	p.text.space()
	p.chromeText.space()
	p.aText.space()
	p.heading.space()
}

// atEOF records what was left open when the input ended.
func (p *parser) atEOF(raw []byte) {
	if len(raw) > 0 && raw[0] == '<' {
		// The tokenizer drops a tag cut off by the end of input.
		p.problem(tagProblem(raw, true))
	}
	if p.raw != 0 && p.raw != atom.Plaintext { // <plaintext> has no end by design
		p.problem(probUnclosedElement) // e.g. <title> or <script> never closed
	}
	if p.inA {
		p.problem(probUnclosedElement)
		p.endA()
	}
	if p.hDepth > 0 {
		p.hDepth = 1
		p.endHeading()
	}
}

// summary builds the result from the parser's state.
func (p *parser) summary() *Summary {
	s := &Summary{
		Title:       p.title.String(),
		Headings:    p.headings.String(),
		Text:        p.pageText(),
		Lang:        p.lang,
		Description: p.description,
		Keywords:    p.keywords,
		Author:      p.author,
		Owner:       p.owner,
		Expires:     p.expires,
		Generator:   p.generator,
		Canonical:   p.canonical,
		NoIndex:     p.noIndex,
		NoFollow:    p.noFollow,
	}
	if s.Lang == "" {
		s.Lang = p.metaLang
	}
	switch {
	case p.titles == 0:
		p.problem(probNoTitle)
	case s.Title == "":
		p.problem(probEmptyTitle)
	}
	if p.titles > 1 {
		p.problem(probMultipleTitles)
	}
	if p.text.full {
		p.problem(probTruncated)
	}
	if len(p.links) > 0 {
		s.Links = make([]Link, len(p.links))
		copy(s.Links, p.links)
	}
	if len(p.selfFrags) > 0 {
		s.SelfFragments = append([]string(nil), p.selfFrags...)
	}
	s.Problems = p.problems.list()
	return s
}

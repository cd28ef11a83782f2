package extract

import (
	"bytes"
	"net/url"
	"strings"

	"golang.org/x/net/html"
)

// LinkOptions say what Links reads besides the links, for a link checker that checks
// fragments ("page.html#section") against the ids and named anchors of their page, as
// linkchecker's AnchorCheck and lychee's --include-fragments do.
type LinkOptions struct {
	// Fragments keeps the fragment of the links that point into a document (a, area,
	// frame, iframe, meta refresh): "page.html#a" and "page.html#b" are then two links, and
	// "#a" alone is a link to a part of this document (its URL with the fragment).
	Fragments bool
	// Anchor, when set, is called with the value of every id attribute and of every
	// <a name> of the document: what a fragment may name. The bytes are valid during the
	// call only.
	Anchor func(id []byte)
}

// maxFragment bounds a fragment kept: a longer one is dropped (the link stays, whole).
const maxFragment = 1024

// Links is the package's Links with o's options.
func (o LinkOptions) Links(body []byte, pageURL *url.URL) *Summary {
	p := parserPool.Get().(*parser)
	defer parserPool.Put(p)
	o.start(p, pageURL)
	base, hasBase := findBase(body)
	if hasBase {
		p.setBase(base)
	}
	if p.scan(body) {
		return p.summary()
	}
	o.start(p, pageURL) // what the scanner handed out is read again, by the tokenizer
	if hasBase {
		p.setBase(base)
	}
	p.z = html.NewTokenizer(bytes.NewReader(body))
	p.run()
	p.z = nil
	return p.summary()
}

// linksTokenized is Links with o's options by the tokenizer alone, for the tests that
// compare the two.
func (o LinkOptions) linksTokenized(body []byte, pageURL *url.URL) *Summary {
	p := parserPool.Get().(*parser)
	defer parserPool.Put(p)
	o.start(p, pageURL)
	if href, ok := findBase(body); ok {
		p.setBase(href)
	}
	p.z = html.NewTokenizer(bytes.NewReader(body))
	p.run()
	p.z = nil
	return p.summary()
}

func (o LinkOptions) start(p *parser, pageURL *url.URL) {
	p.reset(pageURL, MaxText)
	p.linksOnly, p.fragments, p.anchor = true, o.Fragments, o.Anchor
}

// fragmentOf returns the fragment of href, made safe to write after a URL's '#', when the
// parser keeps fragments and kind points into a document ("" otherwise, or when it is
// empty or too long).
func (p *parser) fragmentOf(href []byte, kind string) string {
	if !p.fragments {
		return ""
	}
	switch kind {
	case KindA, KindArea, KindFrame, KindIFrame, KindRefresh:
	default:
		return ""
	}
	i := bytes.IndexByte(href, '#')
	if i < 0 {
		return ""
	}
	f := trimSpace(href[i+1:])
	if len(f) == 0 || len(f) > maxFragment {
		return ""
	}
	return validURL(escapeFragment(f))
}

// EscapeFragment is a fragment as written (without its '#') made safe as Links writes
// fragments: what the URL standard escapes in a fragment is percent-encoded.
func EscapeFragment(f string) string { return validURL(escapeFragment([]byte(f))) }

// escapeFragment percent-encodes what the URL standard's fragment percent-encode set holds
// (controls, space, '"', '<', '>', '`'); the rest is kept as written.
func escapeFragment(f []byte) string {
	clean := true
	for _, c := range f {
		if fragmentEscaped(c) {
			clean = false
			break
		}
	}
	if clean {
		return string(f)
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for _, c := range f {
		if fragmentEscaped(c) {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func fragmentEscaped(c byte) bool {
	return c <= ' ' || c == 0x7f || c == '"' || c == '<' || c == '>' || c == '`'
}

// selfURL is the URL a bare "#x" names: the base URL without its fragment.
func (p *parser) selfURL() string {
	if p.base == nil {
		return ""
	}
	u := *p.base
	u.Fragment, u.RawFragment = "", ""
	return validURL(u.String())
}

// isSelf reports whether href is a fragment alone ("#x").
func isSelf(href []byte) bool {
	h := trimSpace(href)
	return len(h) > 1 && h[0] == '#'
}

// onAnchor hands the ids of the current start tag to the Anchor option (an <a>'s id and
// name are read by startA). Content of a <template> is no part of the document.
func (p *parser) onAnchor() {
	if p.anchor == nil || p.inert > 0 || !mayHaveID(p.cur) {
		return
	}
	it := p.attrs()
	for k, v, ok := it.next(); ok; k, v, ok = it.next() {
		if string(k) == "id" {
			if len(v) > 0 {
				p.anchor(v)
			}
			return // the first id counts, as the tokenizer's first attribute does
		}
	}
}

// mayHaveID is a quick look at a raw start tag: whether an attribute named id (in any case,
// with or without spaces before '=') may be in it. Most tags have none and are not parsed.
func mayHaveID(raw []byte) bool {
	for i := 1; i+2 < len(raw); i++ {
		if raw[i]|0x20 != 'i' || raw[i+1]|0x20 != 'd' || !isHTMLSpace(raw[i-1]) {
			continue
		}
		j := i + 2
		for j < len(raw) && isHTMLSpace(raw[j]) {
			j++
		}
		if j < len(raw) && raw[j] == '=' {
			return true
		}
	}
	return false
}

// seenID reports whether an <a>'s attribute k (id or name) was seen before in the tag, and
// marks it seen: only the first of each counts.
func seenID(k []byte, id, name *bool) bool {
	seen := name
	if string(k) == "id" {
		seen = id
	}
	was := *seen
	*seen = true
	return was
}

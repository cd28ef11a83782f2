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
	// Fragments keeps the fragments that the links into a document (a, area, frame,
	// iframe, meta refresh) are written with: "page.html#a" and "page.html#b" are one link,
	// to page.html, with the Fragments a and b; the fragments of "#a" links (this document's
	// own parts) go to Summary.SelfFragments.
	Fragments bool
	// Anchor, when set, is called with the value of every id attribute and of every
	// <a name> of the document: what a fragment may name. It may be called twice with the
	// same value (a page the scanner leaves to the tokenizer half-way is read again). The
	// bytes are valid during the call only.
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

// fragmentOf returns the fragment of href as written (without '#'), when the parser keeps
// fragments and kind points into a document: nil otherwise, or when it is empty or too
// long. The bytes are href's.
func (p *parser) fragmentOf(href []byte, kind string) []byte {
	if !p.fragments {
		return nil
	}
	switch kind {
	case KindA, KindArea, KindFrame, KindIFrame, KindRefresh:
	default:
		return nil
	}
	i := bytes.IndexByte(href, '#')
	if i < 0 {
		return nil
	}
	f := trimSpace(href[i+1:])
	if len(f) == 0 || len(f) > maxFragment {
		return nil
	}
	return f
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

// fragKey is a fragment of one of the document's links (-1: of the document itself), by
// the hash of its bytes: a fragment written again costs no allocation.
type fragKey struct {
	link int
	hash uint64
}

// newFragment reports whether fragment f of link i (-1: of the document) is new, and
// counts it: at most MaxLinks fragments a document.
func (p *parser) newFragment(i int, f []byte) bool {
	if p.nfrags >= MaxLinks {
		return false
	}
	h := uint64(14695981039346656037) // FNV-1a
	for _, c := range f {
		h ^= uint64(c)
		h *= 1099511628211
	}
	if p.fragSeen == nil {
		p.fragSeen = make(map[fragKey]bool)
	}
	k := fragKey{i, h}
	if p.fragSeen[k] {
		return false
	}
	p.fragSeen[k] = true
	p.nfrags++
	return true
}

// addFragment records that link i is written with fragment f, once.
func (p *parser) addFragment(i int, f []byte) {
	if len(f) > 0 && p.newFragment(i, f) {
		p.links[i].Fragments = append(p.links[i].Fragments, EscapeFragment(string(f)))
	}
}

// selfFragment records a link to a part of this document, once.
func (p *parser) selfFragment(f []byte) {
	if p.newFragment(-1, f) {
		p.selfFrags = append(p.selfFrags, EscapeFragment(string(f)))
	}
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
	if p.anchor == nil || p.inert > 0 {
		return
	}
	if p.z == nil && !p.curID || p.z != nil && !mayHaveID(p.cur) {
		return // the scanner read the tag's attribute names already; the tokenizer did not
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
	for off := 0; ; {
		i := bytes.Index(raw[off:], []byte("id"))
		if i < 0 {
			break
		}
		if i += off; idAt(raw, i) {
			return true
		}
		off = i + 1
	}
	if bytes.IndexByte(raw, 'I') < 0 && bytes.IndexByte(raw, 'D') < 0 {
		return false
	}
	for i := 1; i+2 < len(raw); i++ { // "ID", "Id", "iD": rare
		if raw[i]|0x20 == 'i' && raw[i+1]|0x20 == 'd' && idAt(raw, i) {
			return true
		}
	}
	return false
}

// idAt reports whether the two bytes at raw[i] are an attribute name of their own: after
// white space, before '=' (white space allowed between).
func idAt(raw []byte, i int) bool {
	if i < 1 || !isHTMLSpace(raw[i-1]) {
		return false
	}
	j := i + 2
	for j < len(raw) && isHTMLSpace(raw[j]) {
		j++
	}
	return j < len(raw) && raw[j] == '='
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

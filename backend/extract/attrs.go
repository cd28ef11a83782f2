package extract

import (
	"bytes"

	"golang.org/x/net/html"
)

// attrIter walks the attributes of the current start tag. Tokenizer.TagAttr
// copies every key and value; for the usual tag, whose raw text has no '&', NUL
// or CR (so nothing to unescape or convert), attrIter reads the raw bytes in
// place instead, following the tokenizer's own attribute rules (FuzzAttrs checks
// they agree). Keys come lower-cased; values are valid until the next token.
// Callers take the first occurrence of a key, as the tokenizer does, and may
// lower-case values in place: they are bytes of the current token, which the
// tokenizer never reads again.
type attrIter struct {
	z    *html.Tokenizer
	raw  []byte // nil: use z.TagAttr
	i    int
	more bool
	key  [32]byte
}

func (p *parser) attrs() *attrIter {
	it := &p.attrIt
	raw := p.cur
	*it = attrIter{z: p.z, more: true}
	switch {
	case bytes.IndexByte(raw, '&') < 0 && bytes.IndexByte(raw, 0) < 0 && bytes.IndexByte(raw, '\r') < 0:
		it.raw = raw
		it.i = skipTagName(raw)
	case it.z == nil:
		// The scanner's tag (see scan): the tokenizer reads it alone, as it would in place.
		it.z = html.NewTokenizer(bytes.NewReader(raw))
		it.z.Next()
	}
	return it
}

// skipTagName returns the index just past "<name" in a raw start tag.
func skipTagName(raw []byte) int {
	i := 1
	for i < len(raw) && !isHTMLSpace(raw[i]) && raw[i] != '/' && raw[i] != '>' {
		i++
	}
	return i
}

// next returns the next attribute; ok is false when there are no more.
func (it *attrIter) next() (key, val []byte, ok bool) {
	if it.raw == nil {
		for it.more {
			key, val, it.more = it.z.TagAttr()
			if len(key) > 0 {
				return key, val, true
			}
		}
		return nil, nil, false
	}
	raw, i := it.raw, it.i
	for {
		for i < len(raw) && isHTMLSpace(raw[i]) {
			i++
		}
		if i >= len(raw) || raw[i] == '>' {
			it.i = len(raw)
			return nil, nil, false
		}
		// The key runs to '=', whitespace, '/' or '>'; a leading '=' belongs to it.
		ks := i
		for i < len(raw) {
			c := raw[i]
			if c == '=' && i == ks {
				i++
				continue
			}
			if c == '=' || c == '/' || c == '>' || isHTMLSpace(c) {
				break
			}
			i++
		}
		k := raw[ks:i]
		var v []byte
		for i < len(raw) && isHTMLSpace(raw[i]) {
			i++
		}
		if i < len(raw) {
			switch raw[i] {
			case '/':
				i++
			case '=':
				i++
				for i < len(raw) && isHTMLSpace(raw[i]) {
					i++
				}
				if i < len(raw) {
					switch q := raw[i]; q {
					case '>':
					case '"', '\'':
						i++
						vs := i
						for i < len(raw) && raw[i] != q {
							i++
						}
						v = raw[vs:min(i, len(raw))]
						if i < len(raw) {
							i++
						}
					default:
						vs := i
						for i < len(raw) && !isHTMLSpace(raw[i]) && raw[i] != '>' {
							i++
						}
						v = raw[vs:i]
					}
				}
			}
		}
		if len(k) == 0 {
			continue
		}
		it.i = i
		n := 0
		for _, c := range k {
			if n == len(it.key) {
				n = 0 // longer than any attribute we read: report it unmatched
				break
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			it.key[n] = c
			n++
		}
		if n == 0 {
			return it.key[:0], v, true
		}
		return it.key[:n], v, true
	}
}

// isHTMLSpace reports whether c is whitespace to the tokenizer (no \v).
func isHTMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

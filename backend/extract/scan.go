package extract

import (
	"bytes"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// scan is the link checker's reader (Links): it feeds the handlers the tags of body as the
// golang.org/x/net/html tokenizer would, but skips the text between tags with
// bytes.IndexByte instead of tokenising it (a link checker reads no words: in the profile
// of a documentation site, the tokenizer was a quarter of the CPU). It follows the tokenizer's own
// rules for where a tag, a comment, a declaration and raw text (script, style, textarea,
// title...) end. Whatever it does not follow byte for byte it leaves to the tokenizer: it
// returns false, having read nothing for certain, and Links starts again with it. Those
// are: NUL bytes, a tag, comment or raw-text element cut off by the end of the document,
// script text with "<!--" (the script escape states), xmp and plaintext (whose text is
// page text), and a title with a carriage return. FuzzScan checks that Links and the
// tokenizer agree on every input.
func (p *parser) scan(b []byte) bool {
	if bytes.IndexByte(b, 0) >= 0 {
		return false
	}
	n := len(b)
	i := 0
	for {
		if p.raw != 0 {
			var ok bool
			if i, ok = p.scanRaw(b, i); !ok {
				return false
			}
		}
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 || i+j+1 >= n {
			break // text to the end
		}
		i += j
		switch c := b[i+1]; {
		case isASCIILetter(c):
			e, id := tagEndID(b, i+1)
			if e < 0 {
				return false
			}
			p.cur, p.curID = b[i:e], id
			p.onStart(p.selfClosing(p.cur))
			i = e
			if p.raw == atom.Xmp || p.raw == atom.Plaintext {
				return false
			}
		case c == '/':
			if i+2 >= n {
				i = n // "</" at the end: text
				continue
			}
			switch d := b[i+2]; {
			case d == '>':
				i += 3 // "</>" is no token at all
			case isASCIILetter(d):
				e := tagEnd(b, i+2)
				if e < 0 {
					return false
				}
				p.cur = b[i:e]
				p.onEnd()
				i = e
			default: // a bogus comment, to the next '>'
				k := bytes.IndexByte(b[i+2:], '>')
				if k < 0 {
					return false
				}
				i += 2 + k + 1
			}
		case c == '!':
			var e int
			if i+3 < n && b[i+2] == '-' && b[i+3] == '-' {
				e = commentEnd(b, i+4)
			} else if k := bytes.IndexByte(b[i+2:], '>'); k >= 0 {
				e = i + 2 + k + 1 // <!DOCTYPE ...>, or a bogus comment: to the next '>'
			} else {
				e = -1
			}
			if e < 0 {
				return false
			}
			i = e
		case c == '?':
			k := bytes.IndexByte(b[i+1:], '>')
			if k < 0 {
				return false
			}
			i += 1 + k + 1
		default:
			i++ // a '<' that starts nothing: text
		}
	}
	p.cur = nil
	p.atEOF(nil)
	return true
}

// scanRaw skips the raw text of the element p.raw, which starts at b[i], to the '<' of its
// end tag ("</name" then whitespace, '/' or '>', in any case), handing a first title's text
// to the title as the tokenizer's Text would. false: the end tag never comes, or the text
// is one the tokenizer reads otherwise (see scan).
func (p *parser) scanRaw(b []byte, i int) (int, bool) {
	name := p.raw.String()
	start := i
	for {
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 {
			return 0, false
		}
		i += j
		k := i + 2 + len(name)
		if k >= len(b) {
			return 0, false
		}
		if b[i+1] == '/' && equalFoldASCII(b[i+2:k], name) && (isHTMLSpace(b[k]) || b[k] == '/' || b[k] == '>') {
			break
		}
		i++
	}
	text := b[start:i]
	switch p.raw {
	case atom.Script:
		if bytes.Contains(text, []byte("<!--")) {
			return 0, false
		}
	case atom.Title:
		if p.titles == 1 && len(text) > 0 {
			if bytes.IndexByte(text, '\r') >= 0 {
				return 0, false
			}
			if bytes.IndexByte(text, '&') >= 0 {
				text = []byte(html.UnescapeString(string(text)))
			}
			p.title.write(text)
		}
	}
	return i, true
}

// selfClosing tells, as the tokenizer does, whether the start tag raw closes itself
// ("<br/>", but not "<a href=/>"). Only the elements whose handling depends on it are
// asked, and only when the tag ends in "/>": the tokenizer reads those alone.
func (p *parser) selfClosing(raw []byte) bool {
	if len(raw) < 3 || raw[len(raw)-2] != '/' {
		return false
	}
	switch tagAtom(raw) {
	case atom.A, atom.Noscript, atom.Template, atom.Svg, atom.Math:
		return html.NewTokenizer(bytes.NewReader(raw)).Next() == html.SelfClosingTagToken
	}
	return false
}

// tagEnd returns the index just past the '>' that ends the tag whose name starts at b[i]
// (just after "<" or "</"), reading the name and the attributes as the tokenizer's readTag
// does (a quoted value may hold '>'); -1 when the document ends first.
func tagEnd(b []byte, i int) int {
	e, _ := tagEndID(b, i)
	return e
}

// tagEndID is tagEnd, and whether the tag has an attribute named id (in any case).
func tagEndID(b []byte, i int) (int, bool) {
	id := false
	n := len(b)
	// The name: to whitespace (consumed), '/' or '>'.
	for i++; ; i++ {
		if i >= n {
			return -1, false
		}
		if c := b[i]; isHTMLSpace(c) {
			i++
			break
		} else if c == '/' || c == '>' {
			break
		}
	}
	i = skipSpace(b, i)
	for {
		if i >= n {
			return -1, false
		}
		if b[i] == '>' {
			return i + 1, id
		}
		// The key: to '=' (unless first), whitespace, '/' or '>'.
		ks := i
		for ; ; i++ {
			if i >= n {
				return -1, false
			}
			c := b[i]
			if c == '=' && i == ks {
				continue
			}
			if c == '=' || c == '/' || c == '>' || isHTMLSpace(c) {
				break
			}
		}
		if i-ks == 2 && b[ks]|0x20 == 'i' && b[ks+1]|0x20 == 'd' {
			id = true
		}
		// The value.
		if i = skipSpace(b, i); i >= n {
			return -1, false
		}
		switch b[i] {
		case '/':
			i++
		case '=':
			if i = skipSpace(b, i+1); i >= n {
				return -1, false
			}
			switch q := b[i]; q {
			case '>':
			case '"', '\'':
				k := bytes.IndexByte(b[i+1:], q)
				if k < 0 {
					return -1, false
				}
				i += 1 + k + 1
			default:
				for ; ; i++ {
					if i >= n {
						return -1, false
					}
					if c := b[i]; isHTMLSpace(c) || c == '>' {
						break
					}
				}
			}
		}
		i = skipSpace(b, i)
	}
}

// commentEnd returns the index just past the end of a comment whose text starts at b[i]
// (after "<!--"), as the tokenizer's readComment finds it: "-->", "--!>", or '>' after
// nothing but dashes ("<!-->"); -1 when the document ends first.
func commentEnd(b []byte, i int) int {
	dashes, beginning := 0, true
	for i < len(b) {
		c := b[i]
		i++
		switch c {
		case '-':
			dashes++
			continue
		case '>':
			if dashes >= 2 || beginning {
				return i
			}
		case '!':
			if dashes >= 2 {
				if i >= len(b) {
					return -1
				}
				c = b[i]
				i++
				if c == '>' {
					return i
				}
				if c == '-' {
					dashes, beginning = 1, false
					continue
				}
			}
		}
		dashes, beginning = 0, false
	}
	return -1
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && isHTMLSpace(b[i]) {
		i++
	}
	return i
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// equalFoldASCII reports whether b is name (lower-case) in any letter case.
func equalFoldASCII(b []byte, name string) bool {
	if len(b) != len(name) {
		return false
	}
	for i := range b {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != name[i] {
			return false
		}
	}
	return true
}

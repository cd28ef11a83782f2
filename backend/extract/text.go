package extract

import (
	"bytes"
	"net/url"
	"unicode/utf8"
)

var spaceTable = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, '\f': true, '\v': true}

// isSpace reports whether c is ASCII whitespace.
func isSpace(c byte) bool { return spaceTable[c] }

func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

var replacementChar = []byte("\uFFFD")

// textBuf accumulates whitespace-collapsed, valid UTF-8 text up to max bytes.
type textBuf struct {
	b    []byte
	max  int
	sep  bool // a space is owed before the next word
	full bool // the cap was reached; further writes are ignored
}

func (t *textBuf) reset(max int) {
	t.b, t.max, t.sep, t.full = t.b[:0], max, false, false
}

// space separates the next word from the previous one.
func (t *textBuf) space() {
	if len(t.b) > 0 {
		t.sep = true
	}
}

// textClass marks ASCII whitespace (1) and 0xC2, the lead byte of U+00A0 (2).
var textClass = [256]uint8{' ': 1, '\t': 1, '\n': 1, '\r': 1, '\f': 1, '\v': 1, 0xc2: 2}

// write appends s, collapsing runs of whitespace (and no-break spaces) to one
// space and replacing invalid UTF-8 with U+FFFD.
func (t *textBuf) write(s []byte) {
	if t.full || len(s) == 0 {
		return
	}
	t.writeValid(validBytes(s))
}

// validBytes returns s, or a copy with invalid UTF-8 replaced by U+FFFD.
func validBytes(s []byte) []byte {
	if utf8.Valid(s) {
		return s
	}
	return bytes.ToValidUTF8(s, replacementChar)
}

// writeValid is write for valid UTF-8.
func (t *textBuf) writeValid(s []byte) {
	i := 0
	for i < len(s) && !t.full {
		// A run of whitespace.
		start := i
		for {
			for i < len(s) && textClass[s[i]] == 1 {
				i++
			}
			if i+1 < len(s) && s[i] == 0xc2 && s[i+1] == 0xa0 {
				i += 2
				continue
			}
			break
		}
		if i > start {
			t.space()
		}
		// Words joined by single spaces, copied as one run: anything up to
		// other whitespace or a no-break space.
		start = i
		for i < len(s) {
			switch textClass[s[i]] {
			case 0:
				i++
				continue
			case 1:
				if s[i] == ' ' && i+1 < len(s) && textClass[s[i+1]] == 0 {
					i += 2
					continue
				}
			case 2:
				if i+1 == len(s) || s[i+1] != 0xa0 {
					i++
					continue
				}
			}
			break
		}
		if i > start {
			t.word(s[start:i])
		}
	}
}

// word appends a run of words (valid UTF-8, single inner spaces, none at the
// ends), cutting it at a rune boundary if it would pass the cap.
func (t *textBuf) word(w []byte) {
	sep := 0
	if t.sep {
		sep = 1
	}
	if room := t.max - len(t.b) - sep; len(w) > room {
		cut := max(room, 0)
		for cut > 0 && !utf8.RuneStart(w[cut]) {
			cut--
		}
		w = bytes.TrimRight(w[:cut], " ")
		t.full = true
		if len(w) == 0 {
			return
		}
	}
	if sep == 1 {
		t.b = append(t.b, ' ')
		t.sep = false
	}
	t.b = append(t.b, w...)
}

// join appends s (already collapsed) after sep, within the cap.
func (t *textBuf) join(sep string, s []byte) {
	if t.full || len(s) == 0 {
		return
	}
	if len(t.b) > 0 {
		if len(t.b)+len(sep) >= t.max {
			t.full = true
			return
		}
		t.b = append(t.b, sep...)
	}
	t.sep = false
	t.word(s)
}

func (t *textBuf) String() string { return string(t.b) }

// Text summarises a text/plain document: Text is its whitespace-collapsed text
// (capped at MaxText) and Links are the bare http(s) URLs in it, of kind "text".
func Text(body []byte, pageURL *url.URL) *Summary { return Options{}.Text(body, pageURL) }

// Text summarises a text/plain document, as the package function does, with o's caps.
func (o Options) Text(body []byte, pageURL *url.URL) *Summary {
	p := parserPool.Get().(*parser)
	defer parserPool.Put(p)
	p.reset(pageURL, o.maxText())
	p.text.write(body)
	p.bareURLs(body)
	s := p.summary()
	s.Problems = nil // the HTML problems do not apply to plain text
	if p.text.full {
		s.Problems = []string{ProblemTruncated}
	}
	return s
}

// bareURLs records every "http://..." or "https://..." in body as a link.
func (p *parser) bareURLs(body []byte) {
	for len(body) > 0 && len(p.links) < MaxLinks {
		k := bytes.Index(body, []byte("://"))
		if k < 0 {
			return
		}
		start := -1
		if k >= 5 && bytes.EqualFold(body[k-5:k], []byte("https")) {
			start = k - 5
		} else if k >= 4 && bytes.EqualFold(body[k-4:k], []byte("http")) {
			start = k - 4
		}
		if start < 0 || start > 0 && isWordByte(body[start-1]) {
			body = body[k+3:]
			continue
		}
		end := k + 3
		for end < len(body) && end-start < MaxURL && !endsBareURL(body[end]) {
			end++
		}
		u := trimURLPunct(body[start:end])
		if len(u) > k-start+3 {
			p.addLink(u, KindText, "", nil)
		}
		body = body[end:]
	}
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// endsBareURL reports whether c cannot be part of a URL written in running text.
func endsBareURL(c byte) bool {
	switch c {
	case '<', '>', '"', '`', '{', '}', '|', '\\', '^':
		return true
	}
	return isSpace(c) || c < ' ' || c == 0x7f
}

// trimURLPunct drops sentence punctuation after a URL, and closing brackets that
// have no opening one inside it ("(see http://x/a)").
func trimURLPunct(u []byte) []byte {
	parens := bytes.Count(u, []byte("(")) - bytes.Count(u, []byte(")"))
	brackets := bytes.Count(u, []byte("[")) - bytes.Count(u, []byte("]"))
	for len(u) > 0 {
		switch u[len(u)-1] {
		case '.', ',', ';', ':', '!', '?', '\'', '*':
		case ')':
			if parens >= 0 {
				return u
			}
			parens++
		case ']':
			if brackets >= 0 {
				return u
			}
			brackets++
		default:
			return u
		}
		u = u[:len(u)-1]
	}
	return u
}

package sanitize

import (
	"strings"
	"unicode/utf8"
)

// The CSS scanner's reading of tokens, as CSS Syntax Level 3 defines them: names with their
// escapes, strings, unquoted url() arguments, comments, and the remnants of what is skipped
// (a bad url, an at-rule's prelude, a block).

func (c *cssScanner) peek(n int) byte {
	if c.i+n < len(c.src) {
		return c.src[c.i+n]
	}
	return 0
}

func (c *cssScanner) skipComment() {
	end := strings.Index(string(c.src[c.i+2:]), "*/")
	if end < 0 {
		c.i = len(c.src)
		return
	}
	c.i += 2 + end + 2
}

// validEscape reports whether a backslash at i starts an escape (not before a newline).
func (c *cssScanner) validEscape() bool {
	n := c.peek(1)
	return c.i+1 < len(c.src) && n != '\n' && n != '\r' && n != '\f'
}

func isNameByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-' || b >= 0x80
}

func isHex(b byte) bool { return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F' }

func isCSSSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' }

// escape reads the escape whose backslash is at i and returns the character it stands for.
func (c *cssScanner) escape() rune {
	c.i++ // the backslash
	if c.i >= len(c.src) {
		return utf8.RuneError
	}
	if isHex(c.src[c.i]) {
		var r rune
		n := 0
		for n < 6 && c.i < len(c.src) && isHex(c.src[c.i]) {
			r = r*16 + rune(hexVal(c.src[c.i]))
			c.i++
			n++
		}
		if c.i < len(c.src) && isCSSSpace(c.src[c.i]) {
			if c.src[c.i] == '\r' && c.peek(1) == '\n' {
				c.i++
			}
			c.i++
		}
		if r == 0 || r > utf8.MaxRune || r >= 0xd800 && r <= 0xdfff {
			return utf8.RuneError
		}
		return r
	}
	r, size := utf8.DecodeRune(c.src[c.i:])
	c.i += size
	return r
}

func hexVal(b byte) byte {
	switch {
	case b >= '0' && b <= '9':
		return b - '0'
	case b >= 'a' && b <= 'f':
		return b - 'a' + 10
	}
	return b - 'A' + 10
}

// readName reads a name (letters, digits, -, _, non-ASCII, escapes) from i and returns its
// value with the escapes undone, lower-cased when ASCII.
func (c *cssScanner) readName() string {
	var b strings.Builder
	for c.i < len(c.src) {
		ch := c.src[c.i]
		switch {
		case isNameByte(ch):
			if ch >= 'A' && ch <= 'Z' {
				ch += 'a' - 'A'
			}
			b.WriteByte(ch)
			c.i++
		case ch == '\\' && c.validEscape():
			r := c.escape()
			if r >= 'A' && r <= 'Z' {
				r += 'a' - 'A'
			}
			b.WriteRune(r)
		default:
			return b.String()
		}
		if b.Len() > 64 {
			// No name the scanner looks for is this long: read on without keeping it.
			for c.i < len(c.src) && (isNameByte(c.src[c.i]) || c.src[c.i] == '\\' && c.validEscape()) {
				if c.src[c.i] == '\\' {
					c.escape()
				} else {
					c.i++
				}
			}
			return "\x00long"
		}
	}
	return b.String()
}

// readString reads a quoted string from i; ok is false when a newline or the end of the
// input cut it short (a bad string).
func (c *cssScanner) readString() (val string, ok bool) {
	q := c.src[c.i]
	c.i++
	var b strings.Builder
	for c.i < len(c.src) {
		ch := c.src[c.i]
		switch {
		case ch == q:
			c.i++
			return b.String(), true
		case ch == '\n' || ch == '\r' || ch == '\f':
			return b.String(), false
		case ch == '\\':
			if c.i+1 >= len(c.src) {
				c.i++
				return b.String(), false
			}
			if n := c.src[c.i+1]; n == '\n' || n == '\r' || n == '\f' {
				c.i += 2 // an escaped newline continues the string
				continue
			}
			b.WriteRune(c.escape())
		default:
			b.WriteByte(ch)
			c.i++
		}
	}
	return b.String(), false
}

// unquotedURL reads url(...)'s unquoted argument and its closing parenthesis.
func (c *cssScanner) unquotedURL() (string, bool) {
	var b strings.Builder
	for c.i < len(c.src) {
		ch := c.src[c.i]
		switch {
		case ch == ')':
			c.i++
			return b.String(), false
		case isCSSSpace(ch):
			for c.i < len(c.src) && isCSSSpace(c.src[c.i]) {
				c.i++
			}
			if c.i < len(c.src) && c.src[c.i] == ')' {
				c.i++
				return b.String(), false
			}
			c.skipToClose()
			return "", true
		case ch == '"' || ch == '\'' || ch == '(' || ch < 0x20 || ch == 0x7f:
			c.skipToClose()
			return "", true
		case ch == '\\':
			if !c.validEscape() {
				c.skipToClose()
				return "", true
			}
			b.WriteRune(c.escape())
		default:
			b.WriteByte(ch)
			c.i++
		}
	}
	return b.String(), false // the input ended: the token ends there
}

// skipToClose consumes up to and with the ')' that closes the current function, skipping
// strings, escapes, comments and nested parentheses (a bad url's remnants).
func (c *cssScanner) skipToClose() {
	depth := 0
	for c.i < len(c.src) {
		switch ch := c.src[c.i]; {
		case ch == '/' && c.peek(1) == '*':
			c.skipComment()
		case ch == '"' || ch == '\'':
			c.readString() // a bad string's newline is skipped next
		case ch == '\\':
			if c.validEscape() {
				c.escape()
			} else {
				c.i++
			}
		case ch == '(':
			depth++
			c.i++
		case ch == ')':
			c.i++
			if depth == 0 {
				return
			}
			depth--
		default:
			c.i++
		}
	}
}

// skipPrelude consumes an at-rule's prelude up to and with its ';' (or a block it wrongly
// has, which ends it too), returning the prelude's bytes.
func (c *cssScanner) skipPrelude() []byte {
	start := c.i
	for c.i < len(c.src) {
		switch ch := c.src[c.i]; {
		case ch == ';':
			p := c.src[start:c.i]
			c.i++
			return p
		case ch == '{':
			p := c.src[start:c.i]
			c.skipBlock()
			return p
		case ch == '/' && c.peek(1) == '*':
			c.skipComment()
		case ch == '"' || ch == '\'':
			c.readString()
		case ch == '(':
			c.i++
			c.skipToClose()
		case ch == '\\':
			if c.validEscape() {
				c.escape()
			} else {
				c.i++
			}
		default:
			c.i++
		}
	}
	return c.src[start:]
}

// skipBlock consumes a {} block with everything nested in it.
func (c *cssScanner) skipBlock() {
	depth := 0
	for c.i < len(c.src) {
		switch ch := c.src[c.i]; {
		case ch == '{':
			depth++
			c.i++
		case ch == '}':
			c.i++
			if depth--; depth <= 0 {
				return
			}
		case ch == '"' || ch == '\'':
			c.readString()
		case ch == '/' && c.peek(1) == '*':
			c.skipComment()
		case ch == '\\':
			if c.validEscape() {
				c.escape()
			} else {
				c.i++
			}
		default:
			c.i++
		}
	}
}

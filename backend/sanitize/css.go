package sanitize

import (
	"net/url"
	"strings"
)

// Style sheets of a crawled page are hostile text like the rest of it. What an offline copy
// keeps of them passes through RewriteCSS, which reads CSS the way the CSS Syntax spec
// tokenizes it (comments, strings, escapes, url() and its unquoted form, functions, blocks)
// to find everything that names another resource:
//
//   - url(...), src("..."), and the strings of image-set(), -webkit-image-set() and image():
//     replaced by what the caller returns for the absolute URL (a data: URL of the stored
//     body, or the relative name of a file beside it), or by none when it returns "";
//   - @import: replaced by what the caller returns (the imported sheet, rewritten in turn),
//     or dropped;
//   - @charset is dropped (the text is UTF-8 by then).
//
// Whatever the input, the output holds no '<' (each is written as the escape \3c ), so it
// can neither end the <style> element it is put in nor open markup; and it names no URL
// the caller did not return. Comments are dropped. The Content-Security-Policy of the
// document it lands in forbids every network load anyway: this rewriting is what makes the
// copy look like the page, the policy what keeps it inert if the rewriting missed a case.

// AssetKind says what a page or a style sheet refers to.
type AssetKind uint8

// Kinds of assets.
const (
	AssetImage      AssetKind = iota + 1 // an image: <img>, background, list-style, cursor, ...
	AssetFont                            // a font: url() inside @font-face
	AssetStylesheet                      // a style sheet: <link rel=stylesheet>, @import
)

func (k AssetKind) String() string {
	switch k {
	case AssetImage:
		return "image"
	case AssetFont:
		return "font"
	case AssetStylesheet:
		return "stylesheet"
	}
	return "unknown"
}

// Ref is a resource a page or a style sheet refers to.
type Ref struct {
	URL  *url.URL // absolute http(s), without fragment
	Kind AssetKind
}

// CSSRewrite says what replaces the references of a style sheet. Either function may be nil
// (every reference of that kind is dropped).
type CSSRewrite struct {
	// Asset returns what replaces url(u): "" drops it.
	Asset func(u *url.URL, kind AssetKind) string
	// Import returns the CSS that replaces "@import u media;" (already rewritten; media is
	// the rule's media query list, checked to be plain): "" drops the rule.
	Import func(u *url.URL, media string) string
}

// maxCSSNesting bounds the parentheses and blocks RewriteCSS tracks; deeper input is still
// copied, but no longer told apart.
const maxCSSNesting = 256

// RewriteCSS rewrites a style sheet (or a style attribute's declarations) found at base, as
// the package comment says.
func RewriteCSS(css []byte, base *url.URL, rw CSSRewrite) string {
	c := cssScanner{src: css, base: base, rw: rw}
	c.out.Grow(len(css) + len(css)/8)
	c.run()
	return c.out.String()
}

// CSSRefs lists the resources a style sheet refers to (its imports first, as found), each once.
func CSSRefs(css []byte, base *url.URL) []Ref {
	var refs []Ref
	seen := map[string]bool{}
	add := func(u *url.URL, k AssetKind) {
		if key := k.String() + " " + u.String(); !seen[key] {
			seen[key] = true
			refs = append(refs, Ref{URL: u, Kind: k})
		}
	}
	RewriteCSS(css, base, CSSRewrite{
		Asset:  func(u *url.URL, k AssetKind) string { add(u, k); return "" },
		Import: func(u *url.URL, _ string) string { add(u, AssetStylesheet); return "" },
	})
	return refs
}

type cssScanner struct {
	src  []byte
	i    int
	base *url.URL
	rw   CSSRewrite
	out  strings.Builder

	depth      int      // open { blocks
	fontDepth  int      // the depth of the open @font-face block (0: none)
	pendFont   bool     // an @font-face prelude is being read
	funcs      []string // the open functions' names ("" for a bare parenthesis)
	overNested int      // parentheses beyond maxCSSNesting
}

func (c *cssScanner) run() {
	for c.i < len(c.src) {
		b := c.src[c.i]
		switch {
		case b == '/' && c.peek(1) == '*':
			c.skipComment()
			c.out.WriteByte(' ')
		case b == '"' || b == '\'':
			start := c.i
			val, _ := c.readString()
			if c.inURLFunc() {
				c.writeURL(val)
			} else {
				c.writeRaw(c.src[start:c.i])
			}
		case b == '@':
			c.atRule()
		case b == '\\' && c.validEscape() || isNameByte(b) || b == '-':
			c.word()
		case b == '(':
			c.open("")
			c.out.WriteByte('(')
			c.i++
		case b == ')':
			c.close()
			c.out.WriteByte(')')
			c.i++
		case b == '{':
			if c.depth < maxCSSNesting {
				c.depth++
				if c.pendFont {
					c.fontDepth, c.pendFont = c.depth, false
				}
			}
			c.out.WriteByte('{')
			c.i++
		case b == '}':
			if c.depth > 0 {
				if c.depth == c.fontDepth {
					c.fontDepth = 0
				}
				c.depth--
			}
			c.pendFont = false
			c.funcs, c.overNested = c.funcs[:0], 0 // a block's end closes what it left open
			c.out.WriteByte('}')
			c.i++
		case b == ';':
			if c.depth == 0 {
				c.pendFont = false
			}
			c.out.WriteByte(';')
			c.i++
		default:
			c.writeRaw(c.src[c.i : c.i+1])
			c.i++
		}
	}
}

func (c *cssScanner) open(name string) {
	if len(c.funcs) >= maxCSSNesting {
		c.overNested++
		return
	}
	c.funcs = append(c.funcs, name)
}

func (c *cssScanner) close() {
	switch {
	case c.overNested > 0:
		c.overNested--
	case len(c.funcs) > 0:
		c.funcs = c.funcs[:len(c.funcs)-1]
	}
}

// inURLFunc reports whether a string here is a URL: directly inside image-set() or image().
func (c *cssScanner) inURLFunc() bool {
	if c.overNested > 0 || len(c.funcs) == 0 {
		return false
	}
	switch c.funcs[len(c.funcs)-1] {
	case "image-set", "-webkit-image-set", "image":
		return true
	}
	return false
}

func (c *cssScanner) kind() AssetKind {
	if c.fontDepth > 0 {
		return AssetFont
	}
	return AssetImage
}

// word copies an identifier, number or function name; url( and src( take their URL.
func (c *cssScanner) word() {
	start := c.i
	name := c.readName()
	if c.i == start {
		// A lone '-' or an escape that is none: copy one byte.
		c.writeRaw(c.src[c.i : c.i+1])
		c.i++
		return
	}
	if c.i < len(c.src) && c.src[c.i] == '(' {
		switch name {
		case "url":
			c.i++
			c.urlFunc(true)
			return
		case "src":
			c.i++
			c.urlFunc(false)
			return
		}
		c.writeRaw(c.src[start:c.i])
		c.out.WriteByte('(')
		c.i++
		c.open(name)
		return
	}
	c.writeRaw(c.src[start:c.i])
}

// urlFunc reads the argument of url( (unquoted allowed) or src( (a string only) after its
// parenthesis, up to and with the closing one, and writes its replacement.
func (c *cssScanner) urlFunc(unquoted bool) {
	for c.i < len(c.src) && isCSSSpace(c.src[c.i]) {
		c.i++
	}
	var val string
	bad := false
	if c.i < len(c.src) && (c.src[c.i] == '"' || c.src[c.i] == '\'') {
		var ok bool
		val, ok = c.readString()
		bad = !ok
		c.skipToClose() // url modifiers, if any, and the parenthesis
	} else if unquoted {
		val, bad = c.unquotedURL()
	} else {
		bad = true
		c.skipToClose()
	}
	if bad {
		c.out.WriteString("none")
		return
	}
	c.writeURL(val)
}

// resolve makes a URL found in the sheet absolute: only http(s) counts (data: URLs and the
// like are dropped too: the page's own resources are the workspace's business).
func (c *cssScanner) resolve(val string) *url.URL {
	val = strings.TrimSpace(val)
	if val == "" || strings.HasPrefix(val, "#") || len(val) > 8192 {
		return nil
	}
	var u *url.URL
	var err error
	if c.base != nil {
		u, err = c.base.Parse(val)
	} else {
		u, err = url.Parse(val)
	}
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil
	}
	u.Fragment, u.RawFragment = "", ""
	return u
}

func (c *cssScanner) writeURL(val string) {
	ref := ""
	if inlineData(val) {
		// An image or a font the sheet carries itself: it loads nothing.
		ref = strings.TrimSpace(val)
	} else if u := c.resolve(val); u != nil && c.rw.Asset != nil {
		ref = c.rw.Asset(u, c.kind())
	}
	if ref == "" {
		c.out.WriteString("none")
		return
	}
	c.out.WriteString(`url("`)
	writeCSSString(&c.out, ref)
	c.out.WriteString(`")`)
}

// inlineData reports whether a URL is a data: URL of an image or a font (which a style
// sheet may keep: the document's policy lets data: images and fonts load, and an image,
// SVG included, runs no script).
func inlineData(val string) bool {
	v := strings.ToLower(strings.TrimSpace(val))
	if !strings.HasPrefix(v, "data:") || len(v) > 1<<20 {
		return false
	}
	for _, p := range []string{"data:image/", "data:font/", "data:application/font-", "data:application/x-font-"} {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return false
}

// writeCSSString writes s as the inside of a double-quoted CSS string.
func writeCSSString(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; ch {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(ch)
		case '<':
			b.WriteString(`\3c `)
		case '\n', '\r', '\f':
			b.WriteString(`\a `)
		default:
			b.WriteByte(ch)
		}
	}
}

// writeRaw copies input bytes, writing each '<' as an escape (one already escaped, \<, as
// the escape's code point).
func (c *cssScanner) writeRaw(p []byte) {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '<':
			c.out.WriteString(`\3c `)
		case '\\':
			if i+1 < len(p) && p[i+1] == '<' {
				c.out.WriteString(`\3c `)
				i++
				continue
			}
			c.out.WriteByte('\\')
			if i+1 < len(p) {
				// Copy the escaped byte with its backslash, so that a "\\<" pair stays a
				// backslash followed by an escaped '<'.
				i++
				if p[i] == '<' {
					c.out.WriteString(`\3c `)
				} else {
					c.out.WriteByte(p[i])
				}
			}
		default:
			c.out.WriteByte(p[i])
		}
	}
}

// atRule handles an at-keyword: @import and @charset are rewritten, @font-face marks its
// block's URLs as fonts, the others are copied.
func (c *cssScanner) atRule() {
	start := c.i
	c.i++
	name := c.readName()
	switch {
	case name == "import" && c.depth == 0:
		c.importRule()
	case name == "charset" && c.depth == 0:
		c.skipPrelude()
	default:
		if name == "font-face" {
			c.pendFont = true
		}
		c.writeRaw(c.src[start:c.i])
	}
}

// importRule reads "@import <url> <media>;" after its keyword and writes what replaces it.
func (c *cssScanner) importRule() {
	prelude := c.skipPrelude()
	sub := cssScanner{src: prelude}
	for sub.i < len(sub.src) && isCSSSpace(sub.src[sub.i]) {
		sub.i++
	}
	var val string
	switch {
	case sub.i < len(sub.src) && (sub.src[sub.i] == '"' || sub.src[sub.i] == '\''):
		v, ok := sub.readString()
		if !ok {
			return
		}
		val = v
	default:
		name := sub.readName()
		if name != "url" || sub.i >= len(sub.src) || sub.src[sub.i] != '(' {
			return
		}
		sub.i++
		for sub.i < len(sub.src) && isCSSSpace(sub.src[sub.i]) {
			sub.i++
		}
		if sub.i < len(sub.src) && (sub.src[sub.i] == '"' || sub.src[sub.i] == '\'') {
			v, ok := sub.readString()
			if !ok {
				return
			}
			val = v
			sub.skipToClose()
		} else {
			v, bad := sub.unquotedURL()
			if bad {
				return
			}
			val = v
		}
	}
	media := strings.TrimSpace(string(sub.src[sub.i:]))
	if !plainMedia(media) {
		return // layer(), supports() or anything this reader does not know: left out
	}
	u := c.resolve(val)
	if u == nil || c.rw.Import == nil {
		return
	}
	if css := c.rw.Import(u, media); css != "" {
		c.writeRaw([]byte(css))
	}
}

// plainMedia reports whether a media query list is made of the plain characters media
// queries use (so it can be written into a @media rule or a media attribute as it is).
func plainMedia(m string) bool {
	if l := strings.ToLower(m); len(m) > 256 || strings.Contains(l, "layer") || strings.Contains(l, "supports") {
		return false // cascade layers and feature queries are no media queries
	}
	for i := 0; i < len(m); i++ {
		ch := m[i]
		if !(isNameByte(ch) && ch < 0x80 || ch == ' ' || ch == ',' || ch == '(' || ch == ')' || ch == ':' || ch == '.' || ch == '/') {
			return false
		}
	}
	return true
}

// PlainMedia reports whether a media attribute or an @import's media list is plain enough
// to be kept (letters, digits, spaces, commas, parentheses, colons, dots, slashes).
func PlainMedia(m string) bool { return plainMedia(strings.TrimSpace(m)) }

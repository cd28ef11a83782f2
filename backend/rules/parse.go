package rules

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits on rule text, so that hostile text costs bounded time and memory.
const (
	MaxText  = 64 << 10 // bytes of rule text
	maxDepth = 64       // nesting of combinations
)

// Error is a syntax error in rule text, at a line and column.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrSyntax is matched by every *Error (errors.Is(err, rules.ErrSyntax)).
var ErrSyntax = errors.New("rule syntax error")

// Is makes errors.Is(err, ErrSyntax) hold.
func (e *Error) Is(target error) bool { return target == ErrSyntax }

// Parse reads rule text: rules separated by white space, `#` comments to the end of a line.
func Parse(text string) (*Set, error) {
	return (&parser{src: text, line: 1, col: 1}).parse()
}

func (p *parser) parse() (*Set, error) {
	text := p.src
	if len(text) > MaxText {
		return nil, &Error{Pos{1, 1}, fmt.Sprintf("rule text is longer than %d KiB", MaxText>>10)}
	}
	if !utf8.ValidString(text) {
		return nil, &Error{Pos{1, 1}, "rule text is not valid UTF-8"}
	}
	set := &Set{}
	for {
		p.space()
		if p.eof() {
			return set, nil
		}
		if p.peek() == '{' && p.keywordAhead() == "LOCAL" {
			l, err := p.local()
			if err != nil {
				return nil, err
			}
			if len(set.Locals) == MaxLocals {
				return nil, &Error{l.Pos, fmt.Sprintf("more than %d LOCAL blocks", MaxLocals)}
			}
			set.Locals = append(set.Locals, l)
			continue
		}
		n, err := p.rule(0)
		if err != nil {
			return nil, err
		}
		set.Rules = append(set.Rules, n)
	}
}

// MustParse is Parse for rules known to be valid (tests, constants); it panics on an error.
func MustParse(text string) *Set {
	s, err := Parse(text)
	if err != nil {
		panic(err)
	}
	return s
}

type parser struct {
	src       string
	off       int
	line, col int
	spans     []Span // what each stretch of the text is, for highlighting
}

// mark records that the text from start to the current offset is of a kind.
func (p *parser) mark(kind SpanKind, start int) {
	if p.off > start {
		p.spans = append(p.spans, Span{Kind: kind, Start: start, End: p.off})
	}
}

func (p *parser) eof() bool  { return p.off >= len(p.src) }
func (p *parser) pos() Pos   { return Pos{p.line, p.col} }
func (p *parser) peek() rune { r, _ := utf8.DecodeRuneInString(p.src[p.off:]); return r }

func (p *parser) next() rune {
	r, n := utf8.DecodeRuneInString(p.src[p.off:])
	p.off += n
	if r == '\n' {
		p.line++
		p.col = 1
	} else {
		p.col++
	}
	return r
}

func (p *parser) errorf(at Pos, format string, args ...any) error {
	return &Error{at, fmt.Sprintf(format, args...)}
}

// space skips white space and comments.
func (p *parser) space() {
	for !p.eof() {
		switch r := p.peek(); {
		case unicode.IsSpace(r):
			p.next()
		case r == '#':
			start := p.off
			for !p.eof() && p.peek() != '\n' {
				p.next()
			}
			p.mark(SpanComment, start)
		default:
			return
		}
	}
}

// keywordAhead returns the word after the '{' at the current offset, upper-cased.
func (p *parser) keywordAhead() string {
	s := p.src[p.off+1:]
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	end := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		end = len(s)
	}
	return strings.ToUpper(s[:end])
}

func (p *parser) rule(depth int) (Node, error) {
	at := p.pos()
	switch r := p.peek(); r {
	case '{':
		return p.op(depth)
	case '*', '+', '-', '?':
		return p.atom()
	case '}':
		return nil, p.errorf(at, "unexpected '}'")
	default:
		return nil, p.errorf(at, "expected a rule: an atom such as +url:*.example.org/* (category * + - or ?, a field, ':' and a pattern) or {AND|OR|NOT ...}")
	}
}

func (p *parser) op(depth int) (Node, error) {
	at := p.pos()
	if depth >= maxDepth {
		return nil, p.errorf(at, "rules nested more than %d deep", maxDepth)
	}
	start := p.off
	p.next() // {
	p.mark(SpanPunct, start)
	p.space()
	kat := p.pos()
	wstart := p.off
	word := p.word()
	p.mark(SpanKeyword, wstart)
	var kind OpKind
	switch strings.ToUpper(word) {
	case "AND":
		kind = And
	case "OR":
		kind = Or
	case "NOT":
		kind = Not
	case "LOCAL":
		return nil, p.errorf(kat, "LOCAL blocks are allowed only at the top level")
	case "":
		return nil, p.errorf(kat, "expected AND, OR or NOT after '{'")
	default:
		return nil, p.errorf(kat, "unknown combination %q: expected AND, OR or NOT", word)
	}
	o := &Op{Kind: kind, Pos: at}
	for {
		p.space()
		if p.eof() {
			return nil, p.errorf(p.pos(), "missing '}' to close the {%s started at %s", kind, at)
		}
		if p.peek() == '}' {
			end := p.pos()
			p.next()
			p.mark(SpanPunct, p.off-1)
			switch {
			case len(o.Args) == 0:
				return nil, p.errorf(end, "{%s} needs at least one rule", kind)
			case kind == Not && len(o.Args) > 2:
				return nil, p.errorf(o.Args[2].Position(), "{NOT r1 r2} takes one or two rules: the elements of r1 not returned by r2")
			}
			return o, nil
		}
		n, err := p.rule(depth + 1)
		if err != nil {
			return nil, err
		}
		o.Args = append(o.Args, n)
	}
}

func (p *parser) local() (*Local, error) {
	at := p.pos()
	start := p.off
	p.next() // {
	p.mark(SpanPunct, p.off-1)
	p.space()
	wstart := p.off
	p.word() // LOCAL
	p.mark(SpanKeyword, wstart)
	p.space()
	l := &Local{Pos: at, Start: start}
	if p.eof() {
		return nil, p.errorf(p.pos(), "expected a selector such as url:http://example.org/docs/* after LOCAL")
	}
	if c := p.peek(); c == '*' || c == '+' || c == '-' || c == '?' {
		return nil, p.errorf(p.pos(), "a LOCAL selector has no category: write url:PATTERN, then the local rules")
	}
	fat := p.pos()
	f, pat, err := p.fieldPattern()
	if err != nil {
		return nil, err
	}
	if f.Stage != BeforeFetch {
		return nil, p.errorf(fat, "a LOCAL selector must use a field known before the fetch (%s)", strings.Join(FieldNames(BeforeFetch), ", "))
	}
	l.Field, l.Pat = f, pat
	for {
		p.space()
		if p.eof() {
			return nil, p.errorf(p.pos(), "missing '}' to close the {LOCAL started at %s", at)
		}
		if p.peek() == '}' {
			p.next()
			p.mark(SpanPunct, p.off-1)
			l.End = p.off
			return l, nil
		}
		n, err := p.rule(1)
		if err != nil {
			return nil, err
		}
		l.Rules = append(l.Rules, n)
	}
}

// word reads letters.
func (p *parser) word() string {
	start := p.off
	for !p.eof() && unicode.IsLetter(p.peek()) {
		p.next()
	}
	return p.src[start:p.off]
}

func (p *parser) atom() (Node, error) {
	at, start := p.pos(), p.off
	cat := Category(p.next())
	p.mark(SpanCategory, start)
	for !p.eof() && (p.peek() == ' ' || p.peek() == '\t') {
		p.next()
	}
	f, pat, err := p.fieldPattern()
	if err != nil {
		return nil, err
	}
	return &Atom{Cat: cat, Field: f, Pat: pat, Pos: at, Start: start, End: p.off}, nil
}

func isFieldRune(r rune) bool {
	return r < utf8.RuneSelf && (r == '_' || r == '-' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r))
}

// fieldPattern reads FIELD:PATTERN.
func (p *parser) fieldPattern() (*Field, Pattern, error) {
	fat := p.pos()
	start := p.off
	for !p.eof() && isFieldRune(p.peek()) {
		p.next()
	}
	name := strings.ToLower(p.src[start:p.off])
	p.mark(SpanField, start)
	if name == "" {
		return nil, Pattern{}, p.errorf(fat, "expected a field name (%s)", strings.Join(FieldNames(-1), ", "))
	}
	f := FieldNamed(name)
	if f == nil {
		return nil, Pattern{}, p.errorf(fat, "unknown field %q (fields: %s)", name, strings.Join(FieldNames(-1), ", "))
	}
	for !p.eof() && (p.peek() == ' ' || p.peek() == '\t') {
		p.next()
	}
	if p.eof() || p.peek() != ':' {
		return nil, Pattern{}, p.errorf(p.pos(), "expected ':' between the field %q and its pattern", name)
	}
	p.next()
	p.mark(SpanPunct, p.off-1)
	pat, err := p.pattern(f)
	return f, pat, err
}

// pattern reads a pattern right after the ':': "quoted", /regex/ or a bare glob that ends
// at white space or a brace. A backslash escapes the next character.
func (p *parser) pattern(f *Field) (Pattern, error) {
	at := p.pos()
	if p.eof() || unicode.IsSpace(p.peek()) || p.peek() == '}' || p.peek() == '{' {
		return Pattern{}, p.errorf(at, "expected a pattern right after ':' (quote it to include spaces: \"a b*\"; \"\" matches an empty field)")
	}
	switch p.peek() {
	case '"':
		qstart := p.off
		p.next()
		start := p.off
		for {
			if p.eof() {
				return Pattern{}, p.errorf(at, "unterminated quoted pattern")
			}
			switch p.next() {
			case '\\':
				if !p.eof() {
					p.next()
				}
			case '"':
				src := p.src[start : p.off-1]
				p.mark(SpanGlob, qstart)
				return compileGlobPattern(src, at)
			}
		}
	case '/':
		if src, end, ok := regexAhead(p.src[p.off:]); ok {
			rstart := p.off
			for stop := p.off + end; p.off < stop; {
				p.next()
			}
			p.mark(SpanRegex, rstart)
			re, err := regexp.Compile(src)
			if err != nil {
				return Pattern{}, p.errorf(at, "bad regular expression /%s/: %s", src, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
			}
			return Pattern{Kind: Regex, Src: src, re: re}, nil
		}
	}
	start := p.off
	for !p.eof() {
		r := p.peek()
		if unicode.IsSpace(r) || r == '{' || r == '}' {
			break
		}
		p.next()
		if r == '\\' && !p.eof() {
			p.next()
		}
	}
	src := p.src[start:p.off]
	if f.Numeric {
		if op, n, ok := comparison(src); ok {
			p.mark(SpanCompare, start)
			return Pattern{Kind: Compare, Src: op + strconv.FormatInt(n, 10), op: op, n: n}, nil
		}
	}
	p.mark(SpanGlob, start)
	return compileGlobPattern(src, at)
}

// regexAhead reports whether s starts with a /regex/ that ends where a pattern may end; it
// returns the regex source and the offset in s just past the closing slash.
func regexAhead(s string) (src string, end int, ok bool) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\n':
			return "", 0, false
		case '/':
			if i == 1 {
				return "", 0, false // "//": not a regex
			}
			if i+1 < len(s) {
				r, _ := utf8.DecodeRuneInString(s[i+1:])
				if !unicode.IsSpace(r) && r != '}' {
					return "", 0, false // /docs/* is a glob
				}
			}
			return s[1:i], i + 1, true
		}
	}
	return "", 0, false
}

func comparison(src string) (op string, n int64, ok bool) {
	for _, o := range []string{"<=", ">=", "<", ">"} {
		if rest, found := strings.CutPrefix(src, o); found {
			v, err := strconv.ParseInt(rest, 10, 64)
			if err != nil || rest == "" || rest[0] == '+' || rest[0] == '-' {
				return "", 0, false
			}
			return o, v, true
		}
	}
	return "", 0, false
}

func compileGlobPattern(src string, at Pos) (Pattern, error) {
	g, err := compileGlob(src)
	if err != nil {
		return Pattern{}, &Error{at, err.Error()}
	}
	return Pattern{Kind: Glob, Src: src, glob: g}, nil
}

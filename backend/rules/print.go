package rules

import (
	"strings"
	"unicode"
)

// String prints the set in canonical form: one top-level rule per line, then the LOCAL
// blocks. Parse(s.String()) gives back the same rules.
func (s *Set) String() string {
	var b strings.Builder
	for _, n := range s.Rules {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(n.String())
	}
	for _, l := range s.Locals {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.String())
	}
	return b.String()
}

func (a *Atom) String() string {
	return string(a.Cat) + a.Field.Name + ":" + a.Pat.format(a.Field)
}

func (o *Op) String() string {
	var b strings.Builder
	b.WriteByte('{')
	b.WriteString(string(o.Kind))
	for _, n := range o.Args {
		b.WriteByte(' ')
		b.WriteString(n.String())
	}
	b.WriteByte('}')
	return b.String()
}

func (l *Local) String() string {
	var b strings.Builder
	b.WriteString("{LOCAL ")
	b.WriteString(l.Selector())
	for _, n := range l.Rules {
		b.WriteByte(' ')
		b.WriteString(n.String())
	}
	b.WriteByte('}')
	return b.String()
}

// Selector is the block's selector in canonical form (url:PATTERN).
func (l *Local) Selector() string { return l.Field.Name + ":" + l.Pat.format(l.Field) }

// format writes a pattern so that it reads back as the same pattern for field f.
func (p Pattern) format(f *Field) string {
	switch p.Kind {
	case Regex:
		return "/" + p.Src + "/"
	case Compare:
		return p.Src
	}
	if !globNeedsQuotes(p.Src, f) {
		return p.Src
	}
	// Quote, escaping the double quotes the source has bare (a backslash already escapes
	// the next character in both forms).
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p.Src); i++ {
		c := p.Src[i]
		switch {
		case c == '\\' && i+1 < len(p.Src):
			b.WriteByte(c)
			i++
			b.WriteByte(p.Src[i])
			continue
		case c == '"':
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	b.WriteByte('"')
	return b.String()
}

// globNeedsQuotes reports whether a glob source would not read back bare as itself.
func globNeedsQuotes(src string, f *Field) bool {
	if src == "" || src[0] == '"' {
		return true
	}
	if _, _, ok := regexAhead(src + " "); ok && src[0] == '/' {
		return true
	}
	if f != nil && f.Numeric {
		if _, _, ok := comparison(src); ok {
			return true
		}
	}
	escaped := false
	for _, r := range src {
		switch {
		case escaped:
			escaped = false
			if unicode.IsSpace(r) {
				return true // print "a b" rather than a\ b
			}
		case r == '\\':
			escaped = true
		case unicode.IsSpace(r), r == '{', r == '}':
			return true
		}
	}
	return false
}

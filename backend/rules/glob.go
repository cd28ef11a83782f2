package rules

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// glob is a compiled glob pattern as the paper defines it: `*` matches any run of
// characters, `?` exactly one, anything else itself (a backslash makes `*`, `?` or `\` a
// plain character), and the pattern must match the whole value: `*.mit.edu` does not match
// http://web.mit.edu/, `*.mit.edu/*` does. Matching ignores case.
//
// A pattern is split at its stars into segments; the first must match at the start, the
// last at the end, and each one between at its leftmost place after the previous one (the
// leftmost place never loses a match), so matching takes time linear in the value for
// each segment.
type glob struct {
	segs  []segment // len(segs) == stars + 1
	exact bool      // no star: the single segment is the whole value
}

// segment is a run of literal characters and `?` wildcards (lower-cased).
type segment struct {
	lit    string // the literal text when the segment has no '?'
	parts  []string
	anys   []int // parts[i] is preceded by anys[i] `?` wildcards
	runes  int   // characters the segment matches
	simple bool  // no '?'
}

func compileGlob(src string) (*glob, error) {
	var segs []segment
	var cur strings.Builder
	var parts []string
	var anys []int
	pending := 0
	runes := 0
	flush := func() {
		parts = append(parts, strings.ToLower(cur.String()))
		anys = append(anys, pending)
		cur.Reset()
		pending = 0
	}
	endSeg := func() {
		flush()
		s := segment{parts: parts, anys: anys, runes: runes, simple: true}
		for _, a := range anys {
			if a > 0 {
				s.simple = false
			}
		}
		if s.simple {
			s.lit = strings.Join(parts, "")
		}
		segs = append(segs, s)
		parts, anys, runes = nil, nil, 0
	}
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRuneInString(src[i:])
		i += n
		switch r {
		case '\\':
			if i >= len(src) {
				return nil, errors.New("pattern ends with a lone backslash")
			}
			r, n = utf8.DecodeRuneInString(src[i:])
			i += n
			cur.WriteRune(r)
			runes++
		case '*':
			endSeg()
		case '?':
			flush()
			pending = 1
			// several ? in a row add up
			for i < len(src) && src[i] == '?' {
				i++
				pending++
			}
			runes += pending
		default:
			cur.WriteRune(r)
			runes++
		}
	}
	endSeg()
	g := &glob{segs: segs, exact: len(segs) == 1}
	return g, nil
}

// match reports whether the lower-cased value s matches the whole pattern.
func (g *glob) match(s string) bool {
	if g.exact {
		end, ok := g.segs[0].matchAt(s, 0)
		return ok && end == len(s)
	}
	first, last := g.segs[0], g.segs[len(g.segs)-1]
	pos, ok := first.matchAt(s, 0)
	if !ok {
		return false
	}
	for _, seg := range g.segs[1 : len(g.segs)-1] {
		_, end, ok := seg.find(s, pos)
		if !ok {
			return false
		}
		pos = end
	}
	// The last segment matches at the end, after pos.
	start, ok := last.startForEnd(s)
	if !ok || start < pos {
		return false
	}
	end, ok := last.matchAt(s, start)
	return ok && end == len(s)
}

// matchAt matches the segment at byte offset i of s and returns the offset just past it.
func (g segment) matchAt(s string, i int) (int, bool) {
	if g.simple {
		if strings.HasPrefix(s[i:], g.lit) {
			return i + len(g.lit), true
		}
		return 0, false
	}
	for k, part := range g.parts {
		for range g.anys[k] {
			if i >= len(s) {
				return 0, false
			}
			_, n := utf8.DecodeRuneInString(s[i:])
			i += n
		}
		if !strings.HasPrefix(s[i:], part) {
			return 0, false
		}
		i += len(part)
	}
	return i, true
}

// find returns the leftmost match of the segment in s at or after from.
func (g segment) find(s string, from int) (start, end int, ok bool) {
	if g.simple {
		j := strings.Index(s[from:], g.lit)
		if j < 0 {
			return 0, 0, false
		}
		return from + j, from + j + len(g.lit), true
	}
	for i := from; i <= len(s); {
		if e, ok := g.matchAt(s, i); ok {
			return i, e, true
		}
		if i == len(s) {
			break
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
	}
	return 0, 0, false
}

// startForEnd is the offset where the segment must start to end exactly at the end of s.
func (g segment) startForEnd(s string) (int, bool) {
	if g.simple {
		if len(g.lit) > len(s) {
			return 0, false
		}
		return len(s) - len(g.lit), true
	}
	// Walk back over the segment's characters: parts are fixed text, wildcards one rune each.
	i := len(s)
	for k := len(g.parts) - 1; k >= 0; k-- {
		i -= len(g.parts[k])
		if i < 0 {
			return 0, false
		}
		for range g.anys[k] {
			if i <= 0 {
				return 0, false
			}
			_, n := utf8.DecodeLastRuneInString(s[:i])
			i -= n
		}
	}
	return i, true
}

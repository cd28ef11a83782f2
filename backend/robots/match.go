package robots

import (
	"sort"
	"strings"
	"time"
)

// Matching follows RFC 9309 2.2.2 and 2.2.3: a rule matches a path when its pattern matches
// a prefix of the path ("*" matching any run of octets, a final "$" the end of the path);
// the matching rule with the most octets wins, and Allow wins between equally long rules.
//
// This replaces github.com/temoto/robotstxt's matcher, which compiles a wildcard rule into a
// regular expression and then weighs it by the length of that expression rather than of the
// rule: "Disallow: /*.html" (7 octets) outweighed "Allow: /x/page." (8) for /x/page.html.

// compiled is the part of one robots.txt that applies to us, ready to match.
type compiled struct {
	rules      matcher
	crawlDelay time.Duration
	sitemaps   []string
	cost       int // approximate heap bytes, for the memory bound
}

// pattern is one rule, split at its wildcards.
type pattern struct {
	allow  bool
	length int      // octets of the rule as written in canonical form, "*" and "$" included
	parts  []string // the literal runs between "*"s (the first one anchored at the start)
	end    bool     // a final "$": the last part must end the path
	query  bool     // the rule reaches into the query (it holds '?' or ends with '$')
}

// matcher holds a group's rules, longest first, so that the first match in order is the
// most specific one once allow has been weighed against disallow at the same length.
type matcher []pattern

func newMatcher(rules []rule) matcher {
	m := make(matcher, 0, len(rules))
	for _, r := range rules {
		p := pattern{allow: r.allow, length: len(r.path)}
		s := r.path
		if strings.HasSuffix(s, "$") {
			p.end, s = true, s[:len(s)-1]
		}
		p.parts = strings.Split(s, "*")
		p.query = p.end || strings.Contains(s, "?")
		m = append(m, p)
	}
	// Longest first; at equal length Allow first (RFC 9309 2.2.2: the least strict rule).
	sort.SliceStable(m, func(i, j int) bool {
		if m[i].length != m[j].length {
			return m[i].length > m[j].length
		}
		return m[i].allow && !m[j].allow
	})
	return m
}

func (m matcher) cost() int {
	n := 0
	for _, p := range m {
		n += 48 + p.length + 16*len(p.parts)
	}
	return n
}

// allowed reports whether the rules allow path (in match form, see matchPath). A URL's
// query parameters are in canonical (sorted) order, which may not be the order a rule was
// written for: a rule that reaches into the query is also tried against the query with each
// of its parameters first, so that "Disallow: /search?q=" keeps /search?lang=en&q=x out as it
// keeps out /search?q=x&lang=en, the order the site links it in.
func (m matcher) allowed(path string) bool {
	var variants []string
	for _, p := range m {
		if p.matches(path) {
			return p.allow
		}
		if !p.query {
			continue
		}
		if variants == nil {
			variants = queryVariants(path)
		}
		for _, v := range variants {
			if p.matches(v) {
				return p.allow
			}
		}
	}
	return true
}

// queryVariants returns path with each query parameter moved to the front, the others left
// in their order; none when the query has fewer than two parameters.
func queryVariants(path string) []string {
	base, query, ok := strings.Cut(path, "?")
	if !ok {
		return []string{}
	}
	params := strings.Split(query, "&")
	if len(params) < 2 {
		return []string{}
	}
	out := make([]string, 0, len(params)-1)
	for i := 1; i < len(params); i++ {
		rest := make([]string, 0, len(params))
		rest = append(rest, params[i])
		rest = append(rest, params[:i]...)
		rest = append(rest, params[i+1:]...)
		out = append(out, base+"?"+strings.Join(rest, "&"))
	}
	return out
}

// matches reports whether the pattern matches a prefix of s (all of s with a final "$").
// Taking each literal part at its leftmost place after the previous one is exact for
// patterns whose only wildcard is "*", and costs one substring search per part.
func (p *pattern) matches(s string) bool {
	first := p.parts[0]
	if !strings.HasPrefix(s, first) {
		return false
	}
	pos := len(first)
	last := len(p.parts) - 1
	if last == 0 {
		return !p.end || pos == len(s)
	}
	for _, part := range p.parts[1:last] {
		i := strings.Index(s[pos:], part)
		if i < 0 {
			return false
		}
		pos += i + len(part)
	}
	tail := p.parts[last]
	if p.end {
		return len(s)-pos >= len(tail) && strings.HasSuffix(s, tail)
	}
	return strings.Contains(s[pos:], tail)
}

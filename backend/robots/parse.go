package robots

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"time"

	"mundaneum/backend/urlnorm"
)

// Limits on what one robots.txt can make us hold in memory.
const (
	maxRules      = 5000      // rules kept for our group; further ones are ignored
	maxRuleLength = 4096      // longer rule paths are ignored (they match no URL we fetch)
	maxCrawlDelay = 24 * 3600 // seconds; politeness caps it much lower anyway
	maxSitemaps   = 50        // Sitemap lines kept
)

// rule is one Allow or Disallow line in canonical form.
type rule struct {
	allow bool
	path  string
}

type group struct {
	agents   []string
	rules    []rule
	delay    float64
	hasDelay bool
}

// selectRules picks the rules of body that apply to the product token agent (RFC 9309
// 2.2.1: the groups naming the agent, combined; otherwise the "*" groups, combined), in
// canonical form (paths percent-encoded like canonical URLs), with the crawl delay (the
// largest given) and the Sitemap lines (absolute http(s) URLs, in order, at most
// maxSitemaps). Unknown lines, rules outside groups and invalid values are ignored, as
// RFC 9309 asks of parsers.
func selectRules(body []byte, agent string) (rules []rule, delay float64, hasDelay bool, sitemaps []string) {
	groups, sitemaps := parseGroups(body)
	var mine, star []*group
	for _, g := range groups {
		for _, a := range g.agents {
			if a == agent {
				mine = append(mine, g)
				break
			}
			if a == "*" {
				star = append(star, g)
				break
			}
		}
	}
	if len(mine) == 0 {
		mine = star
	}
	for _, g := range mine {
		for _, r := range g.rules {
			if len(rules) == maxRules {
				break
			}
			rules = append(rules, r)
		}
		if g.hasDelay && (!hasDelay || g.delay > delay) {
			delay, hasDelay = g.delay, true
		}
	}
	return rules, delay, hasDelay, sitemaps
}

// parseGroups reads the groups of a robots.txt body leniently, and its Sitemap lines
// (which belong to no group and may stand anywhere, RFC 9309 2.2.4).
func parseGroups(body []byte) (groups []*group, sitemaps []string) {
	body = bytes.TrimPrefix(body, []byte("\xEF\xBB\xBF")) // UTF-8 byte order mark
	var cur *group
	inRules := false
	for len(body) > 0 {
		var line []byte
		if i := bytes.IndexAny(body, "\r\n"); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			line, body = body, nil
		}
		key, val, ok := splitLine(line)
		if !ok {
			continue
		}
		switch key {
		case "user-agent", "useragent", "user agent":
			if cur == nil || inRules {
				cur = &group{}
				groups = append(groups, cur)
				inRules = false
			}
			if a := productToken(val); a != "" {
				cur.agents = append(cur.agents, a)
			}
		case "allow", "disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw":
			if cur == nil {
				continue // a rule before any user-agent line belongs to no group
			}
			inRules = true
			if p, ok := rulePath(val); ok {
				cur.rules = append(cur.rules, rule{allow: key == "allow", path: p})
			}
		case "sitemap", "site-map":
			if len(sitemaps) < maxSitemaps && len(val) <= urlnorm.MaxLength {
				if u, err := urlnorm.Parse(val); err == nil {
					sitemaps = append(sitemaps, u.String())
				}
			}
		case "crawl-delay", "crawldelay":
			if cur == nil {
				continue
			}
			inRules = true
			d, err := strconv.ParseFloat(val, 64)
			if err != nil || math.IsNaN(d) || d < 0 {
				continue
			}
			d = min(d, maxCrawlDelay)
			if !cur.hasDelay || d > cur.delay {
				cur.delay, cur.hasDelay = d, true
			}
		}
	}
	return groups, sitemaps
}

// splitLine splits "key: value # comment" into a lower-case key and a trimmed value.
// Like Google's parser it also accepts "key value" without a colon.
func splitLine(line []byte) (key, val string, ok bool) {
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	s := strings.TrimSpace(string(line))
	if s == "" {
		return "", "", false
	}
	k, v, found := strings.Cut(s, ":")
	if !found {
		f := strings.Fields(s)
		if len(f) != 2 {
			return "", "", false
		}
		k, v = f[0], f[1]
	}
	return strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v), true
}

// productToken returns the lower-cased product token at the start of a User-agent value
// ("Googlebot/2.1" -> "googlebot"), "*" for the wildcard, or "".
func productToken(v string) string {
	if strings.HasPrefix(v, "*") {
		return "*"
	}
	end := 0
	for end < len(v) {
		c := v[end]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-') {
			break
		}
		end++
	}
	return strings.ToLower(v[:end])
}

// rulePath returns the canonical form of an Allow/Disallow value; ok is false for an
// empty value (which RFC 9309 ignores) or one too long to matter.
func rulePath(v string) (string, bool) {
	if v == "" || len(v) > maxRuleLength {
		return "", false
	}
	if v[0] != '/' {
		v = "/" + v // "*.gif" and "/*.gif" match the same, every path starts with "/"
	}
	end := strings.HasSuffix(v, "$")
	if end {
		v = v[:len(v)-1]
	}
	v = matchForm(v)
	for strings.Contains(v, "**") {
		v = strings.ReplaceAll(v, "**", "*")
	}
	if end {
		v += "$"
	}
	return v, true
}

// matchPath returns the form of a URL's path and query that rules are matched against.
func matchPath(escapedPath, rawQuery string) string {
	p := escapedPath
	if p == "" {
		p = "/"
	}
	if rawQuery != "" {
		p += "?" + rawQuery
	}
	return matchForm(p)
}

// matchForm percent-encodes s the way canonical URLs are encoded (RFC 9309 2.2.2 asks
// rules and URLs to be compared in the same encoding): escapes of unreserved characters
// decoded, other escapes upper-case, bytes outside pchar/"/"/"?" encoded, a stray '%'
// encoded. '$' is always encoded, since in a rule only a final '$' (handled by the
// caller) is special; '*' stays literal (in a rule it is the wildcard).
func matchForm(s string) string {
	return urlnorm.NormalizeEscapes(s, func(c byte) bool { return c != '$' && urlnorm.QueryByte(c) })
}

// compile parses a 2xx robots.txt body for agent.
func compile(body []byte, agent string) compiled {
	rules, delay, hasDelay, sitemaps := selectRules(body, agent)
	c := compiled{rules: newMatcher(rules), sitemaps: sitemaps}
	if hasDelay {
		c.crawlDelay = time.Duration(delay * float64(time.Second))
	}
	c.cost = c.rules.cost()
	for _, s := range sitemaps {
		c.cost += len(s)
	}
	return c
}

package robots

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// bodyGetter serves one fixed answer, without a network.
type bodyGetter struct {
	status int
	body   []byte
}

func (g bodyGetter) GetRobots(ctx context.Context, robotsURL string) (int, []byte, error) {
	return g.status, g.body, nil
}

func mustURL(t testing.TB, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func FuzzCheck(f *testing.F) {
	seeds := []struct{ body, path string }{
		{"User-agent: *\nDisallow: /private\n", "/private/x"},
		{"User-agent: *\nDisallow: /*.gif$\nAllow: /a*b\n", "/a/x.gif"},
		{"User-agent: mundaneum\nCrawl-delay: 2.5\nDisallow: /$\n", "/"},
		{"\xEF\xBB\xBFuser-agent : * # x\rdisallow /a\r\n", "/a?b=c"},
		{"Disallow: /x\nCrawl-delay: -1\n", "/x"},
		{"User-agent: *\nDisallow: /%zz%7e$x*\n", "/%25zz~$x"},
		{"\x00\xff<html>", "/%C3%A4"},
	}
	for _, s := range seeds {
		f.Add([]byte(s.body), s.path)
	}
	f.Fuzz(func(t *testing.T, body []byte, path string) {
		cm := compile(body, "mundaneum")
		if len(cm.rules) > maxRules || len(cm.sitemaps) > maxSitemaps {
			t.Fatalf("%d rules, %d sitemaps kept", len(cm.rules), len(cm.sitemaps))
		}
		u, err := url.Parse("http://example.com" + path)
		if err != nil || u.Host != "example.com" {
			return
		}
		c := New(bodyGetter{200, body}, newMemStore(), "mundaneum", 0)
		d, err := c.Check(context.Background(), u)
		if err != nil {
			t.Fatalf("Check: %v", err)
		}
		switch d.Reason {
		case ReasonAllowed, ReasonDisallowed, ReasonRobotsFile:
		default:
			t.Fatalf("unexpected reason %q", d.Reason)
		}
		if d.CrawlDelay < 0 {
			t.Fatalf("negative crawl delay %v", d.CrawlDelay)
		}
	})
}

// FuzzMatch checks the matcher's leftmost-first matching of one rule against a regular
// expression that says the same thing (RFC 9309 2.2.3).
func FuzzMatch(f *testing.F) {
	for _, s := range [][2]string{{"/a*b", "/xab"}, {"/*.php$", "/a.php"}, {"/a*b*c$", "/abcbc"},
		{"/**", "/"}, {"/a$", "/a"}, {"/*a*a*a*b", "/aaaaaaaa"}, {"/$", "/x"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, raw, path string) {
		if len(raw) > 200 || len(path) > 400 {
			return
		}
		canon, ok := rulePath(raw)
		if !ok {
			return
		}
		path = matchPath(path, "")
		p := newMatcher([]rule{{path: canon}})[0]
		var re strings.Builder
		re.WriteString(`^`)
		for i, part := range p.parts {
			if i > 0 {
				re.WriteString(`(?s:.*)`)
			}
			re.WriteString(regexp.QuoteMeta(part))
		}
		if p.end {
			re.WriteString(`$`)
		}
		// Canonical rules and paths are ASCII: the regexp reads them byte for byte.
		want := regexp.MustCompile(re.String()).MatchString(path)
		if got := p.matches(path); got != want {
			t.Fatalf("pattern %q on %q: matches = %v, the regexp %s says %v", canon, path, got, re.String(), want)
		}
	})
}

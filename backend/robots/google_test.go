package robots

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"mundaneum/backend/fetch"
	"mundaneum/backend/urlnorm"
)

// Google's reference tests (github.com/google/robotstxt, robots_test.cc, every one of its
// 145 IsUserAgentAllowed calls, in order), run through the crawler's own path: the URL is
// normalised by urlnorm.Parse as the crawler does before asking, robots.txt is served by a
// real HTTP server and fetched with fetch.Client.GetRobots, and the answer comes from
// Cache.Check.
//
// want is Mundaneum's answer. Where it differs from Google's, why says on what grounds:
// RFC 9309 sides with Mundaneum, or the case tests a Google extension the RFC does not have,
// or it cannot arise in a crawl. Every case where the RFC sides with Google agrees with it.
type googleCheck struct {
	agent, url string
	google     bool   // Google's answer
	want       bool   // Mundaneum's answer
	why        string // why they differ ("" when they agree)
}

type googleGroup struct {
	name   string
	robots string
	checks []googleCheck
}

// agree is a check where Mundaneum answers as Google does.
func agree(agent, url string, allowed bool) googleCheck {
	return googleCheck{agent: agent, url: url, google: allowed, want: allowed}
}

// differ is a check where Mundaneum answers !google, for the reason given.
func differ(agent, url string, google bool, why string) googleCheck {
	return googleCheck{agent: agent, url: url, google: google, want: !google, why: why}
}

// Reasons for the cases where Mundaneum and Google differ.
const (
	// RFC 9309 2.2.2: "Octets in the URI and robots.txt paths outside the range of the ASCII
	// coded character set ... MUST be percent-encoded ... prior to comparison." The crawler
	// never asks about a URL in any other form: urlnorm encodes it first. Google's test
	// passes the raw octets on purpose ("it's up to the caller to percent encode").
	whyEncodeURL = "RFC 9309 2.2.2: the URL is percent-encoded before comparison (urlnorm does it)"
	// RFC 9309 2.2.2: "If a percent-encoded ASCII octet is encountered in the URI, it MUST be
	// unencoded prior to comparison, unless it is a reserved character". %62%61%7A is "baz".
	whyDecodeUnreserved = "RFC 9309 2.2.2: percent-encoded unreserved octets are decoded before comparison"
	// Google's parser cuts lines after 16,664 bytes and matches the cut rule; the RFC has no
	// line limit. Mundaneum ignores a rule longer than maxRuleLength (it can match no URL the
	// crawler fetches: urlnorm refuses URLs over 8 KiB).
	whyLongLine = "Google only: a cut-off rule; the RFC has no line limit and Mundaneum ignores rules over 4 KiB"
	// Google reads "User-Agent: Foo Bar" as "Foo" but refuses to obey the agent "Foo Bar".
	// Mundaneum's own product token is fixed ("mundaneum"), so an agent with a space never
	// asks; the token of "Foo Bar" is "foo" (RFC 9309 2.2.1), whose group allows /x/.
	whyAgentSpace = "Google only: an agent name with a space; Mundaneum asks with its product token"
	// Google treats "index.html" at the end of an Allow pattern as its directory too; the RFC
	// matches patterns as written.
	whyIndexHTML = "Google only: index.html as its directory; RFC 9309 matches the pattern as written"
)

// googleGroups are robots_test.cc's cases. An empty URL ("", in GoogleOnly_SystemTest) is
// the site's root: the crawler never asks about an empty URL, and Google's matcher reads it
// as "/".
var googleGroups = []googleGroup{
	// GoogleOnly_SystemTest
	{"system: empty robots.txt", "", []googleCheck{agree("FooBot", "", true), agree("", "", true)}},
	{"system", "user-agent: FooBot\ndisallow: /\n", []googleCheck{
		agree("", "", true),
		agree("FooBot", "", false),
	}},
	// ID_LineSyntax_Line
	{"line syntax: correct", "user-agent: FooBot\ndisallow: /\n", []googleCheck{agree("FooBot", "http://foo.bar/x/y", false)}},
	{"line syntax: incorrect", "foo: FooBot\nbar: /\n", []googleCheck{agree("FooBot", "http://foo.bar/x/y", true)}},
	{"line syntax: missing colon accepted", "user-agent FooBot\ndisallow /\n", []googleCheck{agree("FooBot", "http://foo.bar/x/y", false)}},
	// ID_LineSyntax_Groups
	{"groups", "allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\ndisallow: /\n" +
		"allow: /y/\n\n\nallow: /w/\nuser-agent: BazBot\n\nuser-agent: FooBot\nallow: /z/\ndisallow: /\n", []googleCheck{
		agree("FooBot", "http://foo.bar/x/b", true),
		agree("FooBot", "http://foo.bar/z/d", true),
		agree("FooBot", "http://foo.bar/y/c", false),
		agree("BarBot", "http://foo.bar/y/c", true),
		agree("BarBot", "http://foo.bar/w/a", true),
		agree("BarBot", "http://foo.bar/z/d", false),
		agree("BazBot", "http://foo.bar/z/d", true),
		agree("FooBot", "http://foo.bar/foo/bar/", false),
		agree("BarBot", "http://foo.bar/foo/bar/", false),
		agree("BazBot", "http://foo.bar/foo/bar/", false),
	}},
	// ID_LineSyntax_Groups_OtherRules
	{"groups: a sitemap line does not close a group", "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n", []googleCheck{
		agree("FooBot", "http://foo.bar/", false),
		agree("BarBot", "http://foo.bar/", false),
	}},
	{"groups: an unknown line does not close a group", "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n", []googleCheck{
		agree("FooBot", "http://foo.bar/", false),
		agree("BarBot", "http://foo.bar/", false),
	}},
	// ID_REPLineNamesCaseInsensitive
	{"line names: upper", "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n", []googleCheck{
		agree("FooBot", "http://foo.bar/x/y", true), agree("FooBot", "http://foo.bar/a/b", false)}},
	{"line names: lower", "user-agent: FooBot\nallow: /x/\ndisallow: /\n", []googleCheck{
		agree("FooBot", "http://foo.bar/x/y", true), agree("FooBot", "http://foo.bar/a/b", false)}},
	{"line names: camel", "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n", []googleCheck{
		agree("FooBot", "http://foo.bar/x/y", true), agree("FooBot", "http://foo.bar/a/b", false)}},
	// ID_UserAgentValueCaseInsensitive
	{"agent value: upper", "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n", []googleCheck{
		agree("Foo", "http://foo.bar/x/y", true), agree("Foo", "http://foo.bar/a/b", false),
		agree("foo", "http://foo.bar/x/y", true), agree("foo", "http://foo.bar/a/b", false)}},
	{"agent value: lower", "User-Agent: foo bar\nAllow: /x/\nDisallow: /\n", []googleCheck{
		agree("Foo", "http://foo.bar/x/y", true), agree("Foo", "http://foo.bar/a/b", false),
		agree("foo", "http://foo.bar/x/y", true), agree("foo", "http://foo.bar/a/b", false)}},
	{"agent value: camel", "User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n", []googleCheck{
		agree("Foo", "http://foo.bar/x/y", true), agree("Foo", "http://foo.bar/a/b", false),
		agree("foo", "http://foo.bar/x/y", true), agree("foo", "http://foo.bar/a/b", false)}},
	// GoogleOnly_AcceptUserAgentUpToFirstSpace
	{"agent up to the first space", "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n", []googleCheck{
		agree("Foo", "http://foo.bar/x/y", true),
		differ("Foo Bar", "http://foo.bar/x/y", false, whyAgentSpace),
	}},
	// ID_GlobalGroups_Secondary
	{"global group: empty", "", []googleCheck{agree("FooBot", "http://foo.bar/x/y", true)}},
	{"global group", "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n", []googleCheck{
		agree("FooBot", "http://foo.bar/x/y", false),
		agree("BarBot", "http://foo.bar/x/y", true),
	}},
	{"global group: only specific groups", "user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n",
		[]googleCheck{agree("QuxBot", "http://foo.bar/x/y", true)}},
	// ID_AllowDisallow_Value_CaseSensitive
	{"values are case-sensitive: lower", "user-agent: FooBot\ndisallow: /x/\n", []googleCheck{agree("FooBot", "http://foo.bar/x/y", false)}},
	{"values are case-sensitive: upper", "user-agent: FooBot\ndisallow: /X/\n", []googleCheck{agree("FooBot", "http://foo.bar/x/y", true)}},
	// ID_LongestMatch
	{"longest match: disallow longer", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n", []googleCheck{
		agree("FooBot", "http://foo.bar/x/page.html", false)}},
	{"longest match: allow longer", "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", []googleCheck{
		agree("FooBot", "http://foo.bar/x/page.html", true),
		agree("FooBot", "http://foo.bar/x/", false),
	}},
	{"longest match: empty values", "user-agent: FooBot\ndisallow: \nallow: \n", []googleCheck{agree("FooBot", "http://foo.bar/x/page.html", true)}},
	{"longest match: equal, allow wins", "user-agent: FooBot\ndisallow: /\nallow: /\n", []googleCheck{agree("FooBot", "http://foo.bar/x/page.html", true)}},
	{"longest match: /x and /x/", "user-agent: FooBot\ndisallow: /x\nallow: /x/\n", []googleCheck{
		agree("FooBot", "http://foo.bar/x", false),
		agree("FooBot", "http://foo.bar/x/", true),
	}},
	{"longest match: same pattern, allow wins", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n", []googleCheck{
		agree("FooBot", "http://foo.bar/x/page.html", true)}},
	{"longest match: wildcard rule longer", "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", []googleCheck{
		agree("FooBot", "http://foo.bar/page.html", false),
		agree("FooBot", "http://foo.bar/page", true),
	}},
	{"longest match: wildcard rule shorter", "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", []googleCheck{
		agree("FooBot", "http://foo.bar/x/page.html", true),
		agree("FooBot", "http://foo.bar/x/y.html", false),
	}},
	{"longest match: most specific group", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", []googleCheck{
		agree("FooBot", "http://foo.bar/x/page", true),
		agree("FooBot", "http://foo.bar/y/page", false),
	}},
	// ID_Encoding
	{"encoding: query left as it is", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n", []googleCheck{
		agree("FooBot", "http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par", true)}},
	{"encoding: 3-byte character in the rule", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n", []googleCheck{
		agree("FooBot", "http://foo.bar/foo/bar/%E3%83%84", true),
		differ("FooBot", "http://foo.bar/foo/bar/ツ", false, whyEncodeURL),
	}},
	{"encoding: percent-encoded 3-byte character in the rule", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n", []googleCheck{
		agree("FooBot", "http://foo.bar/foo/bar/%E3%83%84", true),
		differ("FooBot", "http://foo.bar/foo/bar/ツ", false, whyEncodeURL),
	}},
	{"encoding: percent-encoded unreserved characters", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n", []googleCheck{
		differ("FooBot", "http://foo.bar/foo/bar/baz", false, whyDecodeUnreserved),
		agree("FooBot", "http://foo.bar/foo/bar/%62%61%7A", true),
	}},
	// ID_SpecialCharacters
	{"special: wildcard", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", []googleCheck{
		agree("FooBot", "http://foo.bar/foo/bar/quz", false),
		agree("FooBot", "http://foo.bar/foo/quz", true),
		agree("FooBot", "http://foo.bar/foo//quz", true),
		agree("FooBot", "http://foo.bar/foo/bax/quz", true),
	}},
	{"special: end anchor", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", []googleCheck{
		agree("FooBot", "http://foo.bar/foo/bar", false),
		agree("FooBot", "http://foo.bar/foo/bar/qux", true),
		agree("FooBot", "http://foo.bar/foo/bar/", true),
		agree("FooBot", "http://foo.bar/foo/bar/baz", true),
	}},
	{"special: comments", "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", []googleCheck{
		agree("FooBot", "http://foo.bar/foo/bar", true),
		agree("FooBot", "http://foo.bar/foo/quz", false),
	}},
	// GoogleOnly_IndexHTMLisDirectory
	{"index.html", "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", []googleCheck{
		differ("foobot", "http://foo.com/allowed-slash/", true, whyIndexHTML),
		agree("foobot", "http://foo.com/allowed-slash/index.htm", false),
		agree("foobot", "http://foo.com/allowed-slash/index.html", true),
		agree("foobot", "http://foo.com/anyother-url", false),
	}},
	// GoogleOnly_LineTooLong
	{"long line: disallow", "user-agent: FooBot\ndisallow: " + longRule('a') + "/qux\n", []googleCheck{
		agree("FooBot", "http://foo.bar/fux", true),
		differ("FooBot", "http://foo.bar"+longRule('a')+"/fux", false, whyLongLine),
	}},
	{"long line: allow", "user-agent: FooBot\ndisallow: /\nallow: " + longRule('a') + "/qux\nallow: " + longRule('b') + "/qux\n", []googleCheck{
		agree("FooBot", "http://foo.bar/", false),
		differ("FooBot", "http://foo.bar"+longRule('a')+"/qux", true, whyLongLine),
		differ("FooBot", "http://foo.bar"+longRule('b')+"/fux", true, whyLongLine),
	}},
	// GoogleOnly_DocumentationChecks
	{"docs: /fish", "user-agent: FooBot\ndisallow: /\nallow: /fish\n", fishChecks()},
	{"docs: /fish*", "user-agent: FooBot\ndisallow: /\nallow: /fish*\n", fishStarChecks()},
	{"docs: /fish/", "user-agent: FooBot\ndisallow: /\nallow: /fish/\n", []googleCheck{
		agree("FooBot", "http://foo.bar/bar", false),
		agree("FooBot", "http://foo.bar/fish/", true),
		agree("FooBot", "http://foo.bar/fish/salmon", true),
		agree("FooBot", "http://foo.bar/fish/?salmon", true),
		agree("FooBot", "http://foo.bar/fish/salmon.html", true),
		agree("FooBot", "http://foo.bar/fish/?id=anything", true),
		agree("FooBot", "http://foo.bar/fish", false),
		agree("FooBot", "http://foo.bar/fish.html", false),
		agree("FooBot", "http://foo.bar/Fish/Salmon.html", false),
	}},
	{"docs: /*.php", "user-agent: FooBot\ndisallow: /\nallow: /*.php\n", []googleCheck{
		agree("FooBot", "http://foo.bar/bar", false),
		agree("FooBot", "http://foo.bar/filename.php", true),
		agree("FooBot", "http://foo.bar/folder/filename.php", true),
		agree("FooBot", "http://foo.bar/folder/filename.php?parameters", true),
		agree("FooBot", "http://foo.bar//folder/any.php.file.html", true),
		agree("FooBot", "http://foo.bar/filename.php/", true),
		agree("FooBot", "http://foo.bar/index?f=filename.php/", true),
		agree("FooBot", "http://foo.bar/php/", false),
		agree("FooBot", "http://foo.bar/index?php", false),
		agree("FooBot", "http://foo.bar/windows.PHP", false),
	}},
	{"docs: /*.php$", "user-agent: FooBot\ndisallow: /\nallow: /*.php$\n", []googleCheck{
		agree("FooBot", "http://foo.bar/bar", false),
		agree("FooBot", "http://foo.bar/filename.php", true),
		agree("FooBot", "http://foo.bar/folder/filename.php", true),
		agree("FooBot", "http://foo.bar/filename.php?parameters", false),
		agree("FooBot", "http://foo.bar/filename.php/", false),
		agree("FooBot", "http://foo.bar/filename.php5", false),
		agree("FooBot", "http://foo.bar/php/", false),
		agree("FooBot", "http://foo.bar/filename?php", false),
		agree("FooBot", "http://foo.bar/aaaphpaaa", false),
		agree("FooBot", "http://foo.bar//windows.PHP", false),
	}},
	{"docs: /fish*.php", "user-agent: FooBot\ndisallow: /\nallow: /fish*.php\n", []googleCheck{
		agree("FooBot", "http://foo.bar/bar", false),
		agree("FooBot", "http://foo.bar/fish.php", true),
		agree("FooBot", "http://foo.bar/fishheads/catfish.php?parameters", true),
		agree("FooBot", "http://foo.bar/Fish.PHP", false),
	}},
	{"docs: precedence /p", "user-agent: FooBot\nallow: /p\ndisallow: /\n", []googleCheck{agree("FooBot", "http://example.com/page", true)}},
	{"docs: precedence equal", "user-agent: FooBot\nallow: /folder\ndisallow: /folder\n", []googleCheck{
		agree("FooBot", "http://example.com/folder/page", true)}},
	{"docs: precedence wildcard", "user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n", []googleCheck{
		agree("FooBot", "http://example.com/page.htm", false)}},
	{"docs: precedence end anchor", "user-agent: FooBot\nallow: /$\ndisallow: /\n", []googleCheck{
		agree("FooBot", "http://example.com/", true),
		agree("FooBot", "http://example.com/page.html", false),
	}},
}

func fishChecks() []googleCheck {
	return []googleCheck{
		agree("FooBot", "http://foo.bar/bar", false),
		agree("FooBot", "http://foo.bar/fish", true),
		agree("FooBot", "http://foo.bar/fish.html", true),
		agree("FooBot", "http://foo.bar/fish/salmon.html", true),
		agree("FooBot", "http://foo.bar/fishheads", true),
		agree("FooBot", "http://foo.bar/fishheads/yummy.html", true),
		agree("FooBot", "http://foo.bar/fish.html?id=anything", true),
		agree("FooBot", "http://foo.bar/Fish.asp", false),
		agree("FooBot", "http://foo.bar/catfish", false),
		agree("FooBot", "http://foo.bar/?id=fish", false),
	}
}

func fishStarChecks() []googleCheck {
	cs := fishChecks()
	cs[7] = agree("FooBot", "http://foo.bar/Fish.bar", false)
	return cs
}

// longRule is the long path of GoogleOnly_LineTooLong: "/x/" and 'a's or 'b's up to
// 2083*8 - len("disallow: ") + 1 bytes, as the C++ test builds it (its allow lines use
// the same length).
func longRule(c byte) string {
	n := 2083*8 - len("/x/") - len("disallow: ") + 1
	return "/x/" + strings.Repeat(string(c), n-len("/x/"))
}

// robotsServer serves whatever body is set.
type robotsServer struct {
	*httptest.Server
	mu   sync.Mutex
	body string
}

func newRobotsServer(t *testing.T) *robotsServer {
	s := &robotsServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		w.Write([]byte(s.body))
	}))
	t.Cleanup(s.Close)
	return s
}

// googleOrigin stands for foo.bar, foo.com and example.com: the test server, by a host
// name every check's URL is rewritten to.
func TestGoogleReference(t *testing.T) {
	srv := newRobotsServer(t)
	client := fetch.New(fetch.Config{UserAgent: "Mundaneum-test"})
	total, differ := 0, 0
	for _, g := range googleGroups {
		srv.mu.Lock()
		srv.body = g.robots
		srv.mu.Unlock()
		caches := map[string]*Cache{}
		for _, c := range g.checks {
			total++
			if c.why != "" {
				differ++
			}
			cache := caches[c.agent]
			if cache == nil {
				cache = New(client, newMemStore(), c.agent, 0)
				caches[c.agent] = cache
			}
			raw := c.url
			if raw == "" {
				raw = "http://foo.bar/"
			}
			for _, host := range []string{"http://foo.bar", "http://foo.com", "http://example.com"} {
				if strings.HasPrefix(raw, host) {
					raw = srv.URL + strings.TrimPrefix(raw, host)
				}
			}
			u, err := urlnorm.Parse(raw)
			if err != nil {
				if c.why != whyLongLine {
					t.Errorf("%s: %s: the crawler cannot parse the URL: %v", g.name, c.url, err)
				}
				continue // the crawler never asks about a URL it cannot parse
			}
			d, err := cache.Check(context.Background(), u)
			if err != nil {
				t.Fatalf("%s: %s: %v", g.name, c.url, err)
			}
			if d.Allowed != c.want {
				how := "as Google does"
				if c.why != "" {
					how = "unlike Google (" + c.why + ")"
				}
				t.Errorf("%s: agent %q, %s: allowed = %v, want %v %s", g.name, c.agent, clip(c.url), d.Allowed, c.want, how)
			}
		}
	}
	if total != 145 {
		t.Errorf("%d cases, robots_test.cc has 145", total)
	}
	t.Logf("%d cases: %d as Google answers, %d differently on the grounds given", total, total-differ, differ)
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

package check

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	"mundaneum/backend/fetch"
	"mundaneum/backend/urlnorm"
)

// maxHops bounds a redirect chain.
const maxHops = 10

// What robots.txt said about a request that was not sent.
const (
	robotsDisallowed  = "disallowed"
	robotsUnreachable = "unreachable"  // the site did not answer for its robots.txt
	robotsServerError = "server-error" // robots.txt answered 429 or 5xx
)

// Kind is what a link check concluded: a closed set, classified in one place (classify).
// Blocked and rate-limited are kept apart from broken: a bot wall or a busy server says
// nothing about whether the page exists, and calling it dead is the false alarm users of
// link checkers complain about most.
type Kind string

// The verdicts.
const (
	OK             Kind = "ok"
	Redirected     Kind = "redirected"      // answers after redirects: moved (permanently or not)
	Broken         Kind = "broken"          // 404/410, other 4xx, DNS name not found, refused, bad TLS, redirect loop
	ServerError    Kind = "server_error"    // 5xx, after retries
	Blocked        Kind = "blocked"         // 401/403/451, bot walls: exists or not, we may not see it
	RateLimited    Kind = "rate_limited"    // 429 (or 503 with Retry-After) after retries
	Timeout        Kind = "timeout"         // no answer in time, after a retry
	RobotsExcluded Kind = "robots_excluded" // robots.txt asks us not to request it
	Invalid        Kind = "invalid"         // not a URL that can be requested
	// Offline: not tested, this machine could not reach any host outside it (offline.go).
	// It says nothing about the link: its health is left as it was.
	Offline Kind = "offline"
	// FragmentMissing: the page answers, but nothing on it has the id (or <a name>) that
	// the link's fragment names (fragments.go). The page is not broken: the link misses
	// its place on it.
	FragmentMissing Kind = "fragment_missing"
)

// Kinds lists every verdict, in the order reports show them.
var Kinds = []Kind{Broken, ServerError, Timeout, Invalid, FragmentMissing, Blocked, RateLimited, RobotsExcluded, Offline,
	Redirected, OK}

// Failing reports whether a verdict counts towards a link being dead. Blocked,
// rate-limited and robots-excluded links never do: they may well be fine.
func (k Kind) Failing() bool {
	return k == Broken || k == ServerError || k == Timeout || k == Invalid
}

// Codes: the machine form of a verdict's reason (Verdict.Code), a closed set.
const (
	CodeOK           = "ok"
	CodeMoved        = "moved"              // permanent redirect chain
	CodeFound        = "found"              // temporary redirect chain
	CodeNotFound     = "not-found"          // 404
	CodeGone         = "gone"               // 410
	CodeHTTP         = "http"               // another 4xx
	CodeDNS          = "dns"                // the host name does not resolve
	CodeRefused      = "refused"            // connection refused
	CodeReset        = "reset"              // connection closed before an answer
	CodeTLS          = "tls"                // TLS handshake or certificate
	CodeNetwork      = "network"            // another network failure
	CodeLoop         = "redirect-loop"      // a redirect chain comes back on itself
	CodeTooMany      = "too-many-redirects" // more than maxHops redirects
	CodeBadRedirect  = "bad-redirect"       // a redirect without a usable Location
	CodeServer       = "server-error"       // 5xx
	CodeAuth         = "auth"               // 401, 407
	CodeForbidden    = "forbidden"          // 403, 451
	CodeBotWall      = "bot-wall"           // a challenge page in front of the site
	CodeRateLimited  = "rate-limited"       // 429, 503 with Retry-After
	CodeTimeout      = "timeout"            // no answer in time
	CodeRobots       = "robots"             // disallowed by robots.txt
	CodeRobotsFailed = "robots-unreachable" // robots.txt did not answer: not requested
	CodeBadURL       = "bad-url"            // cannot be parsed
	CodeScheme       = "scheme"             // not http or https
	CodeOffline      = "offline"            // this machine reached no host outside it
	CodeNoAnchor     = "no-anchor"          // no element of the page has the fragment's id or name
)

// Hop is one redirect of a chain: the status answered at URL.
type Hop struct {
	Status int    `json:"status"`
	URL    string `json:"url"`
}

// Verdict is the outcome of testing one link.
type Verdict struct {
	Kind      Kind
	Code      string // one of the Code constants
	Status    int    // HTTP status of the last answer, 0 if none
	Reason    string // for people: what happened, in a sentence
	FinalURL  string // where the redirects led ("" without redirects)
	Permanent bool   // every redirect of the chain was permanent (301, 308)
	Chain     []Hop  // the redirects followed, in order
}

// observation is everything one test saw; classify turns it into a Verdict.
type observation struct {
	url     string
	badURL  error  // the URL (or a redirect target) could not be parsed
	robots  string // robots.txt decision that stopped the test ("" if allowed)
	err     error  // transport error of the last request
	status  int
	header  http.Header
	chain   []Hop
	loop    bool // the last redirect points back into the chain
	tooMany bool // the chain was cut after maxHops
	noLoc   bool // a redirect without a usable Location
	tries   int  // requests made for the last hop
	// offline is why this machine was offline when the test got no contact with its host
	// (nil: it was not, or the host is on this machine or its network).
	offline error
	// noAnchor: the page answered, and has no element that fragment names.
	noAnchor bool
	fragment string
}

// classify is the one place where an observation becomes a verdict.
func classify(o observation) Verdict {
	v := Verdict{Status: o.status, Chain: o.chain}
	if len(o.chain) > 0 {
		v.FinalURL = o.url
		v.Permanent = true
		for _, h := range o.chain {
			if h.Status != http.StatusMovedPermanently && h.Status != http.StatusPermanentRedirect {
				v.Permanent = false
			}
		}
	}
	set := func(k Kind, code, reason string, args ...any) Verdict {
		v.Kind, v.Code, v.Reason = k, code, fmt.Sprintf(reason, args...)
		if len(o.chain) > 0 && k != OK && k != Redirected {
			v.Reason += fmt.Sprintf(" (after %d redirect%s)", len(o.chain), plural(len(o.chain)))
		}
		return v
	}
	switch {
	case o.badURL != nil && errors.Is(o.badURL, urlnorm.ErrScheme):
		return set(Invalid, CodeScheme, "not an http or https URL")
	case o.badURL != nil:
		return set(Invalid, CodeBadURL, "not a valid URL: %s", shortErr(o.badURL))
	case o.offline != nil:
		return set(Offline, CodeOffline, "not tested: this machine is offline (%s)", shortErr(o.offline))
	case o.loop:
		return set(Broken, CodeLoop, "the redirects go round in a loop")
	case o.tooMany:
		return set(Broken, CodeTooMany, "more than %d redirects", maxHops)
	case o.noLoc:
		return set(Broken, CodeBadRedirect, "HTTP %d redirect without a usable Location", o.status)
	case o.robots == robotsDisallowed:
		return set(RobotsExcluded, CodeRobots, "robots.txt asks robots not to request it")
	case o.robots == robotsServerError:
		return set(ServerError, CodeRobotsFailed, "the site's robots.txt answered 429 or a server error: not requested for now (RFC 9309)")
	case o.err != nil:
		return classifyError(o, set)
	}
	s := o.status
	switch {
	case s >= 200 && s < 300 || s == http.StatusNotModified:
		if o.noAnchor {
			return set(FragmentMissing, CodeNoAnchor, "the page has no element with the id or name %q", o.fragment)
		}
		if len(o.chain) > 0 {
			if v.Permanent {
				return set(Redirected, CodeMoved, "moved permanently to %s", o.url)
			}
			return set(Redirected, CodeFound, "redirected to %s", o.url)
		}
		return set(OK, CodeOK, "HTTP %d", s)
	case s == http.StatusNotFound:
		return set(Broken, CodeNotFound, "HTTP 404: not found")
	case s == http.StatusGone:
		return set(Broken, CodeGone, "HTTP 410: gone")
	case botWall(s, o.header) != "":
		return set(Blocked, CodeBotWall, "HTTP %d from a bot wall (%s): the page may well exist", s, botWall(s, o.header))
	case s == http.StatusUnauthorized || s == http.StatusProxyAuthRequired:
		return set(Blocked, CodeAuth, "HTTP %d: a login is required", s)
	case s == http.StatusForbidden || s == http.StatusUnavailableForLegalReasons:
		return set(Blocked, CodeForbidden, "HTTP %d: access refused to robots or to everyone", s)
	case s == http.StatusTooManyRequests:
		return set(RateLimited, CodeRateLimited, "HTTP 429: too many requests, still after %d tries", o.tries)
	case s == http.StatusServiceUnavailable && o.header.Get("Retry-After") != "":
		return set(RateLimited, CodeRateLimited, "HTTP 503 with Retry-After: busy, still after %d tries", o.tries)
	case s >= 500:
		return set(ServerError, CodeServer, "HTTP %d: server error, still after %d tries", s, o.tries)
	case s >= 400:
		return set(Broken, CodeHTTP, "HTTP %d %s", s, http.StatusText(s))
	case s >= 300:
		return set(Broken, CodeBadRedirect, "HTTP %d without a redirect to follow", s)
	}
	return set(Broken, CodeHTTP, "HTTP %d: not a status a server may send", s)
}

// classifyError classifies a request that got no answer, by fetch's failure codes.
func classifyError(o observation, set func(Kind, string, string, ...any) Verdict) Verdict {
	var dns *net.DNSError
	if errors.As(o.err, &dns) && dns.IsTimeout {
		// The name server did not answer in time: says nothing about the name.
		return set(Timeout, CodeTimeout, "the name server did not answer in time (DNS)")
	}
	switch fetch.Classify(o.err) {
	case fetch.CodeTimeout:
		return set(Timeout, CodeTimeout, "no answer in time, %d tries", max(o.tries, 1))
	case fetch.CodeDNS:
		return set(Broken, CodeDNS, "the host name does not resolve (DNS)")
	case fetch.CodeRefused:
		return set(Broken, CodeRefused, "connection refused")
	case fetch.CodeTLS:
		return set(Broken, CodeTLS, "TLS failed: %s", shortErr(o.err))
	case fetch.CodeReset:
		return set(Broken, CodeReset, "the connection was closed before an answer")
	case fetch.CodeScheme:
		return set(Invalid, CodeScheme, "not an http or https URL")
	}
	return set(Broken, CodeNetwork, "network error: %s", shortErr(o.err))
}

// botWall names the challenge page a CDN put in front of a site ("" if none is
// recognised): the status is then about the robot, not the page.
func botWall(status int, h http.Header) string {
	switch {
	case status == 999:
		return "LinkedIn's 999"
	case status != 403 && status != 503 && status != 429 || h == nil:
		return ""
	case h.Get("Cf-Mitigated") != "" || strings.EqualFold(h.Get("Server"), "cloudflare") && h.Get("Cf-Ray") != "":
		return "Cloudflare"
	case h.Get("X-Amzn-Waf-Action") != "":
		return "AWS WAF"
	case strings.HasPrefix(strings.ToLower(h.Get("Server")), "akamaighost"):
		return "Akamai"
	case h.Get("X-Datadome") != "" || h.Get("X-Dd-B") != "":
		return "DataDome"
	case h.Get("X-Sucuri-Id") != "":
		return "Sucuri"
	}
	return ""
}

// shortErr is an error's text without the "fetch URL:" prefixes that repeat the link.
func shortErr(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 && i+2 < len(s) {
		s = s[i+2:]
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

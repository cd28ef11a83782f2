package crawl

import (
	"strings"

	"mundaneum/backend/fetch"
	"mundaneum/backend/urlnorm"
)

// reasonWords are the words for the reasons recorded on pages, for people (the CLI); the
// window has the same words in frontend/src/lib/wording.ts.
var reasonWords = map[string]string{
	ReasonRobots:      "disallowed by robots.txt",
	ReasonScope:       "outside the crawl's scope",
	ReasonDepth:       "beyond the depth limit",
	ReasonType:        "not a web page: recorded from links, not downloaded",
	ReasonNoFollow:    "the citing page or link says nofollow",
	ReasonTrap:        "looks like a spider trap",
	ReasonHostLimit:   "the per-host page cap was reached",
	ReasonVariants:    "the path's budget of query variants was used up",
	ReasonRedirect:    "redirects elsewhere",
	ReasonRedirects:   "too many redirects",
	ReasonNotFound:    "not found",
	ReasonForbidden:   "access denied",
	ReasonServerError: "server error",
	ReasonRateLimited: "rate-limited by the server (blocked, not dead)",
	ReasonHTTP:        "unusable HTTP answer",
	ReasonNotSitemap:  "not a sitemap",
	"unreachable":     "the host did not answer, not even for robots.txt", // recorded before issue 18
	"too-large":       "too large to download",                            // recorded before issue 18
}

var trapWords = map[string]string{
	urlnorm.TrapURLTooLong:      "the URL is very long",
	urlnorm.TrapRepeatedSegment: "a path segment keeps repeating",
	urlnorm.TrapTooDeep:         "the path is very deep",
	urlnorm.TrapTooManyParams:   "too many query parameters",
	urlnorm.TrapCalendar:        "a date far in the past or future (a calendar)",
}

// ReasonText returns the words for a reason recorded on a page: the crawl's own reasons,
// trap:<kind>, and the fetch package's failure codes (connection refused, DNS name not
// found, ...). An unknown code is returned as it is.
func ReasonText(reason string) string {
	if kind, ok := strings.CutPrefix(reason, ReasonTrap+":"); ok {
		w := trapWords[kind]
		if w == "" {
			w = kind
		}
		return reasonWords[ReasonTrap] + ": " + w
	}
	if w, ok := reasonWords[reason]; ok {
		return w
	}
	return fetch.Describe(reason)
}

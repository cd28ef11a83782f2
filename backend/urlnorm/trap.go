package urlnorm

import (
	"net/url"
	"strings"
	"time"
)

// Trap reasons: the closed set of codes Trap returns.
const (
	TrapURLTooLong      = "url-too-long"     // the URL is longer than MaxTrapLength bytes
	TrapRepeatedSegment = "repeated-segment" // one path segment occurs MaxSegmentRepeats+1 times or more
	TrapTooDeep         = "too-deep"         // more than MaxDepth path segments
	TrapTooManyParams   = "too-many-params"  // more than MaxParams query parameters
	TrapCalendar        = "calendar"         // a date before MinYear or more than YearsAhead years ahead
)

// Limits used by Trap.
const (
	MaxTrapLength     = 2048
	MaxSegmentRepeats = 2
	MaxDepth          = 16
	MaxParams         = 12
	// MinYear and YearsAhead bound the dates a URL may name (a calendar's "next" and
	// "previous" links go on forever): YYYY/MM or YYYY-MM(-DD) in the path or a query value,
	// and YYYYMM(DD) or a bare year in a date-like query parameter (year, date, month, ...).
	MinYear    = 1900
	YearsAhead = 10
)

// Trap reports whether u looks like a spider trap (calendars, session loops, relative
// links that grow a path forever) and why, as one of the Trap* reason codes. u is
// expected in canonical form (from Parse or Resolve).
func Trap(u *url.URL) (reason string, trapped bool) {
	if len(u.String()) > MaxTrapLength {
		return TrapURLTooLong, true
	}
	p := strings.Trim(u.EscapedPath(), "/")
	if p != "" {
		segs := strings.Split(p, "/")
		if len(segs) > MaxDepth {
			return TrapTooDeep, true
		}
		if repeated(segs) {
			return TrapRepeatedSegment, true
		}
	}
	if u.RawQuery != "" {
		n := 0
		for _, part := range strings.Split(u.RawQuery, "&") {
			if part != "" {
				n++
			}
		}
		if n > MaxParams {
			return TrapTooManyParams, true
		}
	}
	if calendar(u, time.Now().Year()) {
		return TrapCalendar, true
	}
	return "", false
}

// calendar reports whether u names a date outside [MinYear, now+YearsAhead].
func calendar(u *url.URL, now int) bool {
	out := func(y int) bool { return y > 0 && (y < MinYear || y > now+YearsAhead) }
	segs := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
	for i, s := range segs {
		if y := dateYear(s, false); out(y) {
			return true
		}
		// A year segment followed by a month: /2031/05/.
		if len(s) == 4 && digits(s) && i+1 < len(segs) && isMonth(segs[i+1]) && out(atoi(s)) {
			return true
		}
	}
	for _, part := range strings.Split(u.RawQuery, "&") {
		key, val, _ := strings.Cut(part, "=")
		dateKey := dateKeys[strings.ToLower(key)]
		if y := dateYear(val, dateKey); out(y) {
			return true
		}
		if dateKey && len(val) == 4 && digits(val) && out(atoi(val)) {
			return true
		}
	}
	return false
}

var dateKeys = map[string]bool{"year": true, "yr": true, "y": true, "date": true, "month": true,
	"day": true, "cal": true, "calendar": true, "from": true, "to": true, "start": true, "end": true}

// dateYear returns the year of a date written YYYY-MM or YYYY-MM-DD with a valid month
// (and day), or, when compact (a date-like parameter, where a number is a date), YYYYMM or
// YYYYMMDD; else 0.
func dateYear(s string, compact bool) int {
	switch {
	case len(s) == 7 && s[4] == '-' && digits(s[:4]) && isMonth(s[5:]):
	case len(s) == 10 && s[4] == '-' && s[7] == '-' && digits(s[:4]) && isMonth(s[5:7]) && isDay(s[8:]):
	case compact && len(s) == 6 && digits(s) && isMonth(s[4:]):
	case compact && len(s) == 8 && digits(s) && isMonth(s[4:6]) && isDay(s[6:]):
	default:
		return 0
	}
	return atoi(s[:4])
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = 10*n + int(s[i]-'0')
	}
	return n
}

func isMonth(s string) bool { return len(s) <= 2 && digits(s) && atoi(s) >= 1 && atoi(s) <= 12 }
func isDay(s string) bool   { return len(s) == 2 && digits(s) && atoi(s) >= 1 && atoi(s) <= 31 }

// repeated reports whether a non-empty segment occurs more than MaxSegmentRepeats times.
// segs has at most MaxDepth entries, so the quadratic scan is cheap.
func repeated(segs []string) bool {
	if len(segs) <= MaxSegmentRepeats {
		return false
	}
	for i, s := range segs {
		if s == "" {
			continue
		}
		n := 1
		for _, t := range segs[i+1:] {
			if t == s {
				n++
			}
		}
		if n > MaxSegmentRepeats {
			return true
		}
	}
	return false
}

package urlnorm

import (
	"net/url"
	"strings"
)

// Trap reasons: the closed set of codes Trap returns.
const (
	TrapURLTooLong      = "url-too-long"     // the URL is longer than MaxTrapLength bytes
	TrapRepeatedSegment = "repeated-segment" // one path segment occurs MaxSegmentRepeats+1 times or more
	TrapTooDeep         = "too-deep"         // more than MaxDepth path segments
	TrapTooManyParams   = "too-many-params"  // more than MaxParams query parameters
)

// Limits used by Trap.
const (
	MaxTrapLength     = 2048
	MaxSegmentRepeats = 2
	MaxDepth          = 16
	MaxParams         = 12
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
	return "", false
}

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

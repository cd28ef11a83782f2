package politeness

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxRetryAfter bounds what ParseRetryAfter returns (Release caps it further).
const maxRetryAfter = 365 * 24 * time.Hour

// ParseRetryAfter parses a Retry-After header value, either delta-seconds ("120") or an
// HTTP-date ("Wed, 21 Oct 2015 07:28:00 GMT", also the obsolete RFC 850 and asctime
// forms), relative to now. A date in the past gives 0. Results are capped at one year.
// ok is false when v is neither form.
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" || len(v) > 64 {
		return 0, false
	}
	if isDigits(v) {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n > uint64(maxRetryAfter/time.Second) {
			// All digits but too large for uint64, or more than the cap.
			return maxRetryAfter, true
		}
		return time.Duration(n) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	d := t.Sub(now)
	switch {
	case d < 0:
		return 0, true
	case d > maxRetryAfter:
		return maxRetryAfter, true
	}
	return d, true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

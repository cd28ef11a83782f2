// Package momfile reads and writes MOMspider's own files (Fielding, 1994): the avoid file
// of URL prefixes to avoid or leaf (appendix C), the sites file of robots.txt checks with
// their expiry (appendix D) and the instruction file of maintenance tasks (appendix A), so
// that a MOMspider user's lists and tasks can be brought over as they are.
//
// The files are untrusted input: every reader bounds what it keeps, reports a malformed
// line with its number instead of guessing, and never panics. Dates are read in the forms
// MOMspider's wwwdates.pl accepted (RFC 1123, RFC 850, asctime) and in ISO 8601;
// "[*]" means never.
package momfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits on what one file may make a reader hold.
const (
	MaxLine    = 8 << 10 // bytes in one line; a longer line is an error
	MaxEntries = 100_000 // entries (or tasks) in one file
	MaxURL     = 4096    // bytes of a URL or prefix
)

// ErrSyntax is wrapped by every error about a file's content (as opposed to reading it).
var ErrSyntax = errors.New("malformed MOMspider file")

// LineError is a malformed line: its number (from 1) and what is wrong with it.
type LineError struct {
	Line int
	Msg  string
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Unwrap makes a LineError match ErrSyntax.
func (e *LineError) Unwrap() error { return ErrSyntax }

func lineErr(n int, format string, args ...any) error {
	return &LineError{Line: n, Msg: fmt.Sprintf(format, args...)}
}

// lines calls fn with each line of r (without its end of line) and its number, stopping at
// the first error. It refuses over-long lines and text that is not UTF-8.
func lines(r io.Reader, fn func(n int, line string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxLine)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), "\r")
		if !utf8.ValidString(line) {
			return lineErr(n, "not UTF-8 text")
		}
		if err := fn(n, line); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return lineErr(n+1, "longer than %d bytes", MaxLine)
		}
		return fmt.Errorf("read MOMspider file: %w", err)
	}
	return nil
}

// dateLayouts are the date forms accepted besides http.ParseTime's three (RFC 1123,
// RFC 850 and asctime): ISO 8601 dates and times, and RFC 1123 with a numeric zone.
var dateLayouts = []string{
	time.RFC3339,
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05",
	"2006-01-02",
	time.RFC1123Z,
	"Mon, 2 Jan 2006 15:04:05 MST",
	"2 Jan 2006 15:04:05 MST",
	"02-Jan-2006 15:04:05 MST",
}

// ParseDate reads an expiry date without its brackets. "*" (never) gives the zero time
// and ok. Dates without a zone are UTC.
func ParseDate(s string) (t time.Time, ok bool) {
	s = strings.TrimSpace(s)
	if s == "*" {
		return time.Time{}, true
	}
	if s == "" || len(s) > 64 {
		return time.Time{}, false
	}
	if t, err := http.ParseTime(s); err == nil {
		return sane(t)
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return sane(t)
		}
	}
	return time.Time{}, false
}

// sane accepts years 1970 to 9999 ("*" is the only way to say never, and no file of
// MOMspider's predates it).
func sane(t time.Time) (time.Time, bool) {
	if y := t.UTC().Year(); y < 1970 || y > 9999 {
		return time.Time{}, false
	}
	return t.UTC(), true
}

// FormatDate writes an expiry as MOMspider did, with its brackets: "[*]" for the zero
// time, else "[Sat, 02 Apr 1994 00:00:00 GMT]".
func FormatDate(t time.Time) string {
	if t.IsZero() {
		return "[*]"
	}
	return "[" + t.UTC().Format(http.TimeFormat) + "]"
}

// splitEntry splits "Type value [date]" into its parts; the bracketed date is optional.
func splitEntry(n int, line string) (typ, value string, expires time.Time, err error) {
	rest := strings.TrimSpace(line)
	var date string
	if strings.HasSuffix(rest, "]") {
		i := strings.LastIndexByte(rest, '[')
		if i < 0 {
			return "", "", time.Time{}, lineErr(n, "a ']' without its '['")
		}
		date, rest = rest[i+1:len(rest)-1], strings.TrimSpace(rest[:i])
		var ok bool
		if expires, ok = ParseDate(date); !ok {
			return "", "", time.Time{}, lineErr(n, "cannot read the date %q", clip(date))
		}
	}
	f := strings.Fields(rest)
	switch {
	case len(f) < 2:
		return "", "", time.Time{}, lineErr(n, "want an entry type and a value, got %q", clip(rest))
	case len(f) > 2:
		return "", "", time.Time{}, lineErr(n, "unexpected text after the value: %q", clip(strings.Join(f[2:], " ")))
	}
	return f[0], f[1], expires, nil
}

// comment reports whether a line carries no entry.
func comment(line string) bool {
	s := strings.TrimSpace(line)
	return s == "" || s[0] == '#'
}

// clip shortens text quoted in an error message.
func clip(s string) string {
	if len(s) <= 60 {
		return s
	}
	i := 60
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

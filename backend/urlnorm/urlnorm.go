// Package urlnorm gives URLs their canonical form, so that two spellings of the same
// resource compare equal everywhere Mundaneum stores, queues or compares a URL.
//
// The canonical form follows RFC 3986 section 6 (syntax- and scheme-based normalisation)
// plus common crawler practice: lower-case scheme and host, IDN hosts in punycode, no
// default port, no dot segments, normalised percent-encoding, no fragment, no userinfo,
// query parameters sorted by key and well-known session-id parameters removed. Only http
// and https URLs are accepted. Relative references are resolved the way browsers resolve
// them (WHATWG URL for the special schemes http and https): surrounding whitespace is
// trimmed, tabs and newlines are removed, backslashes count as slashes before the query.
package urlnorm

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ErrScheme is returned for URLs whose scheme is not http or https.
var ErrScheme = errors.New("urlnorm: only http and https urls are supported")

// ErrInvalid is returned for URLs that cannot be parsed or have an invalid host or port.
var ErrInvalid = errors.New("urlnorm: invalid url")

// MaxLength is the longest URL (in bytes) that Parse and Resolve accept, before and after
// normalisation.
const MaxLength = 8 << 10

// Parse parses raw (an absolute URL) and returns it normalised. Non-http(s) URLs give
// ErrScheme; anything else that cannot be a valid http(s) URL gives ErrInvalid.
func Parse(raw string) (*url.URL, error) {
	if len(raw) > MaxLength {
		return nil, fmt.Errorf("%w: longer than %d bytes", ErrInvalid, MaxLength)
	}
	s := cleanRef(raw)
	scheme, rest, ok := splitScheme(s)
	if !ok {
		return nil, fmt.Errorf("%w: %q is not absolute", ErrInvalid, abbrev(raw))
	}
	if scheme != "http" && scheme != "https" {
		return nil, fmt.Errorf("%w: scheme %q", ErrScheme, abbrev(scheme))
	}
	return parseAbsolute(scheme, rest)
}

// Normalize is Parse followed by String: the canonical string form of raw.
func Normalize(raw string) (string, error) {
	u, err := Parse(raw)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// Resolve resolves ref, a reference as found in a page (relative, protocol-relative,
// absolute, with stray whitespace...) against base and normalises the result. References
// with another scheme than http or https (javascript:, mailto:, data:, ftp:...) give
// ErrScheme. base must be an absolute http(s) URL.
func Resolve(base *url.URL, ref string) (*url.URL, error) {
	if base == nil || base.Host == "" || base.Opaque != "" {
		return nil, fmt.Errorf("%w: base url is not absolute", ErrInvalid)
	}
	baseScheme := strings.ToLower(base.Scheme)
	if baseScheme != "http" && baseScheme != "https" {
		return nil, fmt.Errorf("%w: base scheme %q", ErrScheme, abbrev(base.Scheme))
	}
	if len(ref) > MaxLength {
		return nil, fmt.Errorf("%w: longer than %d bytes", ErrInvalid, MaxLength)
	}
	s := cleanRef(ref)
	if scheme, rest, ok := splitScheme(s); ok {
		if scheme != "http" && scheme != "https" {
			return nil, fmt.Errorf("%w: scheme %q", ErrScheme, abbrev(scheme))
		}
		rest = slashBackslashes(rest)
		if scheme != baseScheme || strings.HasPrefix(rest, "//") {
			return parseAbsolute(scheme, rest)
		}
		// "http:foo" against an http base is relative (RFC 3986 5.2.2 non-strict
		// parsers, and WHATWG URL).
		s = rest
	} else {
		s = slashBackslashes(s)
	}
	if strings.HasPrefix(s, "//") {
		// Protocol-relative: any number of slashes introduces the authority.
		return parseAbsolute(baseScheme, s)
	}
	r, err := url.Parse(escapeBytes(s))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	b := *base
	b.Scheme = baseScheme
	return canon(b.ResolveReference(r))
}

// Origin returns "scheme://host[:port]" of u, with the default port omitted: the key
// under which robots.txt and politeness state are kept.
func Origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if port == defaultPort(scheme) {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host
}

// parseAbsolute parses the part of an http(s) URL after "scheme:". Like WHATWG URL for
// special schemes it ignores how many slashes (or backslashes) precede the authority.
func parseAbsolute(scheme, rest string) (*url.URL, error) {
	rest = slashBackslashes(rest)
	rest = strings.TrimLeft(rest, "/")
	if rest == "" {
		return nil, fmt.Errorf("%w: no host", ErrInvalid)
	}
	u, err := url.Parse(scheme + "://" + escapeBytes(rest))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return canon(u)
}

// canon returns the canonical form of the absolute URL u.
func canon(u *url.URL) (*url.URL, error) {
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return nil, fmt.Errorf("%w: scheme %q", ErrScheme, abbrev(u.Scheme))
	}
	if u.Opaque != "" {
		return nil, fmt.Errorf("%w: opaque url", ErrInvalid)
	}
	host, err := canonHost(u.Hostname(), u.Port(), scheme, strings.HasPrefix(u.Host, "["))
	if err != nil {
		return nil, err
	}
	p := canonPath(u.EscapedPath())
	dec, err := url.PathUnescape(p)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	out := &url.URL{Scheme: scheme, Host: host, Path: dec, RawQuery: canonQuery(u.RawQuery)}
	if out.EscapedPath() != p {
		out.RawPath = p
	}
	if n := len(out.String()); n > MaxLength {
		return nil, fmt.Errorf("%w: normalised url has %d bytes, more than %d", ErrInvalid, n, MaxLength)
	}
	return out, nil
}

func defaultPort(scheme string) string {
	switch scheme {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}

// cleanRef trims leading and trailing C0 controls and spaces, removes tabs and newlines
// anywhere (as WHATWG URL does) and drops the fragment.
func cleanRef(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	if strings.ContainsAny(s, "\t\r\n") {
		s = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\r' || r == '\n' {
				return -1
			}
			return r
		}, s)
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	return s
}

// splitScheme splits "scheme:rest" when s starts with an RFC 3986 scheme; the scheme is
// returned lower-cased.
func splitScheme(s string) (scheme, rest string, ok bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.':
			if i == 0 {
				return "", "", false
			}
		case c == ':':
			if i == 0 {
				return "", "", false
			}
			return strings.ToLower(s[:i]), s[i+1:], true
		default:
			return "", "", false
		}
	}
	return "", "", false
}

// slashBackslashes turns backslashes before the query into slashes, as browsers do for
// http and https URLs.
func slashBackslashes(s string) string {
	end := strings.IndexByte(s, '?')
	if end < 0 {
		end = len(s)
	}
	if !strings.Contains(s[:end], `\`) {
		return s
	}
	return strings.ReplaceAll(s[:end], `\`, "/") + s[end:]
}

// escapeBytes makes s acceptable to url.Parse: control characters and spaces are
// percent-encoded and a '%' not followed by two hex digits becomes "%25".
func escapeBytes(s string) string {
	need := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c == 0x7f || c == '%' && !isEscape(s, i) {
			need = true
			break
		}
	}
	if !need {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c <= ' ' || c == 0x7f:
			writeEscape(&b, c)
		case c == '%' && !isEscape(s, i):
			b.WriteString("%25")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func abbrev(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}

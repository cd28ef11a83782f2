package urlnorm

import (
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// hostProfile is idna's lookup profile (UTS 46 mapping, no transitional processing,
// Bidi and joiner rules) relaxed the way browsers relax it: underscores are allowed
// (STD3 rules off) and hyphen positions are not checked, so real hosts such as
// "r3---sn-abc.example.com" or "my_host.example.com" stay valid. DNS lengths are
// verified. What the mapping lets through is then limited to [a-z0-9._-].
var hostProfile = idna.New(
	idna.MapForLookup(),
	idna.Transitional(false),
	idna.BidiRule(),
	idna.StrictDomainName(false),
	idna.CheckHyphens(false),
	idna.CheckJoiners(true),
	idna.VerifyDNSLength(true),
)

// canonHost returns the canonical host[:port] for the URL's host name and port.
func canonHost(name, port, scheme string, bracketed bool) (string, error) {
	var host string
	if bracketed || strings.Contains(name, ":") {
		a, err := netip.ParseAddr(name)
		if err != nil || !a.Is6() || a.Zone() != "" {
			return "", fmt.Errorf("%w: bad ipv6 host %q", ErrInvalid, abbrev(name))
		}
		host = "[" + a.String() + "]"
	} else {
		name = strings.TrimSuffix(name, ".")
		if name == "" {
			return "", fmt.Errorf("%w: no host", ErrInvalid)
		}
		h, err := asciiHost(name)
		if err != nil {
			return "", err
		}
		host = h
	}
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n <= 0 || n > 65535 {
			return "", fmt.Errorf("%w: bad port %q", ErrInvalid, abbrev(port))
		}
		if p := strconv.Itoa(n); p != defaultPort(scheme) {
			host += ":" + p
		}
	}
	return host, nil
}

// asciiHost converts a registered name to its lower-case ASCII (punycode) form and checks it.
func asciiHost(name string) (string, error) {
	// Plain ASCII names skip the IDNA machinery; punycode labels ("xn--") do not, their
	// encoding must be checked.
	h := strings.ToLower(name)
	simple := !strings.Contains(h, "xn--")
	for i := 0; simple && i < len(h); i++ {
		simple = isHostByte(h[i])
	}
	if !simple {
		if !utf8.ValidString(name) {
			return "", fmt.Errorf("%w: host %q is not utf-8", ErrInvalid, abbrev(name))
		}
		var err error
		h, err = hostProfile.ToASCII(name)
		if err != nil {
			return "", fmt.Errorf("%w: host %q: %w", ErrInvalid, abbrev(name), err)
		}
		// The canonical form must be a fixed point, or a URL would change each time
		// it is normalised.
		if again, err := hostProfile.ToASCII(h); err != nil || again != h {
			return "", fmt.Errorf("%w: host %q has no stable ascii form", ErrInvalid, abbrev(name))
		}
	}
	if len(h) > 253 {
		return "", fmt.Errorf("%w: host longer than 253 bytes", ErrInvalid)
	}
	label := 0
	for i := 0; i < len(h); i++ {
		c := h[i]
		if c == '.' {
			if label == 0 {
				return "", fmt.Errorf("%w: empty label in host %q", ErrInvalid, abbrev(h))
			}
			label = 0
			continue
		}
		if !isHostByte(c) {
			return "", fmt.Errorf("%w: character %q in host %q", ErrInvalid, c, abbrev(h))
		}
		label++
		if label > 63 {
			return "", fmt.Errorf("%w: label longer than 63 bytes in host", ErrInvalid)
		}
	}
	if label == 0 {
		return "", fmt.Errorf("%w: empty label in host %q", ErrInvalid, abbrev(h))
	}
	return h, nil
}

// isHostByte reports whether c may appear in a canonical (lower-case) host name.
func isHostByte(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.'
}

// canonPath normalises an escaped path: percent-encoding, jsessionid path parameters,
// dot segments, and "/" for the empty path.
func canonPath(p string) string {
	if p == "" {
		return "/"
	}
	p = normPercent(p, pathByte)
	p = stripJSessionID(p)
	if p[0] != '/' {
		p = "/" + p
	}
	return removeDotSegments(p)
}

// canonQuery normalises a raw query: empty parameters dropped, percent-encoding
// normalised, session-id parameters removed, parameters sorted by key and then value,
// repeated ones kept once. Faceted navigation adds, repeats and reorders parameters: none of
// that makes a new URL.
func canonQuery(q string) string {
	if q == "" {
		return ""
	}
	parts := strings.Split(q, "&")
	kept := parts[:0]
	for _, part := range parts {
		if part == "" {
			continue
		}
		part = normPercent(part, queryByte)
		if isSessionParam(part) {
			continue
		}
		kept = append(kept, part)
	}
	slices.SortFunc(kept, func(a, b string) int {
		if c := strings.Compare(paramKey(a), paramKey(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return strings.Join(slices.Compact(kept), "&")
}

func paramKey(p string) string {
	if i := strings.IndexByte(p, '='); i >= 0 {
		return p[:i]
	}
	return p
}

// isSessionParam reports whether the (normalised) query parameter p is a session id:
// PHPSESSID, JSESSIONID, ASPSESSIONID*, sessionid, session_id, sessid, CFID, CFTOKEN,
// zenid, osCsid, or sid or s with a value of 32 or more hex digits.
func isSessionParam(p string) bool {
	key, val, _ := strings.Cut(p, "=")
	if len(key) > 64 {
		return false
	}
	k := strings.ToLower(key)
	switch {
	case k == "phpsessid", k == "jsessionid", strings.HasPrefix(k, "aspsessionid"), k == "sessionid",
		k == "session_id", k == "sessid", k == "cfid", k == "cftoken", k == "zenid", k == "oscsid":
		return true
	case k == "sid", k == "s":
		if len(val) < 32 {
			return false
		}
		for i := 0; i < len(val); i++ {
			if unhex(val[i]) < 0 {
				return false
			}
		}
		return true
	}
	return false
}

// stripJSessionID removes ";jsessionid=..." parameters from the path segments of p.
func stripJSessionID(p string) string {
	if !strings.Contains(strings.ToLower(p), ";jsessionid") {
		return p
	}
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		if !strings.Contains(seg, ";") {
			continue
		}
		params := strings.Split(seg, ";")
		kept := params[:1]
		for _, prm := range params[1:] {
			name, _, _ := strings.Cut(prm, "=")
			if strings.EqualFold(name, "jsessionid") {
				continue
			}
			kept = append(kept, prm)
		}
		segs[i] = strings.Join(kept, ";")
	}
	return strings.Join(segs, "/")
}

// removeDotSegments implements RFC 3986 5.2.4 for a path that starts with "/".
func removeDotSegments(p string) string {
	if !strings.Contains(p, "/.") {
		return p
	}
	segs := strings.Split(p[1:], "/")
	out := make([]string, 0, len(segs))
	last := len(segs) - 1
	for i, s := range segs {
		switch s {
		case ".":
			if i == last {
				out = append(out, "")
			}
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if i == last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	return "/" + strings.Join(out, "/")
}

// normPercent normalises percent-encoding in s: escapes of unreserved characters are
// decoded, other escapes get upper-case hex, bytes for which keep is false are encoded,
// and a '%' that starts no valid escape becomes "%25".
func normPercent(s string, keep func(byte) bool) string {
	clean := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' || !keep(c) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' {
			if !isEscape(s, i) {
				b.WriteString("%25")
				continue
			}
			d := byte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			if isUnreserved(d) {
				b.WriteByte(d)
			} else {
				writeEscape(&b, d)
			}
			i += 2
			continue
		}
		if keep(c) {
			b.WriteByte(c)
		} else {
			writeEscape(&b, c)
		}
	}
	return b.String()
}

func isEscape(s string, i int) bool {
	return i+2 < len(s) && unhex(s[i+1]) >= 0 && unhex(s[i+2]) >= 0
}

func writeEscape(b *strings.Builder, c byte) {
	const hex = "0123456789ABCDEF"
	b.WriteByte('%')
	b.WriteByte(hex[c>>4])
	b.WriteByte(hex[c&15])
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}

// isUnreserved reports RFC 3986 unreserved characters.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

func isSubDelim(c byte) bool {
	switch c {
	case '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=':
		return true
	}
	return false
}

// NormalizeEscapes normalises percent-encoding in s the way canonical URLs are encoded:
// escapes of unreserved characters are decoded, other escapes get upper-case hex, bytes
// for which literal is false are encoded, and a '%' that starts no valid escape becomes
// "%25". Other packages that compare URL parts (robots.txt rules) use it so that both
// sides are in one encoding.
func NormalizeEscapes(s string, literal func(byte) bool) string { return normPercent(s, literal) }

// QueryByte reports bytes that may stay literal in a query (pchar, '/' and '?').
func QueryByte(c byte) bool { return queryByte(c) }

// pathByte reports bytes that may stay literal in a path (pchar and '/').
func pathByte(c byte) bool {
	return isUnreserved(c) || isSubDelim(c) || c == ':' || c == '@' || c == '/'
}

// queryByte reports bytes that may stay literal in a query (pchar, '/' and '?').
func queryByte(c byte) bool {
	return pathByte(c) || c == '?'
}

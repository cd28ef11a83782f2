package extract

import (
	"bytes"
	"strings"
)

// The fast path resolves the common link shapes (absolute http(s) URLs,
// root-relative and relative paths, query-only references) made only of
// characters that net/url passes through unchanged and free of dot segments, by
// concatenation, with one allocation. It gives exactly what resolveSlow gives
// (FuzzResolve checks this); anything else takes the slow path.

// urlSafe marks the bytes net/url keeps as they are in a path or query.
var urlSafe = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range "-._~!$&'()*+,;=:@/?" {
		t[c] = true
	}
	return t
}()

func allSafe(b []byte) bool {
	for _, c := range b {
		if !urlSafe[c] {
			return false
		}
	}
	return true
}

// safeHost reports whether h is a plain host name or IPv4 address with an
// optional numeric port, which net/url keeps as is.
func safeHost(h string) bool {
	if h == "" {
		return false
	}
	name, port, hasPort := strings.Cut(h, ":")
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	if hasPort {
		for i := 0; i < len(port); i++ {
			if port[i] < '0' || port[i] > '9' {
				return false
			}
		}
	}
	return true
}

// hasDotSegment reports whether the path part of b (before '?') may hold "." or
// ".." segments, which net/url would remove.
func hasDotSegment(b []byte) bool {
	if i := bytes.IndexByte(b, '?'); i >= 0 {
		b = b[:i]
	}
	return len(b) > 0 && b[0] == '.' || bytes.Contains(b, []byte("/."))
}

// setFastBase precomputes the base's prefix ("http://host") and directory, or
// disables the fast path for bases that need net/url.
func (p *parser) setFastBase() {
	p.prefix, p.basePath, p.baseDir = "", "", ""
	b := p.base
	if b == nil || (b.Scheme != "http" && b.Scheme != "https") || b.User != nil || b.Opaque != "" || !safeHost(b.Host) {
		return
	}
	ep := b.EscapedPath()
	if !allSafe([]byte(ep)) || hasDotSegment([]byte(ep)) || strings.Contains(ep, "?") || strings.HasPrefix(ep, "//") {
		return
	}
	p.prefix = b.Scheme + "://" + b.Host
	p.basePath = ep
	p.baseDir = ep[:strings.LastIndexByte(ep, '/')+1]
	if p.baseDir == "" {
		p.baseDir = "/"
	}
}

// fastResolve resolves h (trimmed, fragment cut, non-empty) by concatenation
// when that is certain to match net/url; ok is false when it cannot tell.
func (p *parser) fastResolve(h []byte) (string, bool) {
	if !allSafe(h) {
		return "", false
	}
	if n := httpPrefixLen(h); n > 0 {
		rest := h[n:]
		end := bytes.IndexAny(rest, "/?")
		if end < 0 {
			end = len(rest)
		}
		if !safeHost(string(rest[:end])) || bytes.HasPrefix(rest[end:], []byte("//")) || hasDotSegment(rest[end:]) {
			return "", false
		}
		scheme := "http://"
		if n == len("https://") {
			scheme = "https://"
		}
		return concat(scheme, "", rest), true
	}
	if p.prefix == "" {
		return "", false
	}
	switch h[0] {
	case '/':
		if len(h) > 1 && h[1] == '/' || hasDotSegment(h) {
			return "", false
		}
		return concat(p.prefix, "", h), true
	case '?':
		return concat(p.prefix, p.basePath, h), true
	}
	// A relative path. Leading "./" and "../" segments (documentation sites are full of
	// "../../std/index.html") move within the base's directory, never above its root;
	// any other dot segment takes the slow path.
	dir := p.baseDir
	for {
		if bytes.HasPrefix(h, []byte("./")) {
			h = h[2:]
		} else if bytes.HasPrefix(h, []byte("../")) {
			h = h[3:]
			if len(dir) > 1 {
				dir = dir[:strings.LastIndexByte(dir[:len(dir)-1], '/')+1]
			}
		} else {
			break
		}
	}
	// A colon in the first segment would make it a scheme.
	first := h
	if end := bytes.IndexAny(h, "/?"); end >= 0 {
		first = h[:end]
	}
	if bytes.IndexByte(first, ':') >= 0 || hasDotSegment(h) || len(h) > 0 && h[0] == '/' {
		return "", false
	}
	return concat(p.prefix, dir, h), true
}

// httpPrefixLen returns the length of a leading "http://" or "https://" in any
// letter case, or 0.
func httpPrefixLen(h []byte) int {
	if len(h) >= 7 && bytes.EqualFold(h[:7], []byte("http://")) {
		return 7
	}
	if len(h) >= 8 && bytes.EqualFold(h[:8], []byte("https://")) {
		return 8
	}
	return 0
}

func concat(a, b string, c []byte) string {
	var sb strings.Builder
	sb.Grow(len(a) + len(b) + len(c))
	sb.WriteString(a)
	sb.WriteString(b)
	sb.Write(c)
	return sb.String()
}

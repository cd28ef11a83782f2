package extract

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxSrcset bounds the candidates taken from one srcset attribute.
const maxSrcset = 32

type linkStatus int8

const (
	linkOK   linkStatus = iota
	linkSkip            // not a link to follow: empty, in-page, or another scheme
	linkBad             // looks like a web link but does not parse
)

// addLink resolves href and records it as a link of kind, unless it is skipped,
// bad, or already recorded. It returns the link's index (-1 if none) and whether
// this call created it. A repeat fills in an empty anchor.
func (p *parser) addLink(href []byte, kind, anchor string, rel []byte) (int, bool) {
	if len(p.links) >= MaxLinks || p.inert > 0 {
		return -1, false // full, or inside a <template>, whose content is inert
	}
	u, st := p.resolve(href)
	frag := p.fragmentOf(href, kind)
	switch {
	case st == linkSkip && frag != nil && isSelf(href):
		if p.base == p.page { // no <base>: "#x" is a part of this very document
			p.selfFragment(frag)
			return -1, false
		}
		u = p.selfURL() // "#x" against a <base>: a part of that document
	case st == linkSkip:
		return -1, false
	case st == linkBad:
		p.problem(probBadLink)
		return -1, false
	}
	k := linkKey{u, kind}
	if i, ok := p.seen[k]; ok {
		if p.links[i].Anchor == "" {
			p.links[i].Anchor = anchor
		}
		p.addFragment(i, frag)
		return i, false
	}
	l := Link{URL: u, Kind: kind, Anchor: anchor}
	if len(rel) > 0 {
		rel = p.lowered(rel)
		l.Rel = p.relString(rel)
		l.NoFollow = hasToken(rel, "nofollow") || hasToken(rel, "ugc") || hasToken(rel, "sponsored")
	}
	p.seen[k] = len(p.links)
	p.links = append(p.links, l)
	p.addFragment(len(p.links)-1, frag)
	return len(p.links) - 1, true
}

// resolve turns an attribute value into an absolute http(s) URL without fragment, in
// valid UTF-8 (see validURL).
func (p *parser) resolve(href []byte) (string, linkStatus) {
	u, st := p.resolveRaw(href)
	return validURL(u), st
}

// validURL percent-encodes the bytes of u that are not valid UTF-8, as a browser sends
// them: the URL names the same resource, and every string of a Summary is valid UTF-8
// (a page's bytes reach links and the canonical URL unchanged otherwise).
func validURL(u string) string {
	if utf8.ValidString(u) {
		return u
	}
	var b strings.Builder
	for i := 0; i < len(u); {
		r, n := utf8.DecodeRuneInString(u[i:])
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, "%%%02X", u[i])
		} else {
			b.WriteString(u[i : i+n])
		}
		i += n
	}
	return b.String()
}

func (p *parser) resolveRaw(href []byte) (string, linkStatus) {
	h := trimSpace(href)
	if i := bytes.IndexByte(h, '#'); i >= 0 {
		h = h[:i] // the fragment is dropped anyway, so it cannot make a link bad
	}
	if len(h) == 0 {
		return "", linkSkip // the document itself
	}
	if len(h) > MaxURL {
		return "", linkBad
	}
	if u, ok := p.fastResolve(h); ok {
		return u, linkOK
	}
	if s, ok := scheme(h); ok && !isHTTP(s) {
		return "", linkSkip // mailto:, javascript:, data:, ftp:, ...
	}
	return resolveSlow(p.base, h)
}

// resolveSlow resolves h (fragment already cut) with net/url.
func resolveSlow(base *url.URL, h []byte) (string, linkStatus) {
	s := string(h)
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.Map(dropTabNewline, s) // the URL standard ignores these
	}
	var u *url.URL
	var err error
	if base != nil {
		u, err = base.Parse(s)
	} else {
		u, err = url.Parse(s)
	}
	if err != nil {
		return "", linkBad
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", linkSkip // relative to a non-web base, or no base at all
	}
	if u.Host == "" || u.Opaque != "" {
		return "", linkBad // "http:///x", "http:x"
	}
	u.Fragment, u.RawFragment = "", ""
	out := u.String()
	// net/url takes "//::0" against an http base for the host "::0", whose URL does not
	// parse again (FuzzHTML found it): a link is only what reads back as a URL.
	if _, err := url.Parse(out); err != nil {
		return "", linkBad
	}
	return out, linkOK
}

// setBase makes the first <base href> the base for relative links.
func (p *parser) setBase(href []byte) {
	s := string(trimSpace(href))
	var u *url.URL
	var err error
	if p.page != nil {
		u, err = p.page.Parse(s)
	} else {
		u, err = url.Parse(s)
	}
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		p.problem(probBadBase)
		return
	}
	p.base = u
	p.setFastBase()
}

// findBase returns the href of the document's first <base href>, which governs
// every relative link, even those before it. The tokenizer pre-pass runs only
// when "<base" occurs at all.
func findBase(body []byte) ([]byte, bool) {
	if !hasTagPrefix(body, "base") {
		return nil, false
	}
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return nil, false
		case html.StartTagToken, html.SelfClosingTagToken:
			if tagAtom(z.Raw()) != atom.Base {
				continue
			}
			for more := true; more; {
				var k, v []byte
				k, v, more = z.TagAttr()
				if string(k) == "href" {
					return nonNil(v), true
				}
			}
		}
	}
}

// hasTagPrefix reports whether b contains '<' followed by name in any case.
func hasTagPrefix(b []byte, name string) bool {
	for {
		i := bytes.IndexByte(b, '<')
		if i < 0 || len(b)-i <= len(name) {
			return false
		}
		b = b[i+1:]
		match := true
		for j := 0; j < len(name); j++ {
			if b[j]|0x20 != name[j] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
}

// splitSrcset appends the URLs of a srcset attribute's candidates to out,
// following the HTML "parse a srcset attribute" steps: a URL runs to whitespace,
// trailing commas end it, and descriptors run to a comma outside parentheses.
func splitSrcset(s []byte, out [][]byte) [][]byte {
	i := 0
	for i < len(s) && len(out) < maxSrcset {
		for i < len(s) && (isSpace(s[i]) || s[i] == ',') {
			i++
		}
		if i >= len(s) {
			break
		}
		start := i
		for i < len(s) && !isSpace(s[i]) {
			i++
		}
		u := s[start:i]
		if u[len(u)-1] == ',' {
			u = bytes.TrimRight(u, ",")
		} else {
			depth := 0
			for ; i < len(s); i++ {
				c := s[i]
				if c == '(' {
					depth++
				} else if c == ')' && depth > 0 {
					depth--
				} else if c == ',' && depth == 0 {
					break
				}
			}
		}
		if len(u) > 0 {
			out = append(out, u)
		}
	}
	return out
}

// scheme returns the scheme of an absolute URL reference ("mailto" of
// "mailto:x"), or false for a relative reference.
func scheme(h []byte) ([]byte, bool) {
	for i, c := range h {
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return h[:i], true
		default:
			return nil, false
		}
	}
	return nil, false
}

func isHTTP(s []byte) bool {
	return bytes.EqualFold(s, []byte("http")) || bytes.EqualFold(s, []byte("https"))
}

func dropTabNewline(r rune) rune {
	if r == '\t' || r == '\n' || r == '\r' {
		return -1
	}
	return r
}

// relString returns a lower-case rel value whitespace-collapsed, without
// allocating for the common values.
func (p *parser) relString(rel []byte) string {
	switch string(rel) {
	case "stylesheet":
		return "stylesheet"
	case "icon":
		return "icon"
	case "nofollow":
		return "nofollow"
	case "canonical":
		return "canonical"
	case "alternate":
		return "alternate"
	case "noopener", "noopener noreferrer":
		if len(rel) == len("noopener") {
			return "noopener"
		}
		return "noopener noreferrer"
	case "preload":
		return "preload"
	case "preconnect":
		return "preconnect"
	case "dns-prefetch":
		return "dns-prefetch"
	}
	return p.collapse(rel, MaxAnchor)
}

// hasToken reports whether the space-separated list s contains tok (s lower-case).
func hasToken(s []byte, tok string) bool {
	for len(s) > 0 {
		i := 0
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		s = s[i:]
		j := 0
		for j < len(s) && !isSpace(s[j]) {
			j++
		}
		if string(s[:j]) == tok {
			return true
		}
		s = s[j:]
	}
	return false
}

// lowered returns a lower-case copy of v (nil stays nil): attribute values may be bytes of
// the caller's document (see scan), which is never written to.
func (p *parser) lowered(v []byte) []byte {
	if v == nil {
		return nil
	}
	if len(p.low) > 4096 {
		p.low = nil // the copies handed out stay valid; a new buffer takes the next
	}
	start := len(p.low)
	p.low = append(p.low, v...)
	out := p.low[start:len(p.low):len(p.low)]
	lowerASCII(out)
	return out
}

func lowerASCII(b []byte) {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
}

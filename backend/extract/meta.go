package extract

import (
	"strconv"
	"strings"
)

// onMeta handles <meta>: named values, robots directives, http-equiv refresh,
// expires and content-language.
func (p *parser) onMeta() {
	var name, equiv, content []byte
	it := p.attrs()
	for k, v, ok := it.next(); ok; k, v, ok = it.next() {
		switch string(k) {
		case "name":
			first(&name, v)
		case "http-equiv":
			first(&equiv, v)
		case "content":
			first(&content, v)
		}
	}
	name, equiv = trimSpace(name), trimSpace(equiv)
	if content == nil {
		return
	}
	name, equiv = p.lowered(name), p.lowered(equiv)
	switch string(name) {
	case "description":
		p.setMeta(&p.description, content)
	case "keywords":
		p.setMeta(&p.keywords, content)
	case "author":
		p.setMeta(&p.author, content)
	case "owner":
		p.setMeta(&p.owner, content)
	case "generator":
		p.setMeta(&p.generator, content)
	case "expires":
		p.setMeta(&p.expires, content)
	case "language", "content-language":
		if p.metaLang == "" {
			p.metaLang = langTag(p.collapse(content, 64))
		}
	case "robots", "mundaneum":
		ni, nf := directives(string(content))
		p.noIndex = p.noIndex || ni
		p.noFollow = p.noFollow || nf
	}
	switch string(equiv) {
	case "refresh":
		if target, _, ok := RefreshURL(string(content)); ok && target != "" {
			p.addLink([]byte(target), KindRefresh, "", nil)
		}
	case "expires":
		p.setMeta(&p.expires, content)
	case "owner":
		// MOMspider's <META http-equiv="Owner" content="AnyOwnerAlias">.
		p.setMeta(&p.owner, content)
	case "content-language":
		if p.metaLang == "" {
			p.metaLang = langTag(p.collapse(content, 64))
		}
	}
}

// setMeta sets *field from the first meta element that gives it.
func (p *parser) setMeta(field *string, content []byte) {
	if *field == "" {
		*field = p.collapse(content, MaxMeta)
	}
}

// langTag returns the first language of a lang or Content-Language value, lower-case.
func langTag(s string) string {
	if i := strings.IndexAny(s, ", ;"); i >= 0 {
		s = s[:i]
	}
	return strings.ToLower(s)
}

// directives reads a robots directive list ("noindex, nofollow", "none"); any
// separator of commas and whitespace is accepted.
func directives(s string) (noindex, nofollow bool) {
	for s != "" {
		i := strings.IndexAny(s, ", \t\n\r\f")
		tok := s
		if i >= 0 {
			tok, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		switch {
		case strings.EqualFold(tok, "noindex"):
			noindex = true
		case strings.EqualFold(tok, "nofollow"):
			nofollow = true
		case strings.EqualFold(tok, "none"):
			noindex, nofollow = true, true
		}
	}
	return noindex, nofollow
}

// XRobots reads X-Robots-Tag header values for the crawler whose user-agent token
// is agent (matched case-insensitively). Each value is a comma-separated list of
// directives, which may start with "agent:" to address one crawler; that prefix
// holds until another agent prefix in the same value. Directives for no agent
// apply to all. Only noindex, nofollow and none matter here; directives that take
// a value ("unavailable_after: date", "max-snippet: 20") are not taken for agents.
func XRobots(values []string, agent string) (noindex, nofollow bool) {
	for _, v := range values {
		applies := true // until an agent prefix says otherwise
		for item := range strings.SplitSeq(v, ",") {
			item = strings.TrimSpace(item)
			if i := strings.IndexByte(item, ':'); i >= 0 {
				prefix := strings.TrimSpace(item[:i])
				if !valuedDirective(prefix) {
					applies = agent != "" && strings.EqualFold(prefix, agent)
					item = strings.TrimSpace(item[i+1:])
				}
			}
			if !applies {
				continue
			}
			ni, nf := directives(item)
			noindex = noindex || ni
			nofollow = nofollow || nf
		}
	}
	return noindex, nofollow
}

// valuedDirective reports whether name is a robots directive written "name: value".
func valuedDirective(name string) bool {
	for _, d := range []string{"unavailable_after", "max-snippet", "max-image-preview", "max-video-preview"} {
		if strings.EqualFold(name, d) {
			return true
		}
	}
	return false
}

// RefreshURL parses the content of <meta http-equiv=refresh> ("5; url=next.html")
// following the HTML "shared declarative refresh steps". It returns the target as
// written (unresolved; "" for a reload of the same page), the delay in whole
// seconds, and false if the value is not a refresh at all.
func RefreshURL(content string) (target string, delay int, ok bool) {
	s := strings.TrimLeft(content, " \t\n\r\f")
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i == 0 && (len(s) == 0 || s[0] != '.') {
		return "", 0, false
	}
	if i > 0 {
		n, err := strconv.Atoi(s[:min(i, 9)])
		if err != nil {
			return "", 0, false
		}
		delay = n
	}
	for i < len(s) && ('0' <= s[i] && s[i] <= '9' || s[i] == '.') {
		i++
	}
	s = s[i:]
	if s == "" {
		return "", delay, true
	}
	if c := s[0]; c != ';' && c != ',' && !isSpace(c) {
		return "", 0, false
	}
	s = strings.TrimLeft(s, " \t\n\r\f")
	if s != "" && (s[0] == ';' || s[0] == ',') {
		s = s[1:]
	}
	s = strings.TrimLeft(s, " \t\n\r\f")
	if len(s) >= 3 && strings.EqualFold(s[:3], "url") {
		rest := strings.TrimLeft(s[3:], " \t\n\r\f")
		if rest != "" && rest[0] == '=' {
			s = strings.TrimLeft(rest[1:], " \t\n\r\f")
		}
	}
	if s != "" && (s[0] == '\'' || s[0] == '"') {
		q := s[0]
		s = s[1:]
		if j := strings.IndexByte(s, q); j >= 0 {
			s = s[:j]
		}
	}
	return strings.Trim(s, " \t\n\r\f"), delay, true
}

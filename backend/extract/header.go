package extract

import (
	"net/url"
	"strings"
)

// maxHeaderLinks bounds the links taken from Link headers.
const maxHeaderLinks = 64

// HeaderLinks reads HTTP Link header values (RFC 8288: `<uri>; rel="canonical", <uri>;
// rel=next`) into links of kind "link" with their rel, resolved against pageURL like the
// links of a page (http and https only, no fragment), at most 64. Malformed parts are
// skipped.
func HeaderLinks(values []string, pageURL *url.URL) []Link {
	var out []Link
	for _, v := range values {
		for len(v) > 0 && len(out) < maxHeaderLinks {
			var target, params string
			target, params, v = nextHeaderLink(v)
			if target == "" {
				continue
			}
			u, st := resolveSlow(pageURL, []byte(target))
			if st != linkOK {
				continue
			}
			rel := strings.ToLower(strings.Join(strings.Fields(headerParam(params, "rel")), " "))
			out = append(out, Link{URL: u, Kind: KindLink, Rel: rel})
		}
	}
	return out
}

// nextHeaderLink splits the first link-value off v: the URI between < and >, its
// parameters up to the next comma outside quotes, and the rest.
func nextHeaderLink(v string) (target, params, rest string) {
	v = strings.TrimLeft(v, " \t,")
	if !strings.HasPrefix(v, "<") {
		// Not a link-value: skip to the next comma outside quotes.
		_, rest = splitParams(v)
		return "", "", rest
	}
	end := strings.IndexByte(v, '>')
	if end < 0 {
		return "", "", ""
	}
	target = strings.TrimSpace(v[1:end])
	params, rest = splitParams(v[end+1:])
	if len(target) > MaxURL || strings.ContainsAny(target, "<\r\n") {
		return "", params, rest
	}
	return target, params, rest
}

// splitParams returns v up to the first comma that is not inside a quoted string, and what
// follows that comma.
func splitParams(v string) (params, rest string) {
	quoted := false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == ',' && !quoted:
			return v[:i], v[i+1:]
		}
	}
	return v, ""
}

// headerParam returns the value of the parameter name in `; a=b; rel="x y"`, unquoted.
func headerParam(params, name string) string {
	for len(params) > 0 {
		params = strings.TrimLeft(params, " \t;")
		key, after, ok := strings.Cut(params, "=")
		if !ok {
			return ""
		}
		key = strings.ToLower(strings.TrimSpace(key))
		after = strings.TrimLeft(after, " \t")
		var val string
		if strings.HasPrefix(after, `"`) {
			var b strings.Builder
			i := 1
			for ; i < len(after) && after[i] != '"'; i++ {
				if after[i] == '\\' && i+1 < len(after) {
					i++
				}
				b.WriteByte(after[i])
			}
			val, params = b.String(), after[min(i+1, len(after)):]
		} else {
			end := strings.IndexByte(after, ';')
			if end < 0 {
				end = len(after)
			}
			val, params = strings.TrimSpace(after[:end]), after[end:]
		}
		if key == name {
			return val
		}
	}
	return ""
}

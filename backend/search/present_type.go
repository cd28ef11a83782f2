package search

import (
	"net/url"
	"path"
	"strings"

	"mundaneum/backend/query"
)

// typeOf names a result's type: a family, else the media type, else the URL's extension.
func typeOf(contentType, rawURL string) string {
	ct := strings.ToLower(strings.TrimSpace(contentType))
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = strings.TrimSpace(ct[:i])
	}
	if ct != "" {
		for _, f := range query.Families {
			for _, m := range f.Media {
				if strings.HasPrefix(ct, strings.TrimSuffix(m, "*")) {
					return f.Name
				}
			}
		}
		return ct
	}
	ext := extOf(rawURL)
	if ext == "" {
		return ""
	}
	for _, f := range query.Families {
		for _, e := range f.Exts {
			if e == ext {
				return f.Name
			}
		}
	}
	return ext
}

// extOf returns the lower-case extension of a URL's path ("" if none).
func extOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	e := strings.ToLower(path.Ext(u.Path))
	if len(e) < 2 {
		return ""
	}
	return e[1:]
}

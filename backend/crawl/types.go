package crawl

import (
	"net/url"
	"path"
	"strings"

	"mundaneum/backend/summary"
)

// downloads reports whether the crawl fetches u: a page (no extension that says otherwise),
// or a document of a type the crawl downloads (a .pdf when PDFs are on).
func (c *Crawler) downloads(u *url.URL) bool {
	if LooksLikePage(u) {
		return true
	}
	ext := strings.ToLower(path.Ext(u.Path))
	return len(ext) > 1 && c.types.AcceptsExt(ext[1:])
}

// acceptHeader asks for the crawl's types first, anything else last (a server that
// negotiates sends what the crawl reads).
func acceptHeader(types summary.Types) string {
	h := "text/html,application/xhtml+xml"
	if types.Has("txt") {
		h += ",text/plain;q=0.9"
	}
	for _, t := range []struct{ typ, media string }{{"pdf", "application/pdf"}, {"feed", "application/rss+xml,application/atom+xml"},
		{"md", "text/markdown"}} {
		if types.Has(t.typ) {
			for _, m := range strings.Split(t.media, ",") {
				h += "," + m + ";q=0.8"
			}
		}
	}
	return h + ",*/*;q=0.1"
}

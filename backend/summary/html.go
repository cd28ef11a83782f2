package summary

import (
	"bytes"
	"context"

	"mundaneum/backend/extract"
	"mundaneum/backend/fetch"
)

// HTML is today's extractor (backend/extract), registered as one summariser among others.
func init() {
	Register(&Kind{Name: "html", Type: "html",
		Media: []string{"text/html", "application/xhtml+xml"},
		Exts:  []string{"html", "htm", "xhtml", "shtml"},
		Magic: looksHTML,
		Run: func(_ context.Context, in Input, b *Budget) (*Result, error) {
			text, enc := fetch.DecodeText(in.Body, in.ContentType)
			s := extract.Options{MaxText: b.MaxText}.HTML(text, in.URL)
			r := &Result{Summary: *s, Charset: enc}
			r.addAttr(AttrAuthor, s.Author)
			r.addAttr(AttrKeywords, s.Keywords)
			return r, nil
		}})
}

// looksHTML sniffs an HTML document by its first markup (WHATWG's sniffing rules, shortened).
func looksHTML(head []byte) bool {
	h := bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n\f")
	for _, p := range []string{"<!doctype html", "<html", "<head", "<body", "<title", "<!--"} {
		if len(h) >= len(p) && bytes.EqualFold(h[:len(p)], []byte(p)) {
			return true
		}
	}
	return false
}

package summary

import (
	"context"

	"mundaneum/backend/extract"
	"mundaneum/backend/fetch"
)

// Plain text: its words, and the bare URLs in it as links.
func init() {
	Register(&Kind{Name: "text", Type: "txt",
		Media: []string{"text/plain", "text/csv", "text/tab-separated-values"},
		Exts:  []string{"txt", "text", "asc", "log", "csv", "tsv"},
		Run: func(_ context.Context, in Input, b *Budget) (*Result, error) {
			text, enc := fetch.DecodeText(in.Body, in.ContentType)
			s := extract.Options{MaxText: b.MaxText}.Text(text, in.URL)
			return &Result{Summary: *s, Charset: enc}, nil
		}})
}

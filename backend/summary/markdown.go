package summary

import (
	"bytes"
	"context"
	"slices"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"

	"mundaneum/backend/extract"
	"mundaneum/backend/fetch"
)

// Markdown, rendered by goldmark (GitHub's dialect, bare URLs as links) and read as HTML
// is read: its headings, text and links; the title is its first heading.
func init() {
	Register(&Kind{Name: "markdown", Type: "md",
		Media: []string{"text/markdown", "text/x-markdown"},
		Exts:  []string{"md", "markdown", "mdown", "mkd"},
		Run:   markdownSummary})
}

var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM),
	goldmark.WithRendererOptions(html.WithUnsafe())) // raw HTML is only read by extract, never shown

func markdownSummary(_ context.Context, in Input, b *Budget) (*Result, error) {
	text, enc := fetch.DecodeText(in.Body, in.ContentType)
	truncated := false
	if len(text) > b.MaxText {
		text, truncated = text[:b.MaxText], true
	}
	var out bytes.Buffer
	out.Grow(len(text) + len(text)/4)
	if err := markdown.Convert(text, &out); err != nil {
		return nil, err
	}
	s := extract.Options{MaxText: b.MaxText}.HTML(out.Bytes(), in.URL)
	r := &Result{Summary: *s, Charset: enc}
	// The rendered HTML has no <title>: the first heading is the document's.
	r.Title = ""
	if h, _, _ := strings.Cut(s.Headings, " \n"); h != "" {
		r.Title = clip(h, extract.MaxTitle)
	}
	r.Problems = nil
	if truncated || slices.Contains(s.Problems, extract.ProblemTruncated) {
		r.problem(extract.ProblemTruncated)
	}
	return r, nil
}

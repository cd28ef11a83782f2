package library

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"mundaneum/backend/sanitize"
	"mundaneum/backend/urlnorm"
)

// Reports are Markdown (CommonMark with GitHub's tables, strikethrough, task lists and bare
// URLs as links), rendered by goldmark with raw HTML left out, then through the sanitiser
// like any crawled page: nothing a report holds can run script or load anything.

var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// RenderMarkdown turns a report's Markdown into sanitised HTML (a fragment) and lists the
// http(s) addresses it links to, in order, each once.
func RenderMarkdown(md string) (string, []string) {
	src := []byte(md)
	doc := markdown.Parser().Parse(text.NewReader(src))
	var links []string
	seen := map[string]bool{}
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest string
		switch l := n.(type) {
		case *ast.Link:
			dest = string(l.Destination)
		case *ast.AutoLink:
			dest = string(l.URL(src))
			if l.AutoLinkType == ast.AutoLinkURL && !strings.Contains(dest, "://") {
				dest = "http://" + dest
			}
		}
		if dest != "" {
			if u, err := urlnorm.Parse(dest); err == nil && !seen[u.String()] {
				seen[u.String()] = true
				links = append(links, dest)
			}
		}
		return ast.WalkContinue, nil
	})
	var buf bytes.Buffer
	if err := markdown.Renderer().Render(&buf, src, doc); err != nil {
		return "<p>" + strings.ReplaceAll(md, "<", "&lt;") + "</p>", links // goldmark renders to memory: unreachable
	}
	return sanitize.Fragment(buf.Bytes()), links
}

// Rendered is a report made ready to show.
type Rendered struct {
	// Document is a standalone sanitised document (a Content-Security-Policy that loads
	// nothing, no script) for a sandboxed frame.
	Document string
	Links    []string
}

// Render renders a report's text.
func (l *Library) Render(ctx context.Context, id int64) (Rendered, error) {
	n, err := l.st.LibNode(ctx, id)
	if err != nil {
		return Rendered{}, err
	}
	if n.Kind != KindReport {
		return Rendered{}, fmt.Errorf("#%d is a %s, not a report: %w", id, n.Kind, ErrInvalid)
	}
	return Preview(n.Title, n.Body), nil
}

// Preview renders Markdown that is not stored yet (the report editor's preview).
func Preview(title, md string) Rendered {
	frag, links := RenderMarkdown(md)
	return Rendered{Document: sanitize.HTML([]byte(frag), nil, title), Links: links}
}

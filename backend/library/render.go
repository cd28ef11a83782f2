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

// MarkdownText is what a report's Markdown reads as once rendered, as plain text: the words
// of its paragraphs, headings, lists, tables and code, without the marks (**, #, [](), `) and
// without raw HTML, which rendering leaves out too. Snippets of a report (a search's library
// hits) are cut from it, so that they show what the report's view shows.
func MarkdownText(md string) string {
	src := []byte(md)
	doc := markdown.Parser().Parse(text.NewReader(src))
	var b strings.Builder
	gap := func() {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
	}
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch t := n.(type) {
		case *ast.RawHTML, *ast.HTMLBlock:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			if entering {
				b.Write(t.Segment.Value(src))
				if t.SoftLineBreak() || t.HardLineBreak() {
					b.WriteByte(' ')
				}
			}
		case *ast.String:
			if entering {
				b.Write(t.Value)
			}
		case *ast.AutoLink:
			if entering {
				b.Write(t.Label(src))
			}
		case *ast.CodeBlock, *ast.FencedCodeBlock:
			if entering {
				gap()
				lines := n.Lines()
				for i := 0; i < lines.Len(); i++ {
					s := lines.At(i)
					b.Write(s.Value(src))
				}
			}
			return ast.WalkSkipChildren, nil
		default:
			if n.Type() == ast.TypeBlock {
				gap()
			} else if n.Kind().String() == "TableCell" && !entering {
				b.WriteByte(' ')
			}
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}

package library

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"mundaneum/backend/formats/bookmarks"
)

// Export formats.
const (
	FormatNetscape = "netscape"
	FormatJSON     = "json"
	FormatHTML     = "html"
)

// ExportReport says what an export wrote and what it could not.
type ExportReport struct {
	Format                              string
	Libraries, Pointers, Reports, Views int
	Left                                int    // postings the format has no place for
	Note                                string // why, when Left > 0
}

// tree is a subtree read from the store, children in their manual order.
type tree struct {
	nodes    []Node // parents before children
	children map[int64][]Node
}

func (l *Library) tree(ctx context.Context, id int64) (*tree, error) {
	ns, err := l.st.LibSubtree(ctx, id)
	if err != nil {
		return nil, err
	}
	t := &tree{nodes: ns, children: map[int64][]Node{}}
	for _, n := range ns[1:] {
		t.children[n.Parent] = append(t.children[n.Parent], n)
	}
	for _, cs := range t.children {
		sort.SliceStable(cs, func(i, j int) bool {
			if cs[i].Position != cs[j].Position {
				return cs[i].Position < cs[j].Position
			}
			return cs[i].ID < cs[j].ID
		})
	}
	return t, nil
}

func seconds(ms int64) int64 { return ms / 1000 }

// Export writes the library id and everything below it in format (netscape or json). A
// bookmark file has no place for reports without an address or views (the JSON tree keeps
// everything but passwords).
func (l *Library) Export(ctx context.Context, id int64, format string, w io.Writer) (ExportReport, error) {
	t, err := l.tree(ctx, id)
	if err != nil {
		return ExportReport{}, err
	}
	if t.nodes[0].Kind != KindLibrary {
		return ExportReport{}, fmt.Errorf("#%d is a %s: export a library: %w", id, t.nodes[0].Kind, ErrInvalid)
	}
	rep := ExportReport{Format: format}
	var reportsLeft, viewsLeft int
	images := map[int64]string{}
	var build func(n Node) (*bookmarks.Entry, error)
	build = func(n Node) (*bookmarks.Entry, error) {
		e := &bookmarks.Entry{Title: n.Title, URL: n.URL, Notes: n.Notes, Tags: n.Tags, Added: seconds(n.CreatedAt),
			Modified: seconds(n.UpdatedAt), Author: n.Author, Email: n.Email}
		switch n.Kind {
		case KindLibrary:
			e.Kind, e.Purpose, e.CreateOnly, e.Order = bookmarks.Folder, n.Purpose, n.CreateOnly, string(n.Sort)
			if format == FormatNetscape {
				e.Notes = n.Purpose
			}
			rep.Libraries++
		case KindPointer:
			e.Kind = bookmarks.Link
			rep.Pointers++
		case KindReport:
			e.Kind, e.Body = bookmarks.Report, n.Body
			if format == FormatNetscape {
				if n.URL == "" {
					reportsLeft++
					return nil, nil
				}
				e.Kind, e.Notes = bookmarks.Link, n.Body
			}
			rep.Reports++
		case KindView:
			if format == FormatNetscape {
				viewsLeft++
				return nil, nil
			}
			p, err := l.st.LibPosting(ctx, n.ID)
			if err != nil {
				return nil, err
			}
			if p.View == nil {
				return nil, nil
			}
			e.Kind, e.ViewName, e.ViewQuery = bookmarks.View, p.View.Name, p.View.Query
			rep.Views++
		}
		if format == FormatJSON && n.ImageID != 0 {
			if _, ok := images[n.ImageID]; !ok {
				img, err := l.st.LibImage(ctx, n.ImageID)
				if err != nil {
					return nil, err
				}
				images[n.ImageID] = img.DataURL()
			}
			e.Image = images[n.ImageID]
		}
		for _, c := range t.children[n.ID] {
			ce, err := build(c)
			if err != nil {
				return nil, err
			}
			if ce != nil {
				e.Children = append(e.Children, ce)
			}
		}
		return e, nil
	}
	root, err := build(t.nodes[0])
	if err != nil {
		return rep, err
	}
	rep.Libraries-- // the exported library itself is the document
	doc := &bookmarks.Document{Title: root.Title, Root: root}
	switch format {
	case FormatNetscape:
		err = bookmarks.WriteNetscape(w, doc)
	case FormatJSON:
		err = bookmarks.WriteJSON(w, doc)
	default:
		return rep, invalid("export formats are netscape, json and html")
	}
	rep.Left = reportsLeft + viewsLeft
	if rep.Left > 0 {
		var what []string
		if reportsLeft > 0 {
			what = append(what, fmt.Sprintf("%d reports without an address", reportsLeft))
		}
		if viewsLeft > 0 {
			what = append(what, fmt.Sprintf("%d saved views", viewsLeft))
		}
		rep.Note = strings.Join(what, " and ") + " have no place in a bookmark file: --format json keeps everything"
	}
	return rep, err
}

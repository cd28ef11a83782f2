package graph

import (
	"context"
	"database/sql"
	"errors"

	"mundaneum/backend/rules"
)

// Subject is what rules are tested against: a URL, or a page stored in the workspace with
// what was read of it.
type Subject struct {
	Element *rules.Element
	Page    Page // zero when the URL is not in the workspace
	Stored  bool // the page was fetched: its fields after the fetch are known
}

// SubjectOf makes the element rules see for a URL: the stored page's fields when it was
// fetched (its depth, and the words of a link that reaches it), else the URL alone.
// texts reads the page's body (nil: the body reads as empty).
func (g *Graph) SubjectOf(ctx context.Context, url string, texts Texts) (Subject, error) {
	s := Subject{Element: &rules.Element{URL: url}}
	id, err := g.PageID(ctx, url)
	if errors.Is(err, ErrNotFound) {
		return s, nil
	}
	if err != nil {
		return s, err
	}
	p, err := g.stored(ctx, id)
	if err != nil {
		return s, err
	}
	s.Page = p.Page
	e := s.Element
	e.Depth = p.depth
	err = g.db.QueryRowContext(ctx, `SELECT anchor FROM links WHERE to_id = ? AND from_id <> to_id AND anchor <> ''
		ORDER BY from_id LIMIT 1`, id).Scan(&e.Anchor)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return s, err
	}
	if p.State != "fetched" {
		return s, nil
	}
	s.Stored = true
	e.Fetched, e.Status, e.Type, e.Title, e.Head, e.Date = true, p.Status, p.typ, p.Title, p.head, p.date
	if texts != nil {
		if body, err := texts.BodyText(ctx, id); err == nil {
			e.Body = body
		}
	}
	return s, nil
}

package exchange

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"mundaneum/backend/formats/soif"
	"mundaneum/backend/store"
)

// Cursor is where a stream of summaries stands: Seq is the summary log's (see migration
// 0024), Time the Update-Time of the last summary, for people.
type Cursor struct {
	Seq  int64 `json:"seq"`
	Time int64 `json:"time"` // unix ms
}

// selection is what a read of summaries asks for.
type selection struct {
	after int64 // seq
	upTo  int64 // seq, inclusive: the log's end when the stream began
	since int64 // changed_at >= since (unix ms; 0: any)
	crawl int64 // pages of this crawl (0: every page)
	limit int
}

// row is a summary read, with its place in the log.
type row struct {
	seq int64
	id  int64
	dup int64 // the page whose text this duplicate shares
	sum Summary
}

// reader reads summaries from a workspace.
type reader struct {
	st *store.Store
	db *sql.DB
}

// linkKinds are the references a summary carries: links a reader follows, not embedded
// resources.
const linkKinds = `('a', 'area', 'frame', 'iframe')`

// next reads up to sel.limit summaries after sel.after, in log order.
func (r *reader) next(ctx context.Context, sel selection) ([]row, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT l.seq, p.id, coalesce(p.duplicate_of, 0), p.url,
		coalesce(p.content_type, ''), coalesce(p.title, ''), coalesce(p.description, ''), coalesce(p.keywords, ''),
		coalesce(p.author, ''), coalesce(p.lang, ''), coalesce(p.size, 0), p.hash, coalesce(p.last_modified, ''),
		coalesce(p.changed_at, p.fetched_at, 0)
		FROM summary_log l JOIN pages p ON p.id = l.page_id
		WHERE l.seq > ?1 AND l.seq <= ?2 AND p.state = 'fetched' AND p.hash IS NOT NULL AND p.noindex = 0
		AND (?3 = 0 OR coalesce(p.changed_at, p.fetched_at, 0) >= ?3)
		AND (?4 = 0 OR p.crawl_id = ?4 OR p.id IN (SELECT page_id FROM frontier WHERE crawl_id = ?4))
		ORDER BY l.seq LIMIT ?5`, sel.after, sel.upTo, sel.since, sel.crawl, sel.limit)
	if err != nil {
		return nil, fmt.Errorf("summaries: %w", err)
	}
	var out []row
	for rows.Next() {
		var w row
		s := &w.sum
		if err := rows.Scan(&w.seq, &w.id, &w.dup, &s.URL, &s.ContentType, &s.Title, &s.Description, &s.Keywords,
			&s.Author, &s.Lang, &s.Size, &s.Hash, &s.LastModified, &s.UpdatedAt); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, w)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if err := r.fill(ctx, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// fill reads a summary's text and links.
func (r *reader) fill(ctx context.Context, w *row) error {
	t, err := r.st.Text(ctx, w.id)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	w.sum.Headings, w.sum.Text = t.Headings, t.Body
	if w.sum.Title == "" {
		w.sum.Title = t.Title
	}
	// The summariser's own attributes (a PDF's pages, a feed's entries...). Those SOIF has a
	// name of its own for (title, author, keywords) travel under that name already.
	sum, attrs, err := r.st.PageAttrs(ctx, w.id)
	if err != nil {
		return fmt.Errorf("attributes of %s: %w", w.sum.URL, err)
	}
	w.sum.Summariser = sum
	for _, a := range attrs {
		if !known[strings.ToLower(a.Name)] {
			w.sum.Attrs = append(w.sum.Attrs, soif.Attr{Name: a.Name, Value: []byte(a.Value)})
		}
	}
	rows, err := r.db.QueryContext(ctx, `SELECT t.url, l.anchor FROM links l JOIN pages t ON t.id = l.to_id
		WHERE l.from_id = ? AND l.kind IN `+linkKinds+` ORDER BY l.pos, l.to_id`, w.id)
	if err != nil {
		return fmt.Errorf("links of %s: %w", w.sum.URL, err)
	}
	defer rows.Close()
	seen := map[string]bool{}
	for rows.Next() {
		var l Link
		if err := rows.Scan(&l.URL, &l.Anchor); err != nil {
			return err
		}
		if !seen[l.URL] {
			seen[l.URL] = true
			w.sum.Links = append(w.sum.Links, l)
		}
	}
	return rows.Err()
}

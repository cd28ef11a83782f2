// Package graph answers the webbot's questions about the relations between pages, from
// the workspace's links table: the links in and out of a page with their anchor text, the
// shortest path between two pages and how many distinct paths join them, degrees of
// separation, click depth from the seeds, orphans, and the tree a crawl generated (its
// elements, by family index) or that rules generate over the stored web.
//
// Searches read the links table level by level (one query per level of a breadth-first
// search, both ends at once), so a question about two pages touches only their
// neighbourhoods, not the whole graph.
package graph

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrNotFound means a page asked about is not in the workspace.
var ErrNotFound = errors.New("page not found")

// Graph answers questions over a workspace's read pool (store.Store.ReadDB).
type Graph struct {
	db *sql.DB
}

// New returns a Graph over a read-only pool of the workspace.
func New(db *sql.DB) *Graph { return &Graph{db: db} }

// Page is a page as the graph shows it.
type Page struct {
	ID     int64  `json:"id"`
	URL    string `json:"url"`
	Title  string `json:"title,omitempty"`
	Host   string `json:"host"`
	State  string `json:"state"`
	Status int    `json:"status,omitempty"`
}

// docKinds are the link kinds that join documents; images, style sheets and scripts are
// resources a page uses, not relations between pages.
const docKinds = `('a','area','frame','iframe','refresh','redirect','text')`

// PageID finds a page by its canonical URL.
func (g *Graph) PageID(ctx context.Context, url string) (int64, error) {
	var id int64
	err := g.db.QueryRowContext(ctx, `SELECT id FROM pages WHERE url = ?`, url).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("%s: %w", url, ErrNotFound)
	}
	return id, err
}

// Pages returns the pages with the given ids, in that order (missing ones are skipped).
func (g *Graph) Pages(ctx context.Context, ids []int64) ([]Page, error) {
	byID := make(map[int64]Page, len(ids))
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		rows, err := g.db.QueryContext(ctx, `SELECT p.id, p.url, coalesce(p.title,''), h.origin, p.state,
			coalesce(p.status,0) FROM pages p JOIN hosts h ON h.id = p.host_id
			WHERE p.id IN (SELECT value FROM json_each(?))`, idList(part))
		if err != nil {
			return nil, fmt.Errorf("pages: %w", err)
		}
		for rows.Next() {
			var p Page
			if err := rows.Scan(&p.ID, &p.URL, &p.Title, &p.Host, &p.State, &p.Status); err != nil {
				rows.Close()
				return nil, err
			}
			p.Host = hostOf(p.Host)
			byID[p.ID] = p
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	out := make([]Page, 0, len(ids))
	for _, id := range ids {
		if p, ok := byID[id]; ok {
			out = append(out, p)
		}
	}
	return out, nil
}

// Page returns one page.
func (g *Graph) Page(ctx context.Context, id int64) (Page, error) {
	ps, err := g.Pages(ctx, []int64{id})
	if err != nil {
		return Page{}, err
	}
	if len(ps) == 0 {
		return Page{}, fmt.Errorf("page %d: %w", id, ErrNotFound)
	}
	return ps[0], nil
}

// hostOf turns an origin (scheme://host[:port]) into host[:port].
func hostOf(origin string) string {
	if i := strings.Index(origin, "://"); i >= 0 {
		return origin[i+3:]
	}
	return origin
}

// chunk bounds the ids bound in one query.
const chunk = 2000

// idList is ids as a JSON array, for json_each.
func idList(ids []int64) string {
	b := make([]byte, 0, len(ids)*8+2)
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return string(append(b, ']'))
}

package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Link is a link seen from one of its ends: the page at the other end and how it links.
type Link struct {
	Page   Page   `json:"page"`
	Kind   string `json:"kind"`
	Anchor string `json:"anchor,omitempty"`
	Rel    string `json:"rel,omitempty"`
	Pos    int    `json:"pos,omitempty"` // position among the citing page's links, from 1 (0: not known)
}

// Links is a page's links both ways.
type Links struct {
	Page     Page   `json:"page"`
	Out      []Link `json:"out"` // in the page's order
	In       []Link `json:"in"`
	OutTotal int    `json:"outTotal"`
	InTotal  int    `json:"inTotal"`
}

// LinksOf returns up to limit links out of and into a page, with their anchor text.
func (g *Graph) LinksOf(ctx context.Context, id int64, limit int) (Links, error) {
	if limit <= 0 {
		limit = 1000
	}
	p, err := g.Page(ctx, id)
	if err != nil {
		return Links{}, err
	}
	res := Links{Page: p}
	if res.Out, err = g.linkList(ctx, `SELECT l.to_id, l.kind, l.anchor, l.rel, l.pos FROM links l
		WHERE l.from_id = ? ORDER BY l.pos, l.to_id LIMIT ?`, id, limit); err != nil {
		return res, err
	}
	if res.In, err = g.linkList(ctx, `SELECT l.from_id, l.kind, l.anchor, l.rel, l.pos FROM links l
		WHERE l.to_id = ? ORDER BY l.from_id LIMIT ?`, id, limit); err != nil {
		return res, err
	}
	if err := g.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM links WHERE from_id = ?1),
		(SELECT count(*) FROM links WHERE to_id = ?1)`, id).Scan(&res.OutTotal, &res.InTotal); err != nil {
		return res, err
	}
	return res, nil
}

func (g *Graph) linkList(ctx context.Context, query string, id int64, limit int) ([]Link, error) {
	rows, err := g.db.QueryContext(ctx, query, id, limit)
	if err != nil {
		return nil, fmt.Errorf("links of %d: %w", id, err)
	}
	var ls []Link
	var ids []int64
	for rows.Next() {
		var l Link
		if err := rows.Scan(&l.Page.ID, &l.Kind, &l.Anchor, &l.Rel, &l.Pos); err != nil {
			rows.Close()
			return nil, err
		}
		ls = append(ls, l)
		ids = append(ids, l.Page.ID)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	pages, err := g.Pages(ctx, ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]Page, len(pages))
	for _, p := range pages {
		byID[p.ID] = p
	}
	out := make([]Link, 0, len(ls))
	for _, l := range ls {
		l.Page = byID[l.Page.ID]
		out = append(out, l)
	}
	return out, nil
}

// Seeds returns the ids of a crawl's seeds (of every crawl when crawlID is 0).
func (g *Graph) Seeds(ctx context.Context, crawlID int64) ([]int64, error) {
	rows, err := g.db.QueryContext(ctx, `SELECT seeds FROM crawls WHERE ?1 = 0 OR id = ?1`, crawlID)
	if err != nil {
		return nil, err
	}
	var urls []string
	for rows.Next() {
		var js string
		if err := rows.Scan(&js); err != nil {
			rows.Close()
			return nil, err
		}
		var s []string
		if json.Unmarshal([]byte(js), &s) == nil {
			urls = append(urls, s...)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var ids []int64
	for _, u := range urls {
		id, err := g.PageID(ctx, u)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// Depth is a page's click depth: the fewest links from a seed.
type Depth struct {
	Depth int   `json:"depth"` // -1: no seed reaches it
	Path  []Hop `json:"path"`  // from the nearest seed
}

// ClickDepth is the fewest links from the seeds of a crawl (of every crawl when crawlID is 0) to a page.
func (g *Graph) ClickDepth(ctx context.Context, crawlID, id int64) (Depth, error) {
	seeds, err := g.Seeds(ctx, crawlID)
	if err != nil {
		return Depth{}, err
	}
	res := Depth{Depth: -1, Path: []Hop{}}
	if len(seeds) == 0 {
		return res, nil
	}
	adj := newAdjacency(g)
	fw, bw, m, found, err := bidirectional(ctx, adj, seeds, []int64{id}, out, 0)
	if err != nil || !found {
		return res, err
	}
	res.Depth = int(m.length)
	ids := append(reverse(fw.chain(m.via[0])), bw.chain(m.via[0])[1:]...)
	res.Path, err = g.hops(ctx, ids, false)
	return res, err
}

// Orphans are pages known to the workspace (to a crawl, when crawlID is not 0) that no other
// page links to and that are not seeds: imported, or left behind when the pages that linked
// to them changed.
type Orphans struct {
	Total int    `json:"total"`
	Pages []Page `json:"pages"`
}

// OrphansOf lists up to limit orphans.
func (g *Graph) OrphansOf(ctx context.Context, crawlID int64, limit int) (Orphans, error) {
	if limit <= 0 {
		limit = 100
	}
	seeds, err := g.Seeds(ctx, 0)
	if err != nil {
		return Orphans{}, err
	}
	rows, err := g.db.QueryContext(ctx, `SELECT p.id FROM pages p
		WHERE (?1 = 0 OR p.crawl_id = ?1 OR EXISTS (SELECT 1 FROM elements e WHERE e.crawl_id = ?1 AND e.page_id = p.id))
		AND p.id NOT IN (SELECT value FROM json_each(?2))
		AND NOT EXISTS (SELECT 1 FROM link_rows l WHERE l.to_id = p.id AND l.from_id <> p.id)
		AND p.id NOT IN (SELECT to_id FROM link_pending WHERE from_id <> to_id)
		ORDER BY p.id`, crawlID, idList(seeds))
	if err != nil {
		return Orphans{}, fmt.Errorf("orphans: %w", err)
	}
	var ids []int64
	res := Orphans{Pages: []Page{}}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return res, err
		}
		res.Total++
		if len(ids) < limit {
			ids = append(ids, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return res, err
	}
	res.Pages, err = g.Pages(ctx, ids)
	return res, err
}

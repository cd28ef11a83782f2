package graph

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"mundaneum/backend/rules"
	"mundaneum/backend/store"
)

// Element is a web element: a page reached along one path of a crawl's tree.
type Element struct {
	CrawlID  int64  `json:"crawlId"`
	Family   string `json:"family"` // 03.02.01
	Page     Page   `json:"page"`
	Value    string `json:"value"`    // untested, first, next, last, rejected
	Followed bool   `json:"followed"` // its links were taken into the queue
	Visited  bool   `json:"visited"`  // the crawl visited the page as this element (each page once)
	Parent   int64  `json:"parent,omitempty"`
}

// ElementsOf lists the elements of a page: the one the crawl visited it as and every other
// path that reached it (a page linked from two visited pages has two), up to limit. With
// crawlID 0, in every crawl.
func (g *Graph) ElementsOf(ctx context.Context, crawlID, id int64, limit int) ([]Element, error) {
	if limit <= 0 {
		limit = 1000
	}
	p, err := g.Page(ctx, id)
	if err != nil {
		return nil, err
	}
	out := []Element{}
	rows, err := g.db.QueryContext(ctx, `SELECT crawl_id, family, category, followed FROM elements
		WHERE page_id = ?1 AND (?2 = 0 OR crawl_id = ?2) ORDER BY crawl_id`, id, crawlID)
	if err != nil {
		return nil, fmt.Errorf("elements: %w", err)
	}
	for rows.Next() {
		var e Element
		var fam []byte
		var v uint8
		if err := rows.Scan(&e.CrawlID, &fam, &v, &e.Followed); err != nil {
			rows.Close()
			return nil, err
		}
		f, _ := rules.DecodeFamily(fam)
		e.Family, e.Value, e.Page, e.Visited = f.String(), rules.Value(v).String(), p, true
		out = append(out, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// The other paths: visited pages that link here have it among their children.
	rows, err = g.db.QueryContext(ctx, `SELECT e.crawl_id, e.page_id, e.family, e.children FROM elements e
		WHERE e.page_id IN (SELECT DISTINCT from_id FROM links WHERE to_id = ?1)
		AND (?2 = 0 OR e.crawl_id = ?2) ORDER BY e.crawl_id, e.family`, id, crawlID)
	if err != nil {
		return nil, fmt.Errorf("elements: %w", err)
	}
	defer rows.Close()
	for rows.Next() && len(out) < limit {
		var crawl, parent int64
		var fam, kids []byte
		if err := rows.Scan(&crawl, &parent, &fam, &kids); err != nil {
			return nil, err
		}
		f, _ := rules.DecodeFamily(fam)
		cs, _ := store.DecodeChildren(kids)
		for i, c := range cs {
			if c.PageID != id {
				continue
			}
			child := f.Child(i + 1).String()
			if visitedAs(out, crawl, child) {
				continue
			}
			out = append(out, Element{CrawlID: crawl, Family: child, Page: p, Value: rules.Value(c.Category).String(),
				Parent: parent})
		}
	}
	return out, rows.Err()
}

func visitedAs(es []Element, crawl int64, family string) bool {
	for _, e := range es {
		if e.CrawlID == crawl && e.Family == family {
			return true
		}
	}
	return false
}

// Tree is the tree of a crawl's elements, in family order (the tree's pre-order).
type Tree struct {
	Elements  []Element `json:"elements"`
	Truncated bool      `json:"truncated"`
}

// CrawlTree returns up to limit elements of a crawl's tree: the visited ones, each with its
// parent, and with leaves also the elements never visited (rejected links, and pages
// already reached along another path).
func (g *Graph) CrawlTree(ctx context.Context, crawlID int64, limit int, leaves bool) (Tree, error) {
	if limit <= 0 {
		limit = 1000
	}
	rows, err := g.db.QueryContext(ctx, `SELECT page_id, family, category, followed, children FROM elements
		WHERE crawl_id = ? ORDER BY family LIMIT ?`, crawlID, limit+1)
	if err != nil {
		return Tree{}, fmt.Errorf("crawl tree: %w", err)
	}
	type row struct {
		id   int64
		fam  rules.Family
		v    rules.Value
		fol  bool
		kids []store.Child
	}
	var rs []row
	byFamily := map[string]int64{}
	for rows.Next() {
		var r row
		var fam, kids []byte
		if err := rows.Scan(&r.id, &fam, &r.v, &r.fol, &kids); err != nil {
			rows.Close()
			return Tree{}, err
		}
		r.fam, _ = rules.DecodeFamily(fam)
		if leaves {
			r.kids, _ = store.DecodeChildren(kids)
		}
		rs = append(rs, r)
		byFamily[r.fam.String()] = r.id
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return Tree{}, err
	}
	t := Tree{Elements: []Element{}}
	if len(rs) > limit {
		rs, t.Truncated = rs[:limit], true
	}
	var ids []int64
	type pending struct {
		e   Element
		id  int64
		key string // the encoded family: the tree's pre-order
	}
	var es []pending
	for _, r := range rs {
		e := Element{CrawlID: crawlID, Family: r.fam.String(), Value: r.v.String(), Followed: r.fol, Visited: true,
			Parent: byFamily[r.fam.Parent().String()]}
		es = append(es, pending{e, r.id, string(r.fam.Encode())})
		ids = append(ids, r.id)
		for i, c := range r.kids {
			f := r.fam.Child(i + 1).String()
			if _, visited := byFamily[f]; visited {
				continue
			}
			if len(es) >= limit {
				t.Truncated = true
				break
			}
			es = append(es, pending{Element{CrawlID: crawlID, Family: f, Value: rules.Value(c.Category).String(), Parent: r.id},
				c.PageID, string(r.fam.Child(i + 1).Encode())})
			ids = append(ids, c.PageID)
		}
	}
	pages, err := g.pageMap(ctx, ids)
	if err != nil {
		return t, err
	}
	slices.SortStableFunc(es, func(a, b pending) int { return strings.Compare(a.key, b.key) })
	for _, p := range es {
		p.e.Page = pages[p.id]
		t.Elements = append(t.Elements, p.e)
	}
	return t, nil
}

func (g *Graph) pageMap(ctx context.Context, ids []int64) (map[int64]Page, error) {
	pages, err := g.Pages(ctx, dedupe(ids))
	if err != nil {
		return nil, err
	}
	m := make(map[int64]Page, len(pages))
	for _, p := range pages {
		m[p.ID] = p
	}
	return m, nil
}

func dedupe(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := ids[:0:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

package graph

import (
	"context"
	"database/sql"
	"errors"
	"slices"
)

// Hop is one page of a path and the link that reached it from the page before.
type Hop struct {
	Page     Page   `json:"page"`
	Kind     string `json:"kind,omitempty"`
	Anchor   string `json:"anchor,omitempty"`
	Backward bool   `json:"backward,omitempty"` // the link goes from this page to the one before (undirected paths)
}

// PathOptions shape a path question.
type PathOptions struct {
	// Undirected follows links either way: the degrees of separation of the two pages.
	Undirected bool
	// MaxLength gives up beyond this many links (0: no bound).
	MaxLength int
}

// PathResult answers "how do I get from one page to another".
type PathResult struct {
	From       Page  `json:"from"`
	To         Page  `json:"to"`
	Undirected bool  `json:"undirected"`
	Found      bool  `json:"found"`
	Length     int   `json:"length"` // links on a shortest path (the degrees of separation); -1 without a path
	Path       []Hop `json:"path"`   // one shortest path, From first
	// Shortest is the number of distinct shortest paths; Paths the number of distinct
	// paths (no page twice) of at most Length+1 links, shortest ones included. AtLeast
	// marks a count that reached the bound (2^62) and stopped there.
	Shortest        uint64 `json:"shortest"`
	ShortestAtLeast bool   `json:"shortestAtLeast,omitempty"`
	Paths           uint64 `json:"paths"`
	PathsAtLeast    bool   `json:"pathsAtLeast,omitempty"`
	PathsMaxLength  int    `json:"pathsMaxLength"`
	Reached         int    `json:"reached"` // pages the search reached
	LinksRead       int    `json:"linksRead"`
}

// Path finds a shortest path from one page to another (along links, or either way with
// Undirected), counts the distinct shortest paths and the distinct paths one link longer.
func (g *Graph) Path(ctx context.Context, from, to int64, opt PathOptions) (PathResult, error) {
	res := PathResult{Undirected: opt.Undirected, Length: -1, Path: []Hop{}}
	ends, err := g.Pages(ctx, []int64{from, to})
	if err != nil {
		return res, err
	}
	if from == to && len(ends) == 1 {
		ends = append(ends, ends[0])
	}
	if len(ends) != 2 {
		return res, ErrNotFound
	}
	res.From, res.To = ends[0], ends[1]
	d := out
	if opt.Undirected {
		d = out | in
	}
	adj := newAdjacency(g)
	fw, bw, m, found, err := bidirectional(ctx, adj, []int64{from}, []int64{to}, d, int32(opt.MaxLength))
	res.Reached = len(fw.dist) + len(bw.dist)
	res.LinksRead = adj.rows
	if err != nil || !found {
		return res, err
	}
	res.Found, res.Length = true, int(m.length)
	res.Shortest, res.ShortestAtLeast = m.count, m.count >= capCount
	ids := append(reverse(fw.chain(m.via[0])), bw.chain(m.via[0])[1:]...)
	if res.Path, err = g.hops(ctx, ids, opt.Undirected); err != nil {
		return res, err
	}
	res.Paths, res.PathsMaxLength = m.count, res.Length
	if !opt.Undirected && from != to {
		// Walks one link longer than the shortest are paths (a page twice would need a
		// cycle of one link, and self-links are left out): count them in the middle.
		longer, err := walks(ctx, adj, from, to, m.length+1, fw.radius)
		if err != nil {
			return res, err
		}
		res.Paths, res.PathsMaxLength = satAdd(m.count, longer), res.Length+1
	}
	res.PathsAtLeast = res.Paths >= capCount
	res.LinksRead = adj.rows
	return res, nil
}

func reverse(ids []int64) []int64 {
	slices.Reverse(ids)
	return ids
}

// walks counts the walks of exactly n links from one page to another: walks of i links
// forward from the source times walks of n-i links backward from the target, summed over
// the pages where they meet. The links needed are read as the counts spread.
func walks(ctx context.Context, adj *adjacency, from, to int64, n, forward int32) (uint64, error) {
	i := min(forward, n)
	wf, err := spread(ctx, adj, from, out, i)
	if err != nil {
		return 0, err
	}
	wb, err := spread(ctx, adj, to, in, n-i)
	if err != nil {
		return 0, err
	}
	var total uint64
	for v, c := range wf {
		if cb, ok := wb[v]; ok {
			total = satAdd(total, satMul(c, cb))
		}
	}
	return total, nil
}

// spread returns, for each page, the number of walks of exactly steps links from start in direction d.
func spread(ctx context.Context, adj *adjacency, start int64, d direction, steps int32) (map[int64]uint64, error) {
	cur := map[int64]uint64{start: 1}
	for range steps {
		ids := make([]int64, 0, len(cur))
		for id := range cur {
			ids = append(ids, id)
		}
		if err := adj.load(ctx, ids, d); err != nil {
			return nil, err
		}
		next := make(map[int64]uint64, len(cur)*4)
		for u, c := range cur {
			for _, w := range adj.next(u, d) {
				next[w] = satAdd(next[w], c)
			}
		}
		cur = next
	}
	return cur, nil
}

// hops turns page ids along a path into pages with the links between them.
func (g *Graph) hops(ctx context.Context, ids []int64, undirected bool) ([]Hop, error) {
	pages, err := g.Pages(ctx, ids)
	if err != nil {
		return nil, err
	}
	if len(pages) != len(ids) {
		return nil, ErrNotFound
	}
	out := make([]Hop, len(ids))
	for i, p := range pages {
		out[i].Page = p
		if i == 0 {
			continue
		}
		kind, anchor, err := g.link(ctx, ids[i-1], ids[i])
		if errors.Is(err, sql.ErrNoRows) && undirected {
			out[i].Backward = true
			kind, anchor, err = g.link(ctx, ids[i], ids[i-1])
		}
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		out[i].Kind, out[i].Anchor = kind, anchor
	}
	return out, nil
}

// link returns the kind and anchor text of a link from one page to another, preferring an
// ordinary link with words.
func (g *Graph) link(ctx context.Context, from, to int64) (kind, anchor string, err error) {
	err = g.db.QueryRowContext(ctx, `SELECT kind, anchor FROM links WHERE from_id = ? AND to_id = ?
		AND kind IN `+docKinds+` ORDER BY kind = 'a' DESC, anchor <> '' DESC LIMIT 1`, from, to).Scan(&kind, &anchor)
	return kind, anchor, err
}

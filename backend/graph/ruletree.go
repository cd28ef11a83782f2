package graph

import (
	"container/heap"
	"context"
	"database/sql"
	"errors"
	"fmt"

	"mundaneum/backend/frontier"
	"mundaneum/backend/rules"
)

// Texts reads a stored page's extracted text (store.Store satisfies it).
type Texts interface {
	BodyText(ctx context.Context, id int64) (string, error)
}

// RuleTreeOptions shape the tree that rules generate over the stored web.
type RuleTreeOptions struct {
	Roots    []int64    // the seeds: family indexes 01, 02, ...
	Rules    *rules.Set // nil: every link is followed
	Limit    int        // elements at most (default 1000)
	MaxDepth int        // links from a root at most (0: no bound)
	Texts    Texts      // for rules on the body; nil: the body reads as empty
}

// RuleTree generates the tree that following the stored links under rules makes, as the
// webbot would crawl it: from the roots, each page visited once as the first element that
// reaches it, the rules deciding each link with everything stored about its page, and the
// categories ordering the visits (first, then next, then last). Pages never fetched are
// leaves.
func (g *Graph) RuleTree(ctx context.Context, opt RuleTreeOptions) (Tree, error) {
	if opt.Limit <= 0 {
		opt.Limit = 1000
	}
	rt := &ruleTree{g: g, opt: opt, pages: map[int64]*stored{}, visited: map[int64]bool{}}
	return rt.run(ctx)
}

type stored struct {
	Page
	typ, date, head string
	depth           int
}

type treeItem struct {
	id       int64
	fam      rules.Family
	local    uint64
	depth    int
	priority int
	seq      int
	index    int // in Tree.Elements
}

type treeQueue []treeItem

func (q treeQueue) Len() int { return len(q) }
func (q treeQueue) Less(i, j int) bool {
	if q[i].priority != q[j].priority {
		return q[i].priority > q[j].priority
	}
	if q[i].depth != q[j].depth {
		return q[i].depth < q[j].depth
	}
	return q[i].seq < q[j].seq
}
func (q treeQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *treeQueue) Push(x any)   { *q = append(*q, x.(treeItem)) }
func (q *treeQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

type ruleTree struct {
	g       *Graph
	opt     RuleTreeOptions
	pages   map[int64]*stored
	visited map[int64]bool
	tree    Tree
	q       treeQueue
	seq     int
	err     error
}

func (rt *ruleTree) run(ctx context.Context) (Tree, error) {
	rt.tree.Elements = []Element{}
	strategy := frontier.Tiers{}
	for i, id := range rt.opt.Roots {
		p, err := rt.page(ctx, id)
		if err != nil {
			return rt.tree, err
		}
		if rt.visited[id] {
			continue
		}
		rt.visited[id] = true
		fam := rules.Family{uint32(i + 1)}
		rt.tree.Elements = append(rt.tree.Elements, Element{Family: fam.String(), Page: p.Page, Value: rules.First.String(), Visited: true})
		rt.push(treeItem{id: id, fam: fam, priority: strategy.Priority(frontier.Link{Seed: true}), index: len(rt.tree.Elements) - 1})
	}
	for rt.q.Len() > 0 {
		if err := ctx.Err(); err != nil {
			return rt.tree, err
		}
		it := heap.Pop(&rt.q).(treeItem)
		if !rt.expand(ctx, it, strategy) {
			break
		}
	}
	if rt.q.Len() > 0 {
		rt.tree.Truncated = true
	}
	return rt.tree, rt.err
}

func (rt *ruleTree) push(it treeItem) {
	rt.seq++
	it.seq = rt.seq
	heap.Push(&rt.q, it)
}

// expand visits one element: its stored links make its children. It returns false when the
// tree is full (or on an error, kept in rt.err).
func (rt *ruleTree) expand(ctx context.Context, it treeItem, strategy frontier.Strategy) bool {
	p := rt.pages[it.id]
	if p.State != "fetched" {
		return true // never read: a leaf
	}
	rows, err := rt.g.db.QueryContext(ctx, `SELECT to_id, anchor FROM links WHERE from_id = ? AND kind IN `+docKinds+`
		ORDER BY pos, to_id`, it.id)
	if err != nil {
		rt.err = fmt.Errorf("rule tree: %w", err)
		return false
	}
	type link struct {
		to     int64
		anchor string
	}
	var links []link
	for rows.Next() {
		var l link
		if err := rows.Scan(&l.to, &l.anchor); err != nil {
			rows.Close()
			rt.err = err
			return false
		}
		links = append(links, l)
	}
	rows.Close()
	below := rt.opt.Rules.Enter(&rules.Element{URL: p.URL, Depth: it.depth}, it.local)
	rt.tree.Elements[it.index].Followed = true
	for k, l := range links {
		if len(rt.tree.Elements) >= rt.opt.Limit {
			rt.tree.Truncated = true
			return false
		}
		c, err := rt.page(ctx, l.to)
		if err != nil {
			rt.err = err
			return false
		}
		depth := it.depth + 1
		d := rt.decide(ctx, c, l.anchor, depth, below)
		fam := it.fam.Child(k + 1)
		e := Element{Family: fam.String(), Page: c.Page, Value: d.String(), Parent: it.id}
		follow := d.Followed() && !rt.visited[l.to] && (rt.opt.MaxDepth <= 0 || depth <= rt.opt.MaxDepth)
		if follow {
			rt.visited[l.to] = true
			e.Visited = true
		}
		rt.tree.Elements = append(rt.tree.Elements, e)
		if follow {
			rt.push(treeItem{id: l.to, fam: fam, local: below, depth: depth, index: len(rt.tree.Elements) - 1,
				priority: strategy.Priority(frontier.Link{Value: d})})
		}
	}
	return true
}

// decide applies the rules to a link with everything stored about its page.
func (rt *ruleTree) decide(ctx context.Context, c *stored, anchor string, depth int, local uint64) rules.Value {
	if rt.opt.Rules.Empty() {
		return rules.Next
	}
	e := &rules.Element{URL: c.URL, Anchor: anchor, Depth: depth}
	d := rt.opt.Rules.Decide(e, local)
	if d.Value != rules.Untested || c.State != "fetched" {
		return d.Value
	}
	e.Fetched, e.Status, e.Type, e.Title, e.Head, e.Date = true, c.Status, c.typ, c.Title, c.head, c.date
	if rt.opt.Texts != nil {
		if body, err := rt.opt.Texts.BodyText(ctx, c.ID); err == nil {
			e.Body = body
		}
	}
	e.Reset()
	return rt.opt.Rules.Decide(e, local).Value
}

func (rt *ruleTree) page(ctx context.Context, id int64) (*stored, error) {
	if p, ok := rt.pages[id]; ok {
		return p, nil
	}
	p, err := rt.g.stored(ctx, id)
	if err != nil {
		return nil, err
	}
	rt.pages[id] = p
	return p, nil
}

// stored reads what the rules may ask of a stored page, except its body.
func (g *Graph) stored(ctx context.Context, id int64) (*stored, error) {
	p := &stored{}
	var title, typ, date, desc, kw, author sql.NullString
	var status, depth sql.NullInt64
	err := g.db.QueryRowContext(ctx, `SELECT p.id, p.url, h.origin, p.state, p.status, p.title, p.content_type,
		p.last_modified, p.description, p.keywords, p.author, p.depth FROM pages p JOIN hosts h ON h.id = p.host_id
		WHERE p.id = ?`, id).Scan(&p.ID, &p.URL, &p.Host, &p.State, &status, &title, &typ, &date, &desc, &kw, &author, &depth)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("page %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	p.Host, p.Status, p.Title, p.typ, p.date = hostOf(p.Host), int(status.Int64), title.String, typ.String, date.String
	p.head, p.depth = rules.Head(title.String, desc.String, kw.String, author.String), int(depth.Int64)
	return p, nil
}

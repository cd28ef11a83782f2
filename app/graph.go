package app

import (
	"context"
	"errors"

	"mundaneum/backend/graph"
	"mundaneum/backend/rules"
)

func (a *App) graph() *graph.Graph { return graph.New(a.ws().st.ReadDB()) }

// graphError maps the graph's errors to API errors.
func graphError(err error) error {
	if errors.Is(err, graph.ErrNotFound) {
		return &Error{Code: CodeNotFound, Message: err.Error()}
	}
	return apiError(err)
}

// GraphView is the picture of a crawl: up to limit visited pages (the top of its tree by
// family index), each with its tree parent, and the links between them.
func (a *App) GraphView(crawlID int64, limit int) (result graph.View, _ error) {
	defer lists(&result)
	v, err := a.graph().CrawlView(context.Background(), crawlID, limit)
	return v, graphError(err)
}

// GraphPath finds a shortest path between two pages (either way with undirected: the
// degrees of separation) and counts the distinct paths.
func (a *App) GraphPath(fromID, toID int64, undirected bool) (result graph.PathResult, _ error) {
	defer lists(&result)
	r, err := a.graph().Path(context.Background(), fromID, toID, graph.PathOptions{Undirected: undirected})
	return r, graphError(err)
}

// PageRelations is how a page relates to the rest: its links both ways, the elements
// (paths from the seeds) that reached it, and its click depth.
type PageRelations struct {
	Links      graph.Links     `json:"links"`
	Elements   []graph.Element `json:"elements"`
	ClickDepth graph.Depth     `json:"clickDepth"`
}

// GraphLinks returns a page's relations (up to limit links each way).
func (a *App) GraphLinks(pageID int64, limit int) (result PageRelations, _ error) {
	defer lists(&result)
	r, err := PageRelationsOf(context.Background(), a.graph(), 0, pageID, limit)
	return r, graphError(err)
}

// PageRelationsOf is GraphLinks over g, for the command line: the elements and click depth
// of crawl crawlID only, or of every crawl for 0.
func PageRelationsOf(ctx context.Context, g *graph.Graph, crawlID, pageID int64, limit int) (PageRelations, error) {
	var r PageRelations
	var err error
	if r.Links, err = g.LinksOf(ctx, pageID, limit); err != nil {
		return r, err
	}
	if r.Elements, err = g.ElementsOf(ctx, crawlID, pageID, limit); err != nil {
		return r, err
	}
	r.ClickDepth, err = g.ClickDepth(ctx, crawlID, pageID)
	return r, err
}

// GraphTree returns a crawl's tree of elements, or with rule text the tree those rules
// generate over the stored links from the crawl's seeds.
func (a *App) GraphTree(crawlID int64, ruleText string, limit int) (result graph.Tree, _ error) {
	defer lists(&result)
	ctx, g := context.Background(), a.graph()
	if ruleText == "" {
		t, err := g.CrawlTree(ctx, crawlID, limit, true)
		return t, graphError(err)
	}
	set, err := rules.Parse(ruleText)
	if err != nil {
		return graph.Tree{}, &Error{Code: CodeInvalid, Message: err.Error()}
	}
	roots, err := g.Seeds(ctx, crawlID)
	if err != nil {
		return graph.Tree{}, graphError(err)
	}
	t, err := g.RuleTree(ctx, graph.RuleTreeOptions{Roots: roots, Rules: set, Limit: limit, Texts: a.ws().st})
	return t, graphError(err)
}

// Orphans lists pages of a crawl (of the workspace with 0) that no other page links to.
func (a *App) Orphans(crawlID int64, limit int) (result graph.Orphans, _ error) {
	defer lists(&result)
	o, err := a.graph().OrphansOf(context.Background(), crawlID, limit)
	return o, graphError(err)
}

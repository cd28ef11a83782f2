package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"mundaneum/app"
	"mundaneum/backend/graph"
	"mundaneum/backend/rules"
	"mundaneum/backend/store"
	"mundaneum/backend/urlnorm"
)

// withGraph opens the workspace read-only (it works while another process crawls) for one question.
func (e *env) withGraph(ctx context.Context, fn func(g *graph.Graph, st *store.Store) error) error {
	st, err := e.open(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	return fn(graph.New(st.ReadDB()), st)
}

// pageID finds a URL's page in the workspace.
func pageID(ctx context.Context, g *graph.Graph, raw string) (int64, error) {
	u, err := urlnorm.Normalize(raw)
	if err != nil {
		return 0, usageError{fmt.Errorf("%s: %w", raw, err)}
	}
	id, err := g.PageID(ctx, u)
	if errors.Is(err, graph.ErrNotFound) {
		return 0, fmt.Errorf("%s is not in the workspace", u)
	}
	return id, err
}

func (e *env) pathCmd() *cobra.Command {
	var opt graph.PathOptions
	cmd := &cobra.Command{
		Use:   "path FROM-URL TO-URL",
		Short: "Shortest path between two pages, and how many distinct paths join them",
		Long: `Find a shortest path of links from one page to another in the workspace, with the
words of each link; count the distinct shortest paths and the distinct paths one link
longer. --undirected follows links either way: the degrees of separation of the pages.`,
		Args: usageArgs(cobra.ExactArgs(2)),
		RunE: func(cmd *cobra.Command, args []string) error { return e.graphPath(cmd.Context(), args, opt) },
	}
	cmd.Flags().BoolVar(&opt.Undirected, "undirected", false, "follow links either way (degrees of separation)")
	cmd.Flags().IntVar(&opt.MaxLength, "max-length", 0, "give up beyond this many links (0: no bound)")
	return cmd
}

// graphPath prints the shortest paths of links from args[0] to args[1].
func (e *env) graphPath(ctx context.Context, args []string, opt graph.PathOptions) error {
	return e.withGraph(ctx, func(g *graph.Graph, _ *store.Store) error {
		from, err := pageID(ctx, g, args[0])
		if err != nil {
			return err
		}
		to, err := pageID(ctx, g, args[1])
		if err != nil {
			return err
		}
		res, err := g.Path(ctx, from, to, opt)
		if err != nil {
			return err
		}
		if e.json {
			return e.printJSON(res)
		}
		e.printPath(res)
		return nil
	})
}

func atLeast(n uint64, capped bool) string {
	if capped {
		return fmt.Sprintf("at least %d", n)
	}
	return fmt.Sprint(n)
}

func (e *env) printPath(r graph.PathResult) {
	w := e.stdout
	if !r.Found {
		how := "no path of links"
		if r.Undirected {
			how = "no path of links either way"
		}
		fmt.Fprintf(w, "%s from %s to %s (searched %d pages)\n", how, r.From.URL, r.To.URL, r.Reached)
		return
	}
	what := "links"
	if r.Undirected {
		what = "degrees of separation"
	}
	fmt.Fprintf(w, "%d %s from %s to %s\n", r.Length, what, r.From.URL, r.To.URL)
	for i, h := range r.Path {
		if i == 0 {
			fmt.Fprintf(w, "  %s\n", h.Page.URL)
			continue
		}
		arrow := "->"
		if h.Backward {
			arrow = "<-"
		}
		anchor := ""
		if h.Anchor != "" {
			anchor = fmt.Sprintf(" %q", h.Anchor)
		} else if h.Kind != "a" {
			anchor = " (" + h.Kind + ")"
		}
		fmt.Fprintf(w, "  %s%s %s\n", arrow, anchor, h.Page.URL)
	}
	fmt.Fprintf(w, "%s shortest path(s)", atLeast(r.Shortest, r.ShortestAtLeast))
	if r.PathsMaxLength > r.Length {
		fmt.Fprintf(w, "; %s distinct path(s) of at most %d links", atLeast(r.Paths, r.PathsAtLeast), r.PathsMaxLength)
	}
	fmt.Fprintln(w)
}

func (e *env) linksCmd() *cobra.Command {
	var limit int
	var crawlID int64
	cmd := &cobra.Command{
		Use:   "links URL",
		Short: "The links into and out of a page, with their words, and how the crawls reached it",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE:  func(cmd *cobra.Command, args []string) error { return e.links(cmd.Context(), args, limit, crawlID) },
	}
	cmd.Flags().IntVar(&limit, "limit", 100, "links to list each way")
	cmd.Flags().Int64Var(&crawlID, "crawl", 0, "only this crawl's elements and seeds (0: every crawl)")
	return cmd
}

// links prints the links into and out of the page at args[0], and how the crawls reached it.
func (e *env) links(ctx context.Context, args []string, limit int, crawlID int64) error {
	return e.withGraph(ctx, func(g *graph.Graph, _ *store.Store) error {
		id, err := pageID(ctx, g, args[0])
		if err != nil {
			return err
		}
		out, err := app.PageRelationsOf(ctx, g, crawlID, id, limit)
		if err != nil {
			return err
		}
		if e.json {
			return e.printJSON(out)
		}
		e.printLinks(out)
		return nil
	})
}

func (e *env) printLinks(r app.PageRelations) {
	l := r.Links
	w := e.stdout
	fmt.Fprintf(w, "%s", l.Page.URL)
	if l.Page.Title != "" {
		fmt.Fprintf(w, "  %q", l.Page.Title)
	}
	fmt.Fprintln(w)
	if r.ClickDepth.Depth >= 0 {
		fmt.Fprintf(w, "click depth %d from a seed\n", r.ClickDepth.Depth)
	} else {
		fmt.Fprintln(w, "no seed links to it")
	}
	if len(r.Elements) > 0 {
		var fams []string
		for _, el := range r.Elements {
			f := fmt.Sprintf("%s (crawl %d, %s", el.Family, el.CrawlID, el.Value)
			if el.Visited {
				f += ", visited"
			}
			fams = append(fams, f+")")
		}
		fmt.Fprintf(w, "reached as %d element(s): %s\n", len(r.Elements), strings.Join(fams, ", "))
	}
	list := func(title string, ls []graph.Link, total int, arrow string) {
		fmt.Fprintf(w, "\n%s (%d):\n", title, total)
		for _, k := range ls {
			words := k.Anchor
			if words == "" && k.Kind != "a" {
				words = "(" + k.Kind + ")"
			}
			fmt.Fprintf(w, "  %s %s  %q\n", arrow, k.Page.URL, words)
		}
		if total > len(ls) {
			fmt.Fprintf(w, "  ... %d more (--limit)\n", total-len(ls))
		}
	}
	list("links out", l.Out, l.OutTotal, "->")
	list("links in", l.In, l.InTotal, "<-")
}

func (e *env) treeCmd() *cobra.Command {
	var crawlID int64
	var limit, depth int
	var rulesArg string
	var leaves bool
	cmd := &cobra.Command{
		Use:   "tree [URL...]",
		Short: "The tree a crawl generated, by family index, or the one rules generate over the stored web",
		Long: `Without --rules, print the elements of a crawl (the newest unless --crawl) in family
order: each page as the path that first reached it (01.03.02 is the second link of the
third link of the first seed), its category and whether its links were followed; --leaves
adds the links never visited (rejected, or reaching a page reached before).

With --rules, follow the stored links from the crawl's seeds (or from the URLs given)
under those rules, as the webbot would crawl them, and print that tree: try rules on what
you have crawled before crawling again.`,
		Args: usageArgs(cobra.ArbitraryArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.tree(cmd.Context(), args, crawlID, limit, depth, rulesArg, leaves)
		},
	}
	f := cmd.Flags()
	f.Int64Var(&crawlID, "crawl", 0, "the crawl (default: the newest)")
	f.IntVar(&limit, "limit", 1000, "elements at most")
	f.IntVar(&depth, "depth", 0, "with --rules: links from a root at most (0: no bound)")
	f.StringVar(&rulesArg, "rules", "", "rules as TEXT or @FILE: generate the tree they make over the stored links")
	f.BoolVar(&leaves, "leaves", false, "without --rules: also the links never visited")
	return cmd
}

// tree prints a crawl's tree of elements, or the tree rulesArg generates from the seeds args.
func (e *env) tree(ctx context.Context, args []string, crawlID int64, limit, depth int, rulesArg string, leaves bool) error {
	return e.withGraph(ctx, func(g *graph.Graph, st *store.Store) error {
		id := crawlID
		if id == 0 && (rulesArg == "" || len(args) == 0) {
			cs, err := st.Crawls(ctx)
			if err != nil {
				return err
			}
			if len(cs) == 0 {
				return fmt.Errorf("no crawl in the workspace yet")
			}
			id = cs[0].ID
		}
		var tree graph.Tree
		var err error
		if rulesArg == "" {
			if len(args) > 0 {
				return usageError{fmt.Errorf("URLs go with --rules; without, the crawl's own tree is printed")}
			}
			tree, err = g.CrawlTree(ctx, id, limit, leaves)
		} else {
			tree, err = e.ruleTree(ctx, g, st, id, args, rulesArg, limit, depth)
		}
		if err != nil {
			return err
		}
		if e.json {
			return e.printJSON(tree)
		}
		for _, el := range tree.Elements {
			mark := " "
			if el.Visited {
				mark = "*"
			}
			fmt.Fprintf(e.stdout, "%s%-9s %s %s", strings.Repeat("  ", strings.Count(el.Family, ".")), el.Value, mark, el.Page.URL)
			if el.Page.Title != "" {
				fmt.Fprintf(e.stdout, "  %q", el.Page.Title)
			}
			fmt.Fprintf(e.stdout, "  [%s]\n", el.Family)
		}
		if tree.Truncated {
			fmt.Fprintf(e.stdout, "... more (--limit %d)\n", limit)
		}
		return nil
	})
}

func (e *env) ruleTree(ctx context.Context, g *graph.Graph, st *store.Store, crawlID int64, urls []string, rulesArg string, limit, depth int) (graph.Tree, error) {
	text, err := readRules(rulesArg)
	if err != nil {
		return graph.Tree{}, err
	}
	set, err := rules.Parse(text)
	if err != nil {
		return graph.Tree{}, usageError{ruleError(text, err)}
	}
	var roots []int64
	for _, u := range urls {
		id, err := pageID(ctx, g, u)
		if err != nil {
			return graph.Tree{}, err
		}
		roots = append(roots, id)
	}
	if len(roots) == 0 {
		if roots, err = g.Seeds(ctx, crawlID); err != nil {
			return graph.Tree{}, err
		}
	}
	return g.RuleTree(ctx, graph.RuleTreeOptions{Roots: roots, Rules: set, Limit: limit, MaxDepth: depth, Texts: st})
}

func (e *env) orphansCmd() *cobra.Command {
	var crawlID int64
	var limit int
	cmd := &cobra.Command{
		Use:   "orphans",
		Short: "Pages known to the workspace (or a crawl) that no other page links to, seeds aside",
		Args:  usageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return e.orphans(cmd.Context(), crawlID, limit) },
	}
	cmd.Flags().Int64Var(&crawlID, "crawl", 0, "only this crawl's pages (0: the whole workspace)")
	cmd.Flags().IntVar(&limit, "limit", 100, "orphans to list")
	return cmd
}

// orphans lists the pages no link of crawl crawlID reaches.
func (e *env) orphans(ctx context.Context, crawlID int64, limit int) error {
	return e.withGraph(ctx, func(g *graph.Graph, _ *store.Store) error {
		o, err := g.OrphansOf(ctx, crawlID, limit)
		if err != nil {
			return err
		}
		if e.json {
			return e.printJSON(o)
		}
		fmt.Fprintf(e.stdout, "%d orphan(s)\n", o.Total)
		for _, p := range o.Pages {
			fmt.Fprintf(e.stdout, "  %s  %s\n", p.URL, p.State)
		}
		if o.Total > len(o.Pages) {
			fmt.Fprintf(e.stdout, "  ... %d more (--limit)\n", o.Total-len(o.Pages))
		}
		return nil
	})
}

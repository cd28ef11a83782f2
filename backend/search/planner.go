package search

import (
	"context"
	"mundaneum/backend/pairs"
	"mundaneum/backend/query"
	"mundaneum/backend/querysql"
)

// plan compiles a parsed query (its library folders resolved, its regular expressions
// evaluated) and chooses its strategy.
func (s *Searcher) plan(ctx context.Context, root query.Node, n *query.Notes) (*plan, error) {
	if err := querysql.ResolveFolders(ctx, s.db, root, n); err != nil {
		return nil, err
	}
	pl, err := s.compile(ctx, root, n)
	if err != nil {
		return nil, err
	}
	if err := s.evalRegexps(ctx, pl, n); err != nil {
		return nil, err
	}
	pl.st = pl.statement(s.w)
	if err := s.choose(ctx, pl); err != nil {
		return nil, err
	}
	return pl, nil
}

// compile compiles a query for this index: a first pass finds the words its text would
// look up, one probe counts them (see estimator.dfs; ranking needs the counts too), and the
// stem forms the index lacks are left out of the plan.
func (s *Searcher) compile(ctx context.Context, root query.Node, n *query.Notes) (*plan, error) {
	// The pair index's frequent words are read beside the probe (a workspace just opened
	// waits for the disk for both); they are cached once read.
	type frequent struct {
		words *pairs.Words
		err   error
	}
	freq := make(chan frequent, 1)
	go func() {
		var f frequent
		if s.w.Pairs {
			f.words, f.err = s.pairs.frequent(ctx, s.db.DB)
		}
		freq <- f
	}()
	expand, err := s.vocab.Expand(ctx, root)
	if err != nil {
		<-freq
		return nil, err
	}
	pl := compileWithout(root, s.w, &query.Notes{}, nil, expand)
	if pl.match == "" {
		<-freq
		return compile(root, s.w, n), nil
	}
	var atoms []string
	for _, c := range pl.conj {
		atoms = append(atoms, c.atoms...)
	}
	df, err := s.estimator().dfs(ctx, atoms)
	f := <-freq
	if err == nil {
		err = f.err
	}
	if err != nil {
		return nil, err
	}
	absent := map[string]bool{}
	for a, n := range df {
		if n == 0 {
			absent[a] = true
		}
	}
	pl = compileWithout(root, s.w, n, absent, expand)
	if s.w.Pairs {
		usePairs(root, pl, f.words)
	}
	return pl, nil
}

// choose picks the plan's strategy (see strategy for each one's why). A query without text
// to drive it is filtersOnly, or rankApart when it has text to rank by. A query with text
// learns what bm25 would cost to score it (rankable, or the rarest pair for the pair index), which
// also bounds its matches (least); with filters, it counts the filters' pages only as far
// as it takes to decline filtersFirst: when they are more than filterSetCap, or more than
// a quarter of the text's matches, joining each match to its page costs less than reading
// the filters' pages.
func (s *Searcher) choose(ctx context.Context, pl *plan) error {
	switch {
	case pl.match == "" && pl.rank != "":
		pl.kind = rankApart
		return nil
	case pl.match == "":
		pl.kind = filtersOnly
		return nil
	}
	if pl.pairs != "" {
		rows, err := s.pairs.rarest(ctx, s.db, pl.pairAtoms)
		if err != nil {
			return err
		}
		pl.least, pl.onePass = rows, rows <= s.w.RankBudget // bm25 counts the rarest pair's rows for its IDF
	} else {
		c, err := s.estimator().rankable(ctx, pl.conj, s.w.RankBudget)
		if err != nil {
			return err
		}
		// bm25 can afford every phrase: one pass scores the matches.
		pl.costs, pl.least, pl.onePass = c, c.least, c.all(pl.conj) && !pl.negated
	}
	if pl.st.filterWhere == "" {
		pl.kind = textOnly
		return nil
	}
	span, err := pl.st.filterPages(ctx, s.db, min(filterSetCap, pl.least/4)+1)
	if err != nil {
		return err
	}
	pl.filtered, pl.kind = span, filtersFirst
	if span.n >= span.limit {
		pl.kind = textJoin
	}
	return nil
}

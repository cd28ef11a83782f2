package search

import (
	"context"
	"fmt"
	"mundaneum/backend/highlight"
	"mundaneum/backend/query"
)

// scoreFound scores the matches a text strategy found unscored: those filtersFirst found,
// and those of a plan bm25 cannot score in one pass. A phrase asked of the pair index is
// scored by bm25 over page_pairs when its rarest pair is within the budget, else by titles
// and URLs; words the cheapest way that ranks them (score).
func (s *Searcher) scoreFound(ctx context.Context, root query.Node, pl *plan, hits []hit) error {
	switch {
	case pl.onePass && pl.kind != filtersFirst:
		return nil // scored as they were found
	case pl.pairs != "" && pl.onePass:
		return s.scoreHits(ctx, pl.st.table, pl.st.match, hits)
	case pl.pairs != "":
		return s.scoreFields(ctx, root, hits)
	}
	return s.score(ctx, root, pl, hits)
}

// score scores matches found unscored (in rowid order) the cheapest way that ranks them
// with bm25 (see scoreCost): over the ranked conjuncts only, or over the whole query when
// counting its commoner words costs less than walking the ranked ones' matches. When both
// cost more than 2.5 RankBudgets, it scores them by their titles and URLs (scoreFields).
func (s *Searcher) score(ctx context.Context, root query.Node, pl *plan, hits []hit) error {
	maxRow, err := s.estimator().maxRowid(ctx)
	if err != nil {
		return err
	}
	share := 1.0
	if maxRow > 0 {
		share = min(1, float64(hits[len(hits)-1].id-hits[0].id+1)/float64(maxRow))
	}
	c := pl.costs
	limit := 5 * s.w.RankBudget / 2
	expr, best := "", limit+1
	if len(c.ranked) > 0 {
		exprs := make([]string, len(c.ranked))
		for i, r := range c.ranked {
			exprs[i] = r.expr
		}
		expr, best = combine(exprs, nil), scoreCost(c.rankedRows, c.least, len(hits), share)
	}
	if !pl.negated {
		walked, sh := len(hits), 1.0 // the query's own matches are the hits
		if pl.kind == filtersFirst {
			walked, sh = c.least, share
		}
		if cost := scoreCost(c.allRows, walked, len(hits), sh); cost < best {
			expr, best = pl.match, cost
		}
	}
	if best > limit {
		return s.scoreFields(ctx, root, hits)
	}
	return s.scoreHits(ctx, "page_fts", expr, hits)
}

// scoreHits scores hits (in rowid order) with bm25 over expr, which they all match in
// table (page_fts or page_pairs). bm25 scores only the rows that pass every condition, so
// the hits alone are scored.
func (s *Searcher) scoreHits(ctx context.Context, table, expr string, hits []hit) error {
	rows, err := s.db.QueryContext(ctx, `SELECT rowid, `+s.w.bm25Of(table)+` FROM `+table+`
		WHERE `+table+` MATCH ? AND rowid >= ? AND rowid <= ? AND +rowid IN (SELECT value FROM json_each(?))`,
		expr, hits[0].id, hits[len(hits)-1].id, idsJSON(hits))
	if err != nil {
		return fmt.Errorf("rank: %w", err)
	}
	scores, err := scoreMap(rows)
	if err != nil {
		return err
	}
	for i := range hits {
		hits[i].score = scores[hits[i].id]
	}
	return nil
}

// scoreFields scores hits when every word of the query is too common for bm25 (it would
// give them no weight anyway): by the query words the page's title and URL hold, weighted
// as bm25 weighs those fields, over a base for matching at all. The citation boost then
// orders pages alike.
func (s *Searcher) scoreFields(ctx context.Context, root query.Node, hits []hit) error {
	// Hits of common words are dense in rowid order: reading their range is cheaper than
	// looking each up.
	lo, hi := hits[0].id, hits[len(hits)-1].id
	q, args := `SELECT id, coalesce(title, ''), url FROM pages WHERE id IN (SELECT value FROM json_each(?))`, []any{idsJSON(hits)}
	if hi-lo < 4*int64(len(hits)) {
		q, args = `SELECT id, coalesce(title, ''), url FROM pages WHERE id BETWEEN ? AND ?`, []any{lo, hi}
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("rank: %w", err)
	}
	defer rows.Close()
	h := highlight.New(root, s.w.forms(), nil)
	scores := make(map[int64]float64, len(hits))
	for i := range hits {
		scores[hits[i].id] = 0
	}
	for rows.Next() {
		var id int64
		var title, url string
		if err := rows.Scan(&id, &title, &url); err != nil {
			return err
		}
		if _, ok := scores[id]; ok {
			scores[id] = s.w.Body + s.w.Title*float64(h.Count(title)) + s.w.URL*float64(h.Count(url))
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("rank: %w", err)
	}
	for i := range hits {
		hits[i].score = scores[hits[i].id]
	}
	return nil
}

package search

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"mundaneum/backend/highlight"
	"mundaneum/backend/query"
	"mundaneum/backend/vocab"
	"slices"
	"strconv"
)

// Weights are the ranking's tunable numbers, kept in one place.
type Weights struct {
	// bm25 column weights over page_fts(title, headings, body, anchors, url): title and the
	// anchor text of links pointing at a page weigh most (WWWW's and WebCrawler's lesson).
	Title, Headings, Body, Anchors, URL float64
	// Links boosts pages that many other pages cite: score *= 1 + Links*ln(1+citing pages).
	Links float64
	// BoostDepth is how many of the best bm25 hits get the link boost (it stays cheap).
	BoostDepth int
	// Stem makes a plain word match up to MaxVariants other words of its stem too (its
	// inflections, see highlight.Forms); the word as typed is counted ExactRepeat more times in
	// bm25, so exact matches rank first.
	Stem        bool
	MaxVariants int
	ExactRepeat int
	// RankBudget is how many index rows bm25 may count per query (see rankable).
	RankBudget int
	// SpreadRows is how many rows a query of common words may test before the matches of
	// the page asked for, found in the part of the index read, are enough (see collect).
	SpreadRows int
	// Pairs answers phrases of frequent words from the pair index once it is built (see
	// pairs.go); off, they are asked of the word index as any phrase.
	Pairs bool
	// Intent reads a query as meant (see intent.go): filler words of how-to phrasing are
	// not required, and "-x" (one character) is an option word, not an exclusion.
	Intent bool
	// Rerank scores the first BoostDepth hits again by their titles and URLs (rerank.go):
	// TitleCover per share of the query's words in the title or the URL's last segment,
	// TitleWithin (times the coverage) when every title word is a query word; KindScale multiplies changelogs, release notes and indexes the query
	// did not ask for.
	Rerank                  bool
	TitleCover, TitleWithin float64
	KindScale               float64
	// Proximity and HeadingAll weigh the third stage (proximity.go) over the first
	// ProxDepth hits: the query's words standing together in the body, and a heading
	// holding them all.
	Proximity, HeadingAll float64
	ProxDepth             int
}

// DefaultWeights are the weights a new Searcher uses.
var DefaultWeights = Weights{
	Title: 10, Headings: 4, Body: 1, Anchors: 8, URL: 3,
	Links:      0.1,
	BoostDepth: 200,
	Stem:       true, MaxVariants: highlight.DefaultForms, ExactRepeat: 1,
	RankBudget: 50_000,
	SpreadRows: 200_000,
	Pairs:      true,
	Intent:     true,
	Rerank:     true, TitleCover: 1, TitleWithin: 2, KindScale: 0.5,
	Proximity: 2, HeadingAll: 0.5, ProxDepth: 20,
}

// forms is how many stem forms of a plain word the query matches (0: none).
func (w Weights) forms() int {
	if !w.Stem {
		return 0
	}
	return w.MaxVariants
}

// bm25Of is the rank expression for the weights over an index with page_fts's columns
// (numbers formatted here, never user text).
func (w Weights) bm25Of(table string) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return "bm25(" + table + ", " + f(w.Title) + ", " + f(w.Headings) + ", " + f(w.Body) + ", " + f(w.Anchors) + ", " + f(w.URL) + ")"
}

// hit is a candidate: its page and its score (higher is better).
type hit struct {
	id    int64
	score float64
	// Why the score is what it is, for Result.Explain (set by boost for its BoostDepth).
	first, cites float64 // the first stage's score and the citation factor
	second       float64 // the second stage's factor (0: not applied)
	sig          factors
	third        float64 // the third stage's factor (0: not applied)
	text         textSignals
}

// boost multiplies the scores of the first BoostDepth hits by their citation boost and
// the second stage's factors (see rerank.go), sorts them again, and returns the best score
// of the query (the 1000 of normalised scores). root is nil when nothing ranks the hits.
func (s *Searcher) boost(ctx context.Context, root query.Node, expand vocab.Expansions, hits []hit) (best float64, texts pageTexts, err error) {
	n := min(len(hits), s.w.BoostDepth)
	if n == 0 {
		return 0, nil, nil
	}
	if s.w.Links > 0 {
		cites, err := s.citing(ctx, hits[:n])
		if err != nil {
			return 0, nil, err
		}
		for i := range hits[:n] {
			hits[i].first = hits[i].score
			hits[i].cites = 1 + s.w.Links*math.Log1p(float64(cites[hits[i].id]))
			hits[i].score *= hits[i].cites
		}
	}
	byScore := func(a, b hit) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	}
	if root != nil {
		if err := s.rerank(ctx, root, hits[:n]); err != nil {
			return 0, nil, err
		}
		slices.SortStableFunc(hits[:n], byScore)
		if texts, err = s.proximity(ctx, root, expand, hits[:min(n, s.w.ProxDepth)]); err != nil {
			return 0, nil, err
		}
	}
	slices.SortStableFunc(hits[:n], byScore)
	return hits[0].score, texts, nil
}

func idsJSON(hits []hit) string {
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.id
	}
	b, _ := json.Marshal(ids)
	return string(b)
}

// normalise maps a score to 0..1000 relative to the query's best.
func normalise(score, best float64) int {
	if best <= 0 {
		return 1000
	}
	return int(math.Round(1000 * min(score/best, 1)))
}

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

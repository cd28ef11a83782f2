package search

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"mundaneum/backend/query"
	"slices"
	"strconv"
	"unicode/utf8"
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
	// inflections, see stemForms); the word as typed is counted ExactRepeat more times in
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
	Stem:       true, MaxVariants: 8, ExactRepeat: 1,
	RankBudget: 50_000,
	SpreadRows: 200_000,
	Pairs:      true,
	Intent:     true,
	Rerank:     true, TitleCover: 1, TitleWithin: 2, KindScale: 0.5,
	Proximity: 2, HeadingAll: 0.5, ProxDepth: 20,
}

// bm25SQL is the rank expression for the weights over page_fts (numbers formatted here,
// never user text).
func (w Weights) bm25SQL() string { return w.bm25Of("page_fts") }

// bm25Of is the rank expression for the weights over an index with page_fts's columns.
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
func (s *Searcher) boost(ctx context.Context, root query.Node, expand map[string][]string, hits []hit) (best float64, texts pageTexts, err error) {
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

// rankText finds and ranks the matches of a query driven by a MATCH (see cost.go): the
// best of the first RankCap matches in index order, all of them when there are fewer. It
// returns them best first, with the number of matches (estimated when approx) and the
// share of the index it read for them (see collect).
func (s *Searcher) rankText(ctx context.Context, root query.Node, pl *plan, st *statement, want int) (hits []hit, total int, approx bool, read float64, err error) {
	if pl.pairs != "" {
		return s.rankPairs(ctx, root, pl, st, want)
	}
	e := s.estimator()
	c, err := e.rankable(ctx, pl.conj, s.w.RankBudget)
	if err != nil {
		return nil, 0, false, 0, err
	}
	onePass := c.all(pl.conj) && !pl.negated // bm25 can afford every phrase: one pass scores the matches
	filtered := false
	read = 1
	if st.filterWhere != "" {
		if hits, total, approx, read, filtered, err = s.filterFirst(ctx, st, c.least, want); err != nil {
			return nil, 0, false, 0, err
		}
		onePass = onePass && !filtered
	}
	if !filtered {
		hits, total, approx, read, err = s.firstMatches(ctx, st, onePass, want, c.least)
	}
	if err != nil || len(hits) == 0 {
		return nil, 0, false, read, err
	}
	if !onePass {
		if err = s.score(ctx, root, pl, c, hits, filtered); err != nil {
			return nil, 0, false, 0, err
		}
	}
	sortHits(hits)
	if approx && c.least > 0 {
		// No query matches more rows than its rarest conjunct has.
		total = max(len(hits), min(total, c.least))
	}
	return hits, total, approx, read, nil
}

// firstMatches returns the first RankCap matches of st in rowid order (scored when
// scored), their number (estimated, approx, when there are more) and the share of the
// index read (see collect; tested is the rows of the query's rarest conjunct).
func (s *Searcher) firstMatches(ctx context.Context, st *statement, scored bool, want, tested int) (hits []hit, total int, approx bool, read float64, err error) {
	maxRow, err := s.estimator().maxRowid(ctx)
	if err != nil {
		return nil, 0, false, 0, err
	}
	rows, err := st.firstRows(ctx, s.db, RankCap+1, scored)
	if err != nil {
		return nil, 0, false, 0, err
	}
	return s.collect(rows, 1, maxRow, want, tested)
}

// collect reads up to RankCap+1 matches (id and bm25 score) in rowid order from rows,
// which go through the rowids lo to hi of the index, testing about tested rows of it
// (the rows of the query's rarest conjunct there). A query of common words can match few
// of the many rows FTS5 tests (a phrase of common words: every row with all its words).
// Once collect holds the want matches of the page asked for, and FTS5 has tested about
// Weights.SpreadRows rows, the rest is left unread: the matches found are ranked and the
// total is estimated from the share read, which collect returns (1 when it read all).
func (s *Searcher) collect(rows *sql.Rows, lo, hi int64, want, tested int) (hits []hit, total int, approx bool, read float64, err error) {
	defer rows.Close()
	span := float64(max(hi-lo+1, 1))
	enough := false
	for !enough && rows.Next() {
		var h hit
		var r float64
		if err := rows.Scan(&h.id, &r); err != nil {
			return nil, 0, false, 0, err
		}
		h.score = -r // bm25 is negative, lower is better
		hits = append(hits, h)
		read = float64(h.id-lo+1) / span
		enough = len(hits) >= max(want, 1) && len(hits) <= RankCap && read < 1 && read*float64(tested) >= float64(s.w.SpreadRows)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, false, 0, fmt.Errorf("match: %w", err)
	}
	last := int64(0)
	if len(hits) > 0 {
		last = hits[len(hits)-1].id - lo + 1
	}
	switch {
	case enough:
		return hits, estimateTotal(len(hits), last, hi-lo+1), true, read, nil
	case len(hits) > RankCap:
		return hits[:RankCap], estimateTotal(len(hits), last, hi-lo+1), true, 1, nil
	}
	return hits, len(hits), false, 1, nil
}

// score scores matches found unscored (in rowid order) the cheapest way that ranks them
// with bm25 (see scoreCost): over the ranked conjuncts only, or over the whole query when
// counting its commoner words costs less than walking the ranked ones' matches. When both
// cost more than 2.5 RankBudgets, it scores them by their titles and URLs (scoreFields).
func (s *Searcher) score(ctx context.Context, root query.Node, pl *plan, c costs, hits []hit, filtered bool) error {
	maxRow, err := s.estimator().maxRowid(ctx)
	if err != nil {
		return err
	}
	share := 1.0
	if maxRow > 0 {
		share = min(1, float64(hits[len(hits)-1].id-hits[0].id+1)/float64(maxRow))
	}
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
		if filtered {
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

// filterSetCap is the most pages a query's filters may pick for filterFirst.
const filterSetCap = 20_000

// filterFirst finds the matches of a text query with filters that pick few pages (site:
// of a small site, type:ps, url:/regex/) by checking the text's own matches against the
// filter's pages, unscored, in rowid order (read by collect, which may stop early). Joining
// every text match to its page costs ~1.5 us a row, and a common word has hundreds of
// thousands; checking its rowids against the pages costs ~0.2 us. It declines (ok false)
// when the filters pick too many pages, or the text matches few enough rows (least, see
// rankable) for the join to be cheaper.
func (s *Searcher) filterFirst(ctx context.Context, st *statement, least, want int) (hits []hit, total int, approx bool, read float64, ok bool, err error) {
	// Count the filter's pages only as far as it takes to decline.
	limit := min(filterSetCap, least/4) + 1
	n, lo, hi, err := st.filterPages(ctx, s.db, limit)
	if err != nil {
		return nil, 0, false, 0, false, err
	}
	if n >= limit {
		return nil, 0, false, 0, false, nil
	}
	if n == 0 {
		return nil, 0, false, 1, true, nil
	}
	maxRow, err := s.estimator().maxRowid(ctx)
	if err != nil {
		return nil, 0, false, 0, false, err
	}
	// The filter's pages become one in-memory index that each text match is checked
	// against ("+" keeps FTS5 from looking each of them up instead).
	args := append([]any{st.match, lo.Int64, hi.Int64}, st.filterArgs...)
	rows, err := s.db.QueryContext(ctx, `SELECT rowid, 0 FROM `+st.table+` WHERE `+st.table+` MATCH ? AND rowid >= ? AND rowid <= ?
		AND `+st.inFilter()+` LIMIT `+strconv.Itoa(RankCap+1), args...)
	if err != nil {
		return nil, 0, false, 0, false, fmt.Errorf("match: %w", err)
	}
	tested := int(float64(least) * float64(hi.Int64-lo.Int64+1) / float64(max(maxRow, 1)))
	hits, total, approx, read, err = s.collect(rows, lo.Int64, hi.Int64, want, tested)
	return hits, total, approx, read, err == nil, err
}

// filterPages counts the pages st's filters pick, as far as limit, with their id range.
func (st *statement) filterPages(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, limit int) (n int, lo, hi sql.NullInt64, err error) {
	if err := q.QueryRowContext(ctx, `SELECT count(*), min(id), max(id) FROM (SELECT p.id FROM pages p WHERE `+st.filterWhere+` LIMIT `+strconv.Itoa(limit)+`)`,
		st.filterArgs...).Scan(&n, &lo, &hi); err != nil {
		return 0, lo, hi, fmt.Errorf("filter: %w", err)
	}
	return n, lo, hi, nil
}

// inFilter is the condition that a text match of st's index is among its filters' pages
// (filterArgs): the filters' pages become one in-memory index each match is checked against
// ("+" keeps FTS5 from looking each of them up instead).
func (st *statement) inFilter() string {
	return `+` + st.table + `.rowid IN (SELECT p.id FROM pages p WHERE ` + st.filterWhere + `)`
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
	h := newHighlighter(root, s.w, nil)
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
			scores[id] = s.w.Body + s.w.Title*float64(hitWords(title, h)) + s.w.URL*float64(hitWords(url, h))
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

// hitWords counts the distinct query words (or forms of them) in text. It runs over every
// candidate's title and URL, so ASCII text is split here without allocating; other text
// goes through tokenSpans.
func hitWords(text string, h *highlighter) int {
	var seen []string
	var buf [64]byte
	for i := 0; i < len(text); {
		c := text[i]
		if c >= utf8.RuneSelf {
			return hitWordsSlow(text, h)
		}
		if !isWordByte(c) {
			i++
			continue
		}
		j := i
		for j < len(text) && isWordByte(text[j]) {
			j++
		}
		if j < len(text) && text[j] >= utf8.RuneSelf {
			return hitWordsSlow(text, h)
		}
		if n := j - i; n <= len(buf) {
			for k := range n {
				buf[k] = lowerASCII(text[i+k])
			}
			if w := buf[:n]; h.match(string(w)) && !slices.Contains(seen, string(w)) {
				seen = append(seen, string(w))
			}
		}
		i = j
	}
	return len(seen)
}

func hitWordsSlow(text string, h *highlighter) int {
	var seen []string
	for _, sp := range tokenSpans(text, h) {
		if sp.hit && !slices.Contains(seen, sp.key) {
			seen = append(seen, sp.key)
		}
	}
	return len(seen)
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

package search

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"

	"mundaneum/backend/query"
	"mundaneum/backend/store"
)

// Caps that keep every query fast whatever the index size.
const (
	TotalCap = 10_000 // matches counted exactly
	// RankCap bounds the matches scored (bm25 reads each one's column sizes, ~4 us a
	// row): beyond it, the first RankCap matches in index order are ranked (RankApprox).
	RankCap = 500
)

// found is what running a plan's strategy found of its matches.
type found struct {
	hits []hit // ranked, best first
	// total is the number of matches: counted, estimated from the share of the index read
	// (approx), or TotalCap when more match (atLeast).
	total           int
	approx, atLeast bool
	// partial: more matched than were ranked, the first found were (Results.RankApprox).
	partial bool
	read    float64 // the share of the index read for the matches (1: all of it)
}

// find runs the plan's strategy and returns the first matches ranked: at least want of
// them when there are as many (max(want, BoostDepth) without text to drive the search).
func (s *Searcher) find(ctx context.Context, root query.Node, pl *plan, want int) (found, error) {
	switch pl.kind {
	case filtersOnly, rankApart:
		return s.findByFilters(ctx, pl, max(want, s.w.BoostDepth))
	case filtersFirst:
		return s.findText(ctx, root, pl, want, s.filtersFirst)
	}
	return s.findText(ctx, root, pl, want, s.firstMatches)
}

// findText runs a text strategy: the best of the first RankCap matches in rowid order, all
// of them when there are fewer, with the number of matches (estimated when approx) and the
// share of the index read for them (see collect).
func (s *Searcher) findText(ctx context.Context, root query.Node, pl *plan, want int,
	first func(context.Context, *plan, int) (found, error)) (found, error) {
	f, err := first(ctx, pl, want)
	if err != nil || len(f.hits) == 0 {
		return found{read: f.read}, err
	}
	if err := s.scoreFound(ctx, root, pl, f.hits); err != nil {
		return found{}, err
	}
	sortHits(f.hits)
	if f.approx && pl.least > 0 {
		// No query matches more rows than its rarest conjunct has.
		f.total = max(len(f.hits), min(f.total, pl.least))
	}
	f.partial = f.approx
	return f, nil
}

// firstMatches finds the first RankCap matches of the plan in rowid order (textOnly and
// textJoin): scored when bm25 can afford it, their number (estimated, approx, when there
// are more) and the share of the index read.
func (s *Searcher) firstMatches(ctx context.Context, pl *plan, want int) (found, error) {
	maxRow, err := s.estimator().maxRowid(ctx)
	if err != nil {
		return found{}, err
	}
	st := pl.st
	id, from, score := "p.id", st.from, "0"
	if pl.kind == textOnly {
		id, from = st.table+".rowid", st.table
	}
	if pl.onePass {
		score = st.rankCol
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+id+`, `+score+` FROM `+from+` WHERE `+st.where+` LIMIT `+strconv.Itoa(RankCap+1),
		st.args...)
	if err != nil {
		return found{}, fmt.Errorf("match: %w", err)
	}
	return s.collect(rows, 1, maxRow, want, pl.least)
}

// filtersFirst finds the matches of a text query with filters that pick few pages
// (filtersFirst) by checking the text's own matches against the filters' pages, unscored,
// in rowid order (read by collect, which may stop early).
func (s *Searcher) filtersFirst(ctx context.Context, pl *plan, want int) (found, error) {
	span, st := pl.filtered, pl.st
	if span.n == 0 {
		return found{read: 1}, nil
	}
	maxRow, err := s.estimator().maxRowid(ctx)
	if err != nil {
		return found{}, err
	}
	args := append([]any{st.match, span.lo, span.hi}, st.filterArgs...)
	rows, err := s.db.QueryContext(ctx, `SELECT rowid, 0 FROM `+st.table+` WHERE `+st.table+` MATCH ? AND rowid >= ? AND rowid <= ?
		AND `+st.inFilter()+` LIMIT `+strconv.Itoa(RankCap+1), args...)
	if err != nil {
		return found{}, fmt.Errorf("match: %w", err)
	}
	tested := int(float64(pl.least) * float64(span.hi-span.lo+1) / float64(max(maxRow, 1)))
	return s.collect(rows, span.lo, span.hi, want, tested)
}

// collect reads up to RankCap+1 matches (id and bm25 score) in rowid order from rows,
// which go through the rowids lo to hi of the index, testing about tested rows of it
// (the rows of the query's rarest conjunct there). A query of common words can match few
// of the many rows FTS5 tests (a phrase of common words: every row with all its words).
// Once collect holds the want matches of the page asked for, and FTS5 has tested about
// Weights.SpreadRows rows, the rest is left unread: the matches found are ranked and the
// total is estimated from the share read (found.read, 1 when it read all).
func (s *Searcher) collect(rows *sql.Rows, lo, hi int64, want, tested int) (found, error) {
	defer rows.Close()
	var f found
	span := float64(max(hi-lo+1, 1))
	enough := false
	for !enough && rows.Next() {
		var h hit
		var r float64
		if err := rows.Scan(&h.id, &r); err != nil {
			return found{}, err
		}
		h.score = -r // bm25 is negative, lower is better
		f.hits = append(f.hits, h)
		f.read = float64(h.id-lo+1) / span
		enough = len(f.hits) >= max(want, 1) && len(f.hits) <= RankCap && f.read < 1 && f.read*float64(tested) >= float64(s.w.SpreadRows)
	}
	if err := rows.Err(); err != nil {
		return found{}, fmt.Errorf("match: %w", err)
	}
	last := int64(0)
	if len(f.hits) > 0 {
		last = f.hits[len(f.hits)-1].id - lo + 1
	}
	switch {
	case enough:
		f.total, f.approx = estimateTotal(len(f.hits), last, hi-lo+1), true
	case len(f.hits) > RankCap:
		f.total, f.approx, f.read = estimateTotal(len(f.hits), last, hi-lo+1), true, 1
		f.hits = f.hits[:RankCap]
	default:
		f.total, f.read = len(f.hits), 1
	}
	return f, nil
}

// findByFilters runs filtersOnly and rankApart: the matches counted up to TotalCap, and the
// first k of them in the order of the index that finds them, or ranked by bm25 apart.
func (s *Searcher) findByFilters(ctx context.Context, pl *plan, k int) (found, error) {
	st := pl.st
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM `+st.from+` WHERE `+st.where+` LIMIT `+strconv.Itoa(TotalCap+1)+`)`,
		st.args...).Scan(&n)
	if err != nil {
		return found{}, fmt.Errorf("count: %w", err)
	}
	if n == 0 {
		return found{}, nil
	}
	f := found{total: min(n, TotalCap), atLeast: n > TotalCap, read: 1}
	if pl.kind == rankApart {
		f.partial = f.total > RankCap
		f.hits, err = s.rankApart(ctx, pl, k)
		return f, err
	}
	// Nothing ranks the matches: take the first k in the order of the index that finds
	// them (sorting a filter's every match by id would cost a temporary B-tree); the
	// citation boost orders them.
	rows, err := s.db.QueryContext(ctx, `SELECT p.id, 0 FROM `+st.from+` WHERE `+st.where+` LIMIT `+strconv.Itoa(k), st.args...)
	if err != nil {
		return found{}, fmt.Errorf("rank: %w", err)
	}
	if f.hits, err = scanHits(rows); err != nil {
		return found{}, err
	}
	for i := range f.hits {
		f.hits[i].score = 1
	}
	return f, nil
}

// rankApart scores up to RankCap text matches of a rankApart plan with bm25 and orders up
// to TotalCap matches of its statement by those scores (0 for pages matched by a filter
// only), returning the best k.
func (s *Searcher) rankApart(ctx context.Context, pl *plan, k int) ([]hit, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT rowid, `+s.w.bm25Of("page_fts")+` FROM page_fts WHERE page_fts MATCH ? LIMIT `+strconv.Itoa(RankCap), pl.rank)
	if err != nil {
		return nil, fmt.Errorf("rank: %w", err)
	}
	scores, err := scoreMap(rows)
	if err != nil {
		return nil, err
	}
	st := pl.st
	rows, err = s.db.QueryContext(ctx, `SELECT p.id FROM `+st.from+` WHERE `+st.where+` LIMIT `+strconv.Itoa(TotalCap), st.args...)
	if err != nil {
		return nil, fmt.Errorf("rank: %w", err)
	}
	defer rows.Close()
	var hits []hit
	for rows.Next() {
		var h hit
		if err := rows.Scan(&h.id); err != nil {
			return nil, err
		}
		h.score = scores[h.id]
		hits = append(hits, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("rank: %w", err)
	}
	sortHits(hits)
	return hits[:min(k, len(hits))], nil
}

// countNew counts the matches whose content appeared or changed after since (unix ms).
func (st *statement) countNew(ctx context.Context, db store.Querier, since int64) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM `+st.from+` WHERE `+st.where+
		` AND coalesce(p.changed_at, p.discovered_at) > ? LIMIT `+strconv.Itoa(TotalCap)+`)`, append(slices.Clone(st.args), since)...).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count new: %w", err)
	}
	return n, nil
}

package search

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
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
	// Stem makes a plain word match the other words of its stem too (a stem prefix, or up
	// to MaxVariants inflections of a short stem); the word as typed is counted
	// ExactRepeat more times in bm25, so exact matches rank first.
	Stem        bool
	MaxVariants int
	ExactRepeat int
}

// DefaultWeights are the weights a new Searcher uses.
var DefaultWeights = Weights{
	Title: 10, Headings: 4, Body: 1, Anchors: 8, URL: 3,
	Links:      0.1,
	BoostDepth: 200,
	Stem:       true, MaxVariants: 4, ExactRepeat: 1,
}

// bm25SQL is the rank expression for the weights (numbers formatted here, never user text).
func (w Weights) bm25SQL() string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return "bm25(page_fts, " + f(w.Title) + ", " + f(w.Headings) + ", " + f(w.Body) + ", " + f(w.Anchors) + ", " + f(w.URL) + ")"
}

// hit is a candidate: its page and its score (higher is better).
type hit struct {
	id    int64
	score float64
}

// boost multiplies the scores of the first BoostDepth hits by their citation boost, sorts
// them again, and returns the best score of the query (the 1000 of normalised scores).
func (s *Searcher) boost(ctx context.Context, hits []hit) (float64, error) {
	n := min(len(hits), s.w.BoostDepth)
	if n == 0 {
		return 0, nil
	}
	if s.w.Links > 0 {
		cites, err := citing(ctx, s.db, hits[:n])
		if err != nil {
			return 0, err
		}
		for i := range hits[:n] {
			hits[i].score *= 1 + s.w.Links*math.Log1p(float64(cites[hits[i].id]))
		}
		slices.SortStableFunc(hits[:n], func(a, b hit) int {
			switch {
			case a.score > b.score:
				return -1
			case a.score < b.score:
				return 1
			}
			return 0
		})
	}
	return hits[0].score, nil
}

// citing counts the distinct other pages linking to each hit.
func citing(ctx context.Context, db *sql.DB, hits []hit) (map[int64]int, error) {
	rows, err := db.QueryContext(ctx, `SELECT to_id, count(DISTINCT from_id) FROM links
		WHERE to_id IN (SELECT value FROM json_each(?)) AND from_id <> to_id GROUP BY to_id`, idsJSON(hits))
	if err != nil {
		return nil, fmt.Errorf("count citing pages: %w", err)
	}
	defer rows.Close()
	out := make(map[int64]int, len(hits))
	for rows.Next() {
		var id int64
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		out[id] = n
	}
	return out, rows.Err()
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

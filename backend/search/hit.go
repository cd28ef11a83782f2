package search

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"slices"
)

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

// idsJSON is the hits' page ids as a JSON array, bound where a statement reads them with
// json_each.
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

// factors are a hit's second-stage signals.
type factors struct {
	Coverage   float64 // share of query words in the title or last URL segment
	All, Exact bool    // Exact: the title is the query (Within and All), for Explain
	// Within: every word of the title (or of the last URL segment) is a query word: the page
	// is named by part of the query ("VACUUM" for `vacuum full`, "git-log(1)" for
	// `git log --follow`). Exact is Within and All.
	Within bool
	List   bool // a changelog or index page the query did not ask for
}

// explain says how a hit's score was made, for `mundaneum search --explain`.
func (h hit) explain() string {
	if h.first == 0 && h.second == 0 {
		return fmt.Sprintf("score %.4g (not rescored: below the first %d)", h.score, DefaultWeights.BoostDepth)
	}
	first := h.first
	if first == 0 && h.second != 0 {
		first = h.score / h.second
		if h.third != 0 {
			first /= h.third
		}
	}
	out := fmt.Sprintf("bm25 %.4g", first)
	if h.cites != 0 {
		out += fmt.Sprintf(" × cited %.3g", h.cites)
	}
	if h.second != 0 {
		out += fmt.Sprintf(" × title/URL %.3g (coverage %.2f", h.second, h.sig.Coverage)
		if h.sig.All {
			out += ", all words"
		}
		switch {
		case h.sig.Exact:
			out += ", title is the query"
		case h.sig.Within:
			out += ", title within the query"
		}
		if h.sig.List {
			out += ", changelog/index page"
		}
		out += ")"
	}
	if h.third != 0 {
		out += fmt.Sprintf(" × text %.3g (%.0f%% of the words within %d tokens", h.third, 100*h.text.Near, proxWindow)
		if h.text.Heading {
			out += ", a heading has them all"
		}
		out += ")"
	}
	return out + fmt.Sprintf(" = %.4g", h.score)
}

const proxWindow = 12

// textSignals are a hit's third-stage signals.
type textSignals struct {
	Near    float64 // share of the query's words in the best window
	Heading bool
}

// sortHits orders hits by score, best first, then by page.
func sortHits(hits []hit) {
	slices.SortFunc(hits, func(a, b hit) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		case a.id < b.id:
			return -1
		case a.id > b.id:
			return 1
		}
		return 0
	})
}

// scoreMap reads (id, bm25) rows into scores by page, higher is better.
func scoreMap(rows *sql.Rows) (map[int64]float64, error) {
	scored, err := scanHits(rows)
	if err != nil {
		return nil, fmt.Errorf("rank: %w", err)
	}
	scores := make(map[int64]float64, len(scored))
	for _, h := range scored {
		scores[h.id] = h.score
	}
	return scores, nil
}

// scanHits reads (id, bm25) rows into hits scored higher-is-better.
func scanHits(rows *sql.Rows) ([]hit, error) {
	defer rows.Close()
	var hits []hit
	for rows.Next() {
		var h hit
		var r float64
		if err := rows.Scan(&h.id, &r); err != nil {
			return nil, err
		}
		h.score = -r // bm25 is negative, lower is better
		hits = append(hits, h)
	}
	return hits, rows.Err()
}

package search

import (
	"context"
	"fmt"
)

// Pages that name another page as their canonical URL (a print version, a copy with
// tracking parameters: the store's canonicals table) are collapsed onto it: a copy found
// with its canonical page is left out of the results, and the canonical page says how many
// copies it has (Result.Alternates).

// collapseCanonical drops from hits (best first) the pages whose canonical page is also
// among them, and returns how many it dropped.
func (s *Searcher) collapseCanonical(ctx context.Context, hits []hit) ([]hit, int, error) {
	if len(hits) < 2 {
		return hits, 0, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT page_id, of_id FROM canonicals
		WHERE page_id IN (SELECT value FROM json_each(?))`, idsJSON(hits))
	if err != nil {
		return nil, 0, fmt.Errorf("canonicals: %w", err)
	}
	defer rows.Close()
	of := map[int64]int64{}
	for rows.Next() {
		var id, c int64
		if err := rows.Scan(&id, &c); err != nil {
			return nil, 0, err
		}
		of[id] = c
	}
	if err := rows.Err(); err != nil || len(of) == 0 {
		return hits, 0, err
	}
	found := make(map[int64]bool, len(hits))
	for _, h := range hits {
		found[h.id] = true
	}
	kept := hits[:0:0]
	for _, h := range hits {
		if c, ok := of[h.id]; ok && found[c] {
			continue
		}
		kept = append(kept, h)
	}
	return kept, len(hits) - len(kept), nil
}

// alternates counts, for each page of results, the pages that name it as canonical.
func (s *Searcher) alternates(ctx context.Context, page []hit) (map[int64]int, error) {
	out := map[int64]int{}
	if len(page) == 0 {
		return out, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT of_id, count(*) FROM canonicals
		WHERE of_id IN (SELECT value FROM json_each(?)) GROUP BY of_id`, idsJSON(page))
	if err != nil {
		return nil, fmt.Errorf("canonicals: %w", err)
	}
	defer rows.Close()
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

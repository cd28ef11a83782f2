package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ImportSummary saves a summary that came from source sourceID (a peer or a SOIF file) as
// one atomic change, with the mark of where it came from. A page that already has this
// content (the same hash) is left as it is: from the same source it is a repeat, and one
// crawled here keeps its own copy, which is the better one. Kept reports that; Older, that
// the page holds a copy fetched after the summary's time (also left as it is).
func (s *Store) ImportSummary(ctx context.Context, r *Result, t Target, sourceID int64) (ImportOutcome, error) {
	out, err := Get(ctx, s.writer, func(tx *Tx) (ImportOutcome, error) {
		older := false
		out, err := s.importResult(ctx, tx, r, t, false, func(id int64) (bool, error) {
			st, err := tx.Stmt(ctx, `SELECT coalesce(hash, ''), coalesce(fetched_at, 0) FROM pages WHERE id = ?`)
			if err != nil {
				return false, err
			}
			var hash string
			var at int64
			if err := st.QueryRowContext(ctx, id).Scan(&hash, &at); err != nil {
				return false, err
			}
			older = hash != "" && hash != r.Hash && at > r.at()
			return hash != "" && (hash == r.Hash || older), nil
		})
		out.Older = older
		if err != nil || out.Kept {
			return out, err
		}
		st, err := tx.Stmt(ctx, `INSERT INTO page_sources(page_id, source_id, hash) VALUES (?, ?, ?)
			ON CONFLICT(page_id) DO UPDATE SET source_id = excluded.source_id, hash = excluded.hash`)
		if err != nil {
			return out, err
		}
		_, err = st.ExecContext(ctx, out.PageID, sourceID, r.Hash)
		return out, err
	})
	if err != nil {
		return out, fmt.Errorf("import %s: %w", r.URL, err)
	}
	return out, nil
}

// LastSummarySeq is the newest seq of the summary log (0 when empty): where a stream of
// every summary so far ends.
func (s *Store) LastSummarySeq(ctx context.Context) (int64, error) {
	var seq sql.NullInt64
	err := s.read.QueryRowContext(ctx, `SELECT max(seq) FROM summary_log`).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return seq.Int64, err
}

package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"mundaneum/backend/pairs"
)

// An idle index works on what makes searches faster: the pair index and merging segments.

// The pair index (backend/pairs) is built in the background of a workspace's life: once
// the word index has PairsMinRows rows, its frequent words are chosen from a sample of
// pages, and every row gets its pairs row, a step at a time; a row written after the
// choice gets its pairs row with it. The words are never chosen again (until a rebuild), so
// a search that found the pair index complete can trust it: rows indexed since have their
// pairs, with the same words, or are noted in pair_missing.
//
// Past PairsMinRows a row's pairs row costs the writer more than its word row (0.8-0.9 of
// 1.1-1.3 ms a page at 40,000 rows, docs/benchmarks.md "fts-detail"). So while the stage
// catches up with a crawl it writes rows without their pairs rows and notes them in
// pair_missing in the same transaction (rowWriter.note); when idle, the pairs step writes
// them in bulk, by rowid, a step at a time. Search asks page_pairs only when nothing is
// missing (PairsComplete): meanwhile phrases are found from the word index, as below
// PairsMinRows.

// PairsMinRows is the size of the word index at which its frequent words are chosen: below
// it, FTS5 finds any phrase in a few milliseconds, and the pair index would add a third to
// the workspace's size (10 KB a page of the synthetic web).
var PairsMinRows = 50_000

const (
	pairsSample = 20_000 // pages read to choose the frequent words
	// mergeStep is the most index pages one merge step writes (about 8 MB).
	mergeStep = 2000
)

// pairsStep is how many rows a pairs step writes (a variable for tests).
var pairsStep = 2_000

// PairsProgress is where building the pair index stands.
type PairsProgress struct {
	Words    int   // frequent words chosen (0: not yet)
	Done     int64 // rows of the index with their pairs row (by rowid, approximately)
	Total    int64 // rows of the index
	Missing  int64 // rows written during a crawl whose pairs rows are still to write
	Complete bool  // every row has its pairs row: search uses the pair index
}

// PairsComplete reports whether every row of the index has its pairs row, from any pool
// that reads the index: search asks page_pairs only then.
func PairsComplete(ctx context.Context, db *sql.DB) (bool, error) {
	var complete bool
	err := db.QueryRowContext(ctx, `SELECT complete AND NOT EXISTS (SELECT 1 FROM pair_missing) FROM pair_state`).Scan(&complete)
	if err != nil && strings.Contains(err.Error(), "no such table: pair_missing") {
		// An index of format 3, read while an older version writes it: phrases are found
		// from the word index.
		return false, nil
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("pair index: %w", err)
	}
	return complete, nil
}

// PairWords reads the pair index's frequent words (nil before they are chosen, or when
// none were frequent), from any pool that reads the index.
func PairWords(ctx context.Context, db *sql.DB) (*pairs.Words, error) {
	rows, err := db.QueryContext(ctx, `SELECT word FROM pair_words`)
	if err != nil {
		return nil, fmt.Errorf("pair index: %w", err)
	}
	defer rows.Close()
	var list []string
	for rows.Next() {
		var w string
		if err := rows.Scan(&w); err != nil {
			return nil, fmt.Errorf("pair index: %w", err)
		}
		list = append(list, w)
	}
	if err := rows.Err(); err != nil || len(list) == 0 {
		return nil, err
	}
	return pairs.NewWords(list), nil
}

// Generation is the index's generation, from any pool that reads it: it changes at every
// rebuild and never repeats for a workspace, even when the index file is deleted and built
// again; what a search caches of the index (its frequent words, its terms) is good for one
// generation.
func Generation(ctx context.Context, db *sql.DB) (int64, error) {
	var g int64
	err := db.QueryRowContext(ctx, `SELECT generation FROM index_state`).Scan(&g)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("index: %w", err)
	}
	return g, nil
}

// maintainStep does one step of the idle work and reports whether there was any.
func (s *stage) maintainStep() (bool, error) {
	did, err := s.pairsStep()
	if err != nil || did {
		return did, err
	}
	if !s.merged {
		more, err := s.mergeStep()
		if err != nil || more {
			return more, err
		}
		s.merged = true
	}
	return s.vocabStep()
}

// pairsStep chooses the frequent words when due, or writes the pairs rows of the next
// pairsStep rows of the first build, or of pairsStep rows noted missing, committed. It
// reports whether it did anything.
func (s *stage) pairsStep() (bool, error) {
	ctx := s.ctx
	var builtTo int64
	var complete bool
	err := s.x.db.QueryRowContext(ctx, `SELECT built_to, complete FROM pair_state`).Scan(&builtTo, &complete)
	fresh := errors.Is(err, sql.ErrNoRows)
	if err != nil && !fresh {
		return false, fmt.Errorf("pair index: %w", err)
	}
	switch {
	case fresh && s.state.Rows < int64(PairsMinRows):
		return false, nil
	case fresh:
		return true, s.choosePairWords()
	case complete:
		return s.fillStep()
	}
	ids, err := s.rowIDs(`SELECT id FROM page_fts_docsize WHERE id > ? ORDER BY id LIMIT ?`, builtTo, pairsStep)
	if err != nil {
		return false, err
	}
	from := builtTo
	if len(ids) > 0 {
		builtTo = ids[len(ids)-1]
	}
	complete = len(ids) < pairsStep
	err = s.writePairsRows(ids, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE pair_state SET built_to = ?, complete = ?`, builtTo, complete); err != nil {
			return err
		}
		// Rows noted missing that this step writes are missing no more.
		return s.unmiss(tx, `DELETE FROM pair_missing WHERE page_id > ? AND page_id <= ?`, from, builtTo)
	})
	if err != nil {
		return false, err
	}
	s.pairsBuilt = complete
	s.publishPairs(PairsProgress{Words: s.words.Len(), Done: s.pairsDone(builtTo, complete), Total: s.state.Rows,
		Missing: s.missing, Complete: complete && s.missing == 0})
	return true, nil
}

// fillStep writes the pairs rows of up to pairsStep rows noted missing (the lowest rowids
// first), committed; it reports whether there were any.
func (s *stage) fillStep() (bool, error) {
	if s.words == nil {
		return false, nil
	}
	ids, err := s.rowIDs(`SELECT page_id FROM pair_missing ORDER BY page_id LIMIT ?`, pairsStep)
	if err != nil || len(ids) == 0 {
		return false, err
	}
	err = s.writePairsRows(ids, func(tx *sql.Tx) error {
		return s.unmiss(tx, `DELETE FROM pair_missing WHERE page_id <= ?`, ids[len(ids)-1])
	})
	if err != nil {
		return false, err
	}
	s.publishMissing()
	return true, nil
}

// unmiss runs a delete of pair_missing's rows in tx and counts them off s.missing (once
// committed: see writePairsRows).
func (s *stage) unmiss(tx *sql.Tx, q string, args ...any) error {
	res, err := tx.ExecContext(s.ctx, q, args...)
	if err != nil {
		return err
	}
	k, _ := res.RowsAffected()
	s.unmissed += k
	return nil
}

// writePairsRows (re)writes the pairs rows of the index's rows ids from what the workspace
// stores now, with before's plain writes first, in one transaction.
func (s *stage) writePairsRows(ids []int64, before func(*sql.Tx) error) error {
	ctx := s.ctx
	ins, err := s.x.src.IndexInputs(ctx, ids)
	if err != nil {
		return err
	}
	tx, err := s.x.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("pair index: %w", err)
	}
	defer tx.Rollback()
	s.unmissed = 0
	if err := before(tx); err != nil {
		return fmt.Errorf("pair index: %w", err)
	}
	w, err := newRowWriter(ctx, tx, s.words)
	if err != nil {
		return err
	}
	defer w.close()
	// What deleting the rows' old pairs rows leaves in FTS5's totals (see totals.go), read
	// before the first FTS5 write; and which rows are in the word index (a row noted
	// missing always is; the first build's ids are read from it).
	var f fix
	indexed := make(map[int64]bool, len(ins))
	for _, in := range ins {
		ok, err := w.indexed(ctx, in.ID)
		if err != nil {
			return err
		}
		indexed[in.ID] = ok
		psz, ok, err := sizes(ctx, w.psize, in.ID)
		if err != nil {
			return err
		}
		if ok {
			f.Pairs.addSizes(psz)
		}
	}
	for _, in := range ins {
		if _, err := w.pdel.ExecContext(ctx, in.ID); err != nil {
			return fmt.Errorf("pairs of page %d: %w", in.ID, err)
		}
		if d, ok := DocOf(in); ok && indexed[in.ID] {
			if err := w.writePairs(ctx, d); err != nil {
				return err
			}
		}
	}
	if err := subtract(ctx, tx, f); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("pair index: %w", err)
	}
	s.missing -= s.unmissed
	s.merged, s.settled = false, false
	return nil
}

// publishMissing tells readers how many rows lack their pairs rows.
func (s *stage) publishMissing() {
	s.mu.Lock()
	s.pub.pairs.Missing = s.missing
	s.pub.pairs.Complete = s.pairsBuilt && s.missing == 0
	if s.pairsBuilt {
		s.pub.pairs.Done = max(s.state.Rows-s.missing, 0)
	}
	s.pub.pairs.Total = s.state.Rows
	s.mu.Unlock()
}

func (s *stage) pairsDone(builtTo int64, complete bool) int64 {
	if complete {
		return max(s.state.Rows-s.missing, 0)
	}
	var maxID int64
	s.x.db.QueryRowContext(s.ctx, `SELECT coalesce(max(id), 0) FROM page_fts_docsize`).Scan(&maxID)
	if maxID == 0 {
		return 0
	}
	return int64(float64(s.state.Rows) * float64(builtTo) / float64(maxID))
}

func (s *stage) publishPairs(p PairsProgress) {
	s.mu.Lock()
	s.pub.pairs = p
	s.mu.Unlock()
}

func (s *stage) rowIDs(q string, args ...any) ([]int64, error) {
	rows, err := s.x.db.QueryContext(s.ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// choosePairWords chooses the frequent words from a sample of the index's rows spread
// over it, and starts the build with them.
func (s *stage) choosePairWords() error {
	ctx := s.ctx
	every := max(1, s.state.Rows/pairsSample)
	ids, err := s.rowIDs(`SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) AS k FROM page_fts_docsize) WHERE k % ? = 0`, every)
	if err != nil {
		return err
	}
	c := pairs.NewCounter()
	for from := 0; from < len(ids); from += batchPages {
		ins, err := s.x.src.IndexInputs(ctx, ids[from:min(from+batchPages, len(ids))])
		if err != nil {
			return err
		}
		for _, in := range ins {
			if d, ok := DocOf(in); ok {
				c.Add(d.Title, d.Headings, d.Body, d.Anchors, d.URL)
			}
		}
	}
	list := c.Frequent()
	tx, err := s.x.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("pair index: %w", err)
	}
	defer tx.Rollback()
	for _, w := range list {
		if _, err := tx.ExecContext(ctx, `INSERT INTO pair_words(word) VALUES (?)`, w); err != nil {
			return fmt.Errorf("pair index: %w", err)
		}
	}
	// No frequent words (a workspace of few pages, or of text without shared words):
	// nothing to build, and search never asks page_pairs.
	if _, err := tx.ExecContext(ctx, `INSERT INTO pair_state(id, chosen_at_rows, built_to, complete) VALUES (1, ?, 0, ?)`,
		s.state.Rows, len(list) == 0); err != nil {
		return fmt.Errorf("pair index: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("pair index: %w", err)
	}
	if len(list) > 0 {
		s.words = pairs.NewWords(list)
	}
	s.pairsBuilt, s.missing = len(list) == 0, 0
	s.publishPairs(PairsProgress{Words: len(list), Total: s.state.Rows, Complete: len(list) == 0})
	return nil
}

// mergeStep merges segments of the word and pair indexes (at most mergeStep pages written,
// committed) and reports whether it merged anything. A query seeks every segment once per
// word, so a merged index answers faster; an interrupted merge loses nothing.
func (s *stage) mergeStep() (bool, error) {
	ctx := s.ctx
	tx, err := s.x.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("merge index: %w", err)
	}
	defer tx.Rollback()
	merged := false
	for _, q := range []string{
		`INSERT INTO page_fts(page_fts, rank) VALUES ('merge', ?)`,
		`INSERT INTO page_pairs(page_pairs, rank) VALUES ('merge', ?)`,
	} {
		var before, after int64
		if err := tx.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&before); err != nil {
			return false, err
		}
		if _, err := tx.ExecContext(ctx, q, mergeStep); err != nil {
			return false, fmt.Errorf("merge index: %w", err)
		}
		if err := tx.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&after); err != nil {
			return false, err
		}
		merged = merged || after-before >= 2 // under 2 changes is FTS5's sign that nothing was merged
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("merge index: %w", err)
	}
	return merged, nil
}

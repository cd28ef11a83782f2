package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"mundaneum/backend/pairs"
)

// The pair index (migration 0008, backend/pairs) is built in the background of a workspace's
// life: once the word index has PairsMinRows rows (at the end of a crawl run), its frequent
// words are chosen from a sample of pages, and every row gets its pairs row, a step at a
// time (BuildPairsStep); a page indexed after the choice gets its row with its words. The
// words are never chosen again, so a search that found the index complete can trust it
// for good: pages indexed since have their rows, with the same words.

// PairsMinRows is the size of the word index at which its frequent words are chosen: below
// it, FTS5 finds any phrase in a few milliseconds.
var PairsMinRows = 10_000

const (
	pairsSample = 20_000 // pages read to choose the frequent words
	pairsStep   = 2_000  // rows a BuildPairsStep indexes
)

// pairIndex is the writer goroutine's view of the pair index.
type pairIndex struct {
	words     *pairs.Words // the words rows are written with now; nil before the choice
	committed *pairs.Words // words as of the last commit, restored when a batch rolls back
}

// PairsProgress is where building the pair index stands.
type PairsProgress struct {
	Words    int   // frequent words chosen (0: not yet)
	Done     int64 // rows of the index built (by rowid, approximately)
	Total    int64 // rows of the index
	Complete bool
}

// PairsComplete reports whether every row of the index has its pairs row, from any pool
// of the workspace: search asks page_pairs only then.
func PairsComplete(ctx context.Context, db *sql.DB) (bool, error) {
	var complete bool
	err := db.QueryRowContext(ctx, `SELECT complete FROM pair_state`).Scan(&complete)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("pair index: %w", err)
	}
	return complete, nil
}

// PairWords reads the pair index's frequent words (nil before they are chosen, or when
// none were frequent), from any pool of the workspace.
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

// BuildPairs builds the pair index to completion (see BuildPairsStep), reporting each step.
func (s *Store) BuildPairs(ctx context.Context, progress func(PairsProgress)) (PairsProgress, error) {
	for {
		p, more, err := s.BuildPairsStep(ctx)
		if err != nil || !more {
			return p, err
		}
		if progress != nil {
			progress(p)
		}
	}
}

// BuildPairsStep does one step of building the pair index, committed: it chooses the
// frequent words when due, or writes the pairs rows of the next pairsStep rows. It reports
// where the build stands and whether there is more to do.
func (s *Store) BuildPairsStep(ctx context.Context) (PairsProgress, bool, error) {
	if s.writer == nil {
		return PairsProgress{}, false, errors.New("pair index: the workspace is open read-only")
	}
	p, err := Get(ctx, s.writer, func(tx *Tx) (PairsProgress, error) {
		var p PairsProgress
		var builtTo int64
		err := tx.QueryRowContext(ctx, `SELECT built_to, complete FROM pair_state`).Scan(&builtTo, &p.Complete)
		fresh := errors.Is(err, sql.ErrNoRows)
		if err != nil && !fresh {
			return p, err
		}
		var maxID int64
		if err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce(max(id), 0) FROM page_fts_docsize`).Scan(&p.Total, &maxID); err != nil {
			return p, err
		}
		if fresh {
			if p.Total < int64(PairsMinRows) {
				return p, nil
			}
			n, err := s.choosePairWords(ctx, tx, p.Total)
			p.Words, p.Complete = n, n == 0
			return p, err
		}
		p.Words = s.pairs.words.Len()
		if p.Complete {
			p.Done = p.Total
			return p, nil
		}
		rows, err := tx.QueryContext(ctx, `SELECT id FROM page_fts_docsize WHERE id > ? ORDER BY id LIMIT ?`, builtTo, pairsStep)
		if err != nil {
			return p, err
		}
		n := 0
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return p, err
			}
			s.queuePairs(id)
			builtTo = id
			n++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return p, err
		}
		p.Complete = n < pairsStep
		if _, err := tx.ExecContext(ctx, `UPDATE pair_state SET built_to = ?, complete = ?`, builtTo, p.Complete); err != nil {
			return p, err
		}
		p.Done = p.Total
		if maxID > 0 && !p.Complete {
			p.Done = int64(float64(p.Total) * float64(builtTo) / float64(maxID))
		}
		return p, nil
	})
	if err == nil {
		err = s.writer.Flush(ctx)
	}
	if err != nil {
		return p, false, fmt.Errorf("pair index: %w", err)
	}
	more := p.Words > 0 && !p.Complete
	return p, more, nil
}

// choosePairWords chooses the frequent words from a sample of the index's rows spread over
// it, and starts the build with them.
func (s *Store) choosePairWords(ctx context.Context, tx *Tx, total int64) (int, error) {
	every := max(1, total/pairsSample)
	rows, err := tx.QueryContext(ctx, `SELECT f.title, f.headings, f.body, f.anchors, f.url FROM page_fts f
		WHERE f.rowid IN (SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) AS k FROM page_fts_docsize) WHERE k % ? = 0)`, every)
	if err != nil {
		return 0, err
	}
	c := pairs.NewCounter()
	for rows.Next() {
		var cols [5]sql.NullString
		if err := rows.Scan(&cols[0], &cols[1], &cols[2], &cols[3], &cols[4]); err != nil {
			rows.Close()
			return 0, err
		}
		c.Add(cols[0].String, cols[1].String, cols[2].String, cols[3].String, cols[4].String)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	list := c.Frequent()
	for _, w := range list {
		if _, err := tx.ExecContext(ctx, `INSERT INTO pair_words(word) VALUES (?)`, w); err != nil {
			return 0, err
		}
	}
	// No frequent words (a workspace of few pages, or of text without shared words): nothing
	// to build, and search never asks page_pairs.
	if _, err := tx.ExecContext(ctx, `INSERT INTO pair_state(id, chosen_at_rows, built_to, complete) VALUES (1, ?, 0, ?)`,
		total, len(list) == 0); err != nil {
		return 0, err
	}
	words := pairs.NewWords(list)
	s.pairs.words = words
	tx.OnCommit(func() { s.pairs.committed = words })
	return words.Len(), nil
}

// queuePairs rewrites the pairs row of an indexed page at the end of the batch.
func (s *Store) queuePairs(id int64) {
	c := s.change(id)
	if c.row == nil && !c.remove && !c.resource {
		c.pairs = true
	}
}

// applyPairs writes the pairs rows of the batch's index changes, after page_fts's (whose
// text it may read back).
func (s *Store) applyPairs(ctx context.Context, tx *Tx, ids []int64, anchors map[int64]string, resources map[int64]*ftsRow) error {
	w := s.pairs.words
	if w == nil {
		return nil
	}
	del, err := tx.Stmt(ctx, `DELETE FROM page_pairs WHERE rowid=?`)
	if err != nil {
		return err
	}
	ins, err := tx.Stmt(ctx, `INSERT INTO page_pairs(rowid, title, headings, body, anchors, url) VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	text, err := tx.Stmt(ctx, `SELECT title, headings, body, anchors, url FROM page_fts WHERE rowid=?`)
	if err != nil {
		return err
	}
	for _, id := range ids {
		c := s.index.changes[id]
		var cols [5]string
		switch {
		case c.remove:
		case c.row != nil:
			cols = [5]string{c.row.title, c.row.headings, c.row.body, anchors[id], c.row.url}
		case c.resource && resources[id] == nil:
			continue // its row did not change
		case c.anchors || c.pairs || c.resource:
			var ns [5]sql.NullString
			err := text.QueryRowContext(ctx, id).Scan(&ns[0], &ns[1], &ns[2], &ns[3], &ns[4])
			if errors.Is(err, sql.ErrNoRows) {
				break
			}
			if err != nil {
				return fmt.Errorf("pairs of page %d: %w", id, err)
			}
			for i, n := range ns {
				cols[i] = n.String
			}
		default:
			continue
		}
		if _, err := del.ExecContext(ctx, id); err != nil {
			return fmt.Errorf("pairs of page %d: %w", id, err)
		}
		var p [5]string
		empty := true
		for i, col := range cols {
			p[i] = w.Text(col)
			empty = empty && p[i] == ""
		}
		if empty {
			continue
		}
		if _, err := ins.ExecContext(ctx, id, p[0], p[1], p[2], p[3], p[4]); err != nil {
			return fmt.Errorf("pairs of page %d: %w", id, err)
		}
	}
	return nil
}

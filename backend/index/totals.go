package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// FTS5 keeps, for bm25, the number of rows of a table and of tokens per column (its
// "averages" record, row 1 of %_data). A contentless_delete table does not take a deleted
// row out of them (fts5_storage.c, sqlite3Fts5StorageDelete reads no sizes for it): every
// rewritten row would count twice, and ranking would drift as pages are fetched again or
// get new anchor text. So the stage subtracts what it deletes: it reads a row's sizes
// (%_docsize) before deleting it and, once the batch's FTS5 writes are done, takes their
// sum off the record in the same transaction (subtract). FTS5 caches the totals while a
// transaction writes and saves them when it commits, over any change made beside it; a
// savepoint makes it save them first (fts5SavepointMethod flushes to disk and drops the
// cache), so the change made after it stands. Readers never see a row counted twice.
//
// Before, the sum was kept in index_state.fix and taken off in a transaction of its own
// after the batch's; a workspace killed between the two still has it there, and load
// applies it (applyFix).

// totals are a row count and token counts per column, as FTS5 stores them.
type totals struct {
	Rows int64    `json:"rows"`
	Cols [5]int64 `json:"cols"`
}

// addSizes adds one row with the column sizes of a %_docsize record.
func (t *totals) addSizes(sz []byte) {
	t.Rows++
	for i, v := range decodeVarints(sz) {
		if i < len(t.Cols) {
			t.Cols[i] += v
		}
	}
}

func (t totals) zero() bool { return t == totals{} }

// fix is what the stage still has to take off the two tables' averages records.
type fix struct {
	FTS   totals `json:"fts"`
	Pairs totals `json:"pairs"`
}

func (f fix) zero() bool { return f.FTS.zero() && f.Pairs.zero() }

// subtract takes f off the averages records in tx, after the transaction's FTS5 writes.
func subtract(ctx context.Context, tx *sql.Tx, f fix) error {
	if f.zero() {
		return nil
	}
	// FTS5 saves its cached totals now, not at the commit (see above).
	if _, err := tx.ExecContext(ctx, `SAVEPOINT totals`); err != nil {
		return fmt.Errorf("index totals: %w", err)
	}
	for _, t := range []struct {
		table string
		sub   totals
	}{{"page_fts", f.FTS}, {"page_pairs", f.Pairs}} {
		if t.sub.zero() {
			continue
		}
		var block []byte
		err := tx.QueryRowContext(ctx, `SELECT block FROM `+t.table+`_data WHERE id = 1`).Scan(&block)
		if errors.Is(err, sql.ErrNoRows) {
			continue // nothing counted yet
		}
		if err != nil {
			return fmt.Errorf("index totals: %w", err)
		}
		vs := decodeVarints(block)
		if len(vs) != 1+len(t.sub.Cols) {
			return fmt.Errorf("index totals: %s's averages record has %d numbers", t.table, len(vs))
		}
		vs[0] = max(vs[0]-t.sub.Rows, 0)
		for i, c := range t.sub.Cols {
			vs[1+i] = max(vs[1+i]-c, 0)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE `+t.table+`_data SET block = ? WHERE id = 1`, encodeVarints(vs)); err != nil {
			return fmt.Errorf("index totals: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `RELEASE totals`); err != nil {
		return fmt.Errorf("index totals: %w", err)
	}
	return nil
}

// applyFix takes a fix left in index_state by an older version off the averages records.
func (x *Index) applyFix(ctx context.Context) error {
	tx, err := x.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("index totals: %w", err)
	}
	defer tx.Rollback()
	var cur string
	if err := tx.QueryRowContext(ctx, `SELECT fix FROM index_state`).Scan(&cur); err != nil {
		return fmt.Errorf("index totals: %w", err)
	}
	if cur == "" {
		return nil
	}
	var f fix
	if err := json.Unmarshal([]byte(cur), &f); err != nil {
		return fmt.Errorf("index totals: %w", err)
	}
	if err := subtract(ctx, tx, f); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE index_state SET fix = ''`); err != nil {
		return fmt.Errorf("index totals: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("index totals: %w", err)
	}
	return nil
}

// decodeVarints decodes SQLite varints (big-endian groups of 7 bits, a ninth byte of 8),
// the format of FTS5's size records.
func decodeVarints(b []byte) []int64 {
	var out []int64
	for len(b) > 0 {
		var v uint64
		n := 0
		for n < 9 && n < len(b) {
			c := b[n]
			n++
			if n == 9 {
				v = v<<8 | uint64(c)
				break
			}
			v = v<<7 | uint64(c&0x7f)
			if c < 0x80 {
				break
			}
		}
		out = append(out, int64(v))
		b = b[n:]
	}
	return out
}

// encodeVarints encodes non-negative numbers as SQLite varints.
func encodeVarints(vs []int64) []byte {
	var out []byte
	for _, v := range vs {
		u := uint64(v)
		if u>>56 != 0 {
			var buf [9]byte
			buf[8] = byte(u)
			u >>= 8
			for i := 7; i >= 0; i-- {
				buf[i] = byte(u&0x7f) | 0x80
				u >>= 7
			}
			out = append(out, buf[:]...)
			continue
		}
		var buf [9]byte
		n := 0
		for {
			buf[n] = byte(u&0x7f) | 0x80
			n++
			u >>= 7
			if u == 0 {
				break
			}
		}
		buf[0] &= 0x7f // the last byte, written first
		for i := n - 1; i >= 0; i-- {
			out = append(out, buf[i])
		}
	}
	return out
}

package index

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"

	"mundaneum/backend/pairs"
	"mundaneum/backend/store"
)

// Doc is one row of the index: a page's searchable text by field, the columns of page_fts
// (and of page_pairs) in order. Search ranks the fields apart (title and anchor text
// weigh most) and cuts its snippets from them.
type Doc struct {
	ID                                  int64
	Title, Headings, Body, Anchors, URL string
}

// Columns returns the fields in page_fts's order.
func (d Doc) Columns() [5]string { return [5]string{d.Title, d.Headings, d.Body, d.Anchors, d.URL} }

// Sum is a digest of the row's text, all columns (the first 8 bytes of their SHA-256, each
// column prefixed by its length): a row whose sum is unchanged is not written again (see
// rowWriter.plan). Two different rows have the same sum with probability 2^-64.
func (d Doc) Sum() int64 {
	h := sha256.New()
	var n [8]byte
	for _, c := range d.Columns() {
		binary.LittleEndian.PutUint64(n[:], uint64(len(c)))
		h.Write(n[:])
		h.Write([]byte(c))
	}
	return int64(binary.LittleEndian.Uint64(h.Sum(nil)[:8]))
}

// DocOf builds the row of a page from what its workspace stores; ok is false when the page
// has no row (see store.IndexInputs for which pages have one).
func DocOf(in store.IndexInput) (d Doc, ok bool) {
	switch in.Kind {
	case store.IndexedText:
		return Doc{ID: in.ID, Title: store.Clean(in.Text.Title), Headings: store.Clean(in.Text.Headings),
			Body: store.Clean(in.Text.Body), Anchors: store.Clean(in.Anchors), URL: store.Clean(in.URL)}, true
	case store.IndexedResource:
		// The titles of the pages citing a resource stand in for its headings.
		return Doc{ID: in.ID, Headings: store.Clean(in.Citers), Anchors: store.Clean(in.Anchors), URL: store.Clean(in.URL)}, true
	}
	return Doc{}, false
}

// rowWriter writes rows in one transaction of the index's writer.
type rowWriter struct {
	tx                  *sql.Tx
	size, del, ins      *sql.Stmt
	psize, pdel, pins   *sql.Stmt
	miss, unmiss        *sql.Stmt
	sum, setSum, delSum *sql.Stmt
	words               *pairs.Words // nil before the pair index's words are chosen
	// lazy: the rows are written without their pairs rows and noted in pair_missing (the
	// stage is catching up with a crawl; the idle pairs step writes them).
	lazy               bool
	textBytes, written int
	missed             int64 // change in the rows of pair_missing
	same               int   // rows not written again: their text was the same (see plan)
}

func newRowWriter(ctx context.Context, tx *sql.Tx, words *pairs.Words) (*rowWriter, error) {
	w := &rowWriter{tx: tx, words: words}
	for _, p := range []struct {
		st **sql.Stmt
		q  string
	}{
		{&w.size, `SELECT sz FROM page_fts_docsize WHERE id = ?`},
		{&w.del, `DELETE FROM page_fts WHERE rowid = ?`},
		{&w.ins, `INSERT INTO page_fts(rowid, title, headings, body, anchors, url) VALUES (?, ?, ?, ?, ?, ?)`},
		{&w.psize, `SELECT sz FROM page_pairs_docsize WHERE id = ?`},
		{&w.pdel, `DELETE FROM page_pairs WHERE rowid = ?`},
		{&w.pins, `INSERT INTO page_pairs(rowid, title, headings, body, anchors, url) VALUES (?, ?, ?, ?, ?, ?)`},
		{&w.miss, `INSERT INTO pair_missing(page_id) VALUES (?) ON CONFLICT DO NOTHING`},
		{&w.unmiss, `DELETE FROM pair_missing WHERE page_id = ?`},
		{&w.sum, `SELECT sum FROM row_sums WHERE page_id = ?`},
		{&w.setSum, `INSERT INTO row_sums(page_id, sum) VALUES (?, ?) ON CONFLICT(page_id) DO UPDATE SET sum = excluded.sum`},
		{&w.delSum, `DELETE FROM row_sums WHERE page_id = ?`},
	} {
		var err error
		if *p.st, err = tx.PrepareContext(ctx, p.q); err != nil {
			return nil, fmt.Errorf("index: %w", err)
		}
	}
	return w, nil
}

func (w *rowWriter) close() {
	for _, st := range []*sql.Stmt{w.size, w.del, w.ins, w.psize, w.pdel, w.pins, w.miss, w.unmiss, w.sum, w.setSum, w.delSum} {
		if st != nil {
			st.Close()
		}
	}
}

// sizes returns a row's column sizes (its %_docsize record) in the word index or the pair
// index, and whether it has a row there.
func sizes(ctx context.Context, st *sql.Stmt, id int64) ([]byte, bool, error) {
	var sz []byte
	err := st.QueryRowContext(ctx, id).Scan(&sz)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("index: %w", err)
	}
	return sz, true, nil
}

// indexed reports whether a page has a row.
func (w *rowWriter) indexed(ctx context.Context, id int64) (bool, error) {
	_, ok, err := sizes(ctx, w.size, id)
	return ok, err
}

// plan is what writing a batch of pages will do, worked out before any FTS5 write (FTS5
// writes its pending terms out at every statement savepoint once it has joined a
// transaction, so the batch's plain writes come first).
type plan struct {
	had  map[int64]bool
	docs []Doc
	sums []int64 // of docs, in order
	gone []int64 // pages that lose their row
	rows int64   // change in the number of rows
	fix  fix     // what the rows deleted leave in FTS5's totals (see totals.go)
}

// A row whose text is what it holds already (the same sum, see Doc.Sum) is left as it is:
// the log notes a page again for every new link to it and for every fetch, and a row is
// written whole, its body tokenised again, though the link brought no anchor text the row
// lacks (it has each distinct anchor once) or the page came back unchanged.
func (w *rowWriter) plan(ctx context.Context, ins []store.IndexInput) (*plan, error) {
	p := &plan{had: make(map[int64]bool, len(ins))}
	for _, in := range ins {
		sz, had, err := sizes(ctx, w.size, in.ID)
		if err != nil {
			return nil, err
		}
		d, ok := DocOf(in)
		var sum int64
		if ok {
			sum = d.Sum()
			if had {
				var old int64
				err := w.sum.QueryRowContext(ctx, in.ID).Scan(&old)
				switch {
				case err == nil && old == sum:
					w.same++
					continue
				case err != nil && !errors.Is(err, sql.ErrNoRows):
					return nil, fmt.Errorf("index: %w", err)
				}
			}
		}
		p.had[in.ID] = had
		if had {
			// Every row that has one loses it (rewritten rows are deleted first).
			p.fix.FTS.addSizes(sz)
			if w.words != nil {
				psz, ok, err := sizes(ctx, w.psize, in.ID)
				if err != nil {
					return nil, err
				}
				if ok {
					p.fix.Pairs.addSizes(psz)
				}
			}
		}
		switch {
		case ok:
			p.docs = append(p.docs, d)
			p.sums = append(p.sums, sum)
			if !had {
				p.rows++
			}
		case had:
			p.gone = append(p.gone, in.ID)
			p.rows--
		}
	}
	return p, nil
}

// note records in pair_missing which of the planned rows will lack their pairs row, and
// forgets the rows that will have one or none at all. It is a plain write: it comes before
// apply's FTS5 writes (see plan). A row is thus always either with its pairs row (or has
// none to have) or noted as missing, at every commit.
func (w *rowWriter) note(ctx context.Context, p *plan) error {
	if w.words == nil {
		return nil
	}
	exec := func(st *sql.Stmt, id int64, sign int64) error {
		res, err := st.ExecContext(ctx, id)
		if err != nil {
			return fmt.Errorf("pairs of page %d: %w", id, err)
		}
		k, _ := res.RowsAffected()
		w.missed += sign * k
		return nil
	}
	for _, id := range p.gone {
		if err := exec(w.unmiss, id, -1); err != nil {
			return err
		}
	}
	for _, d := range p.docs {
		switch {
		case w.lazy:
			if err := exec(w.miss, d.ID, 1); err != nil {
				return err
			}
		case p.had[d.ID]: // a new row was never noted
			if err := exec(w.unmiss, d.ID, -1); err != nil {
				return err
			}
		}
	}
	return nil
}

// apply writes the planned rows: their sums (plain writes first, see plan), the word
// index's, then the pair index's (unless lazy).
func (w *rowWriter) apply(ctx context.Context, p *plan) error {
	for _, id := range p.gone {
		if _, err := w.delSum.ExecContext(ctx, id); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	for i, d := range p.docs {
		if _, err := w.setSum.ExecContext(ctx, d.ID, p.sums[i]); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	for _, id := range p.gone {
		if err := w.remove(ctx, id); err != nil {
			return err
		}
	}
	for _, d := range p.docs {
		if p.had[d.ID] {
			if err := w.remove(ctx, d.ID); err != nil {
				return err
			}
		}
		c := d.Columns()
		if _, err := w.ins.ExecContext(ctx, d.ID, c[0], c[1], c[2], c[3], c[4]); err != nil {
			return fmt.Errorf("index page %d: %w", d.ID, err)
		}
		w.textBytes += len(c[0]) + len(c[1]) + len(c[2]) + len(c[3]) + len(c[4])
		w.written++
	}
	if w.words == nil || w.lazy {
		return nil
	}
	for _, d := range p.docs {
		if err := w.writePairs(ctx, d); err != nil {
			return err
		}
	}
	return nil
}

func (w *rowWriter) remove(ctx context.Context, id int64) error {
	if _, err := w.del.ExecContext(ctx, id); err != nil {
		return fmt.Errorf("unindex page %d: %w", id, err)
	}
	if w.words != nil {
		if _, err := w.pdel.ExecContext(ctx, id); err != nil {
			return fmt.Errorf("unindex page %d: %w", id, err)
		}
	}
	return nil
}

// writePairs writes a row's pairs row (none when no column has a pair). Its old one, if
// any, is gone already: removed with the word index's row, or never written.
func (w *rowWriter) writePairs(ctx context.Context, d Doc) error {
	var p [5]string
	empty := true
	for i, col := range d.Columns() {
		p[i] = w.words.Text(col)
		empty = empty && p[i] == ""
	}
	if empty {
		return nil
	}
	if _, err := w.pins.ExecContext(ctx, d.ID, p[0], p[1], p[2], p[3], p[4]); err != nil {
		return fmt.Errorf("pairs of page %d: %w", d.ID, err)
	}
	return nil
}

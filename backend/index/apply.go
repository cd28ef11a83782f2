package index

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"mundaneum/backend/store"
)

// The stage's work on the index: applying the log's notes, rewriting the rows whose anchor
// text changed, rebuilding.

// logStep applies the next log notes: up to s.pages() pages (re)indexed, anchor-only
// notes of indexed pages deferred. It returns how many notes it applied.
func (s *stage) logStep() (int, error) {
	es, err := s.pendingNotes()
	if err != nil || len(es) == 0 {
		return 0, err
	}
	b := s.nextBatch(es, nil)
	in := s.takeAhead(b.docs)
	if in == nil {
		if in, err = s.read(b.docs); err != nil {
			return 0, err
		}
	}
	// While someone waits, the next batch's pages are read beside this one's writing (on
	// the machine's other core): the notes are at hand, and the rows written now cover
	// every note read so far (see read).
	if rest := es[b.n:]; len(rest) > 0 && s.waited() {
		cur := make(map[int64]bool, len(b.docs))
		for _, id := range b.docs {
			cur[id] = true
		}
		if next := s.nextBatch(rest, cur); len(next.docs) > 0 {
			s.readAhead(next.docs)
		}
	}
	// While the stage catches up with a crawl, the rows are written without their pairs
	// rows: the idle pairs step writes them in bulk (see pairsStep).
	err = s.write(in, s.following(len(es) > b.n), func(ctx context.Context, tx *sql.Tx, w *rowWriter) error {
		// A page with new anchor text keeps its row until the log is quiet (see anchorDelay);
		// one without a row gets its anchors when it is indexed.
		for _, id := range b.anchors {
			had, err := w.indexed(ctx, id)
			if err != nil {
				return err
			}
			if had {
				res, err := tx.ExecContext(ctx, `INSERT INTO deferred(page_id, since) VALUES (?, ?) ON CONFLICT DO NOTHING`, id, time.Now().UnixMilli())
				if err != nil {
					return fmt.Errorf("index: %w", err)
				}
				if k, _ := res.RowsAffected(); k > 0 {
					s.deferred++
				}
			}
		}
		if err := s.undefer(ctx, tx, b.docs); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE index_state SET applied = ?, applied_page = ?`, b.last.Seq, b.last.PageID)
		return err
	})
	if err != nil {
		return 0, err
	}
	s.state.Applied, s.state.AppliedPage = b.last.Seq, b.last.PageID
	s.covered.forget(b.last.Seq)
	s.lastNote = time.Now()
	s.publish()
	return b.n, nil
}

// pendingNotes returns the log notes after the last one applied. They are read in blocks
// of up to logRead and kept: a batch takes the notes of batchPages pages, often a few
// hundred of the thousands a crawl has written, and reading the same block again for every
// batch cost a tenth of the stage's time.
func (s *stage) pendingNotes() ([]store.LogEntry, error) {
	i := 0
	for i < len(s.notes) && s.notes[i].Seq <= s.state.Applied {
		i++
	}
	s.notes = s.notes[i:]
	if len(s.notes) >= logRead/2 {
		return s.notes, nil
	}
	after := s.state.Applied
	if n := len(s.notes); n > 0 {
		after = s.notes[n-1].Seq
	}
	more, err := s.x.src.IndexLog(s.ctx, after, logRead-len(s.notes))
	if err != nil {
		return nil, err
	}
	s.notes = append(slices.Clip(s.notes), more...)
	return s.notes, nil
}

// undefer drops pages from the deferred rows: their rows are being rewritten anyway.
func (s *stage) undefer(ctx context.Context, tx *sql.Tx, ids []int64) error {
	if s.deferred == 0 || len(ids) == 0 {
		return nil
	}
	st, err := tx.PrepareContext(ctx, `DELETE FROM deferred WHERE page_id = ?`)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	defer st.Close()
	for _, id := range ids {
		res, err := st.ExecContext(ctx, id)
		if err != nil {
			return fmt.Errorf("index: %w", err)
		}
		if k, _ := res.RowsAffected(); k > 0 {
			s.deferred--
		}
	}
	return nil
}

// anchorStep rewrites the rows of up to s.pages() pages whose anchor text changed.
func (s *stage) anchorStep() error {
	rows, err := s.x.db.QueryContext(s.ctx, `SELECT page_id FROM deferred ORDER BY page_id LIMIT ?`, s.pages())
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	in, err := s.read(ids)
	if err != nil {
		return err
	}
	err = s.write(in, s.following(s.deferred > int64(len(ids))), func(ctx context.Context, tx *sql.Tx, _ *rowWriter) error {
		return s.undefer(ctx, tx, ids)
	})
	if err == nil && s.deferred == 0 {
		s.lastFlush = time.Now()
	}
	s.publish()
	return err
}

// rebuildStep indexes the next stored pages of a rebuild, or ends it.
func (s *stage) rebuildStep() error {
	limit := s.pages()
	ids, err := s.x.src.IndexablePages(s.ctx, s.state.RebuiltThrough, limit)
	if err != nil {
		return err
	}
	through := s.state.RebuiltThrough
	if len(ids) > 0 {
		through = ids[len(ids)-1]
	}
	done := len(ids) < limit
	in := s.takeAhead(ids)
	if in == nil {
		if in, err = s.read(ids); err != nil {
			return err
		}
	}
	if !done && s.waited() {
		// The next pages of the rebuild are read beside this batch's writing.
		if next, err := s.x.src.IndexablePages(s.ctx, through, limit); err == nil && len(next) > 0 {
			s.readAhead(next)
		}
	}
	err = s.write(in, false, func(ctx context.Context, tx *sql.Tx, _ *rowWriter) error {
		_, err := tx.ExecContext(ctx, `UPDATE index_state SET rebuilt_through = ?, rebuilding = ?`, through, !done)
		return err
	})
	if err != nil {
		return err
	}
	s.state.RebuiltThrough, s.state.Rebuilding = through, !done
	if done {
		s.vocabNow = true // the index is complete: the file of its terms before the idle work
		s.mu.Lock()
		s.pub.why = ""
		s.mu.Unlock()
	}
	s.publish()
	return nil
}

// write (re)indexes the pages read, with before's plain writes first, in one transaction
// of the index; lazy leaves the rows' pairs rows to the idle pairs step (see rowWriter).
func (s *stage) write(in *inputs, lazy bool, before func(context.Context, *sql.Tx, *rowWriter) error) error {
	ctx := s.ctx
	ids, ins, end := in.ids, in.ins, in.end
	tx, err := s.x.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	defer tx.Rollback()
	w, err := newRowWriter(ctx, tx, s.words)
	if err != nil {
		return err
	}
	defer w.close()
	w.lazy = lazy
	p, err := w.plan(ctx, ins)
	if err != nil {
		return err
	}
	if err := before(ctx, tx, w); err != nil {
		return err
	}
	if err := w.note(ctx, p); err != nil {
		return err
	}
	if p.rows != 0 {
		if _, err := tx.ExecContext(ctx, `UPDATE index_state SET rows = rows + ?`, p.rows); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	if err := w.apply(ctx, p); err != nil {
		return err
	}
	if err := subtract(ctx, tx, p.fix); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if err := s.sized(ctx, len(ids)); err != nil {
		return err
	}
	if end > s.state.Applied {
		s.covered.add(ids, end)
	}
	s.state.Rows += p.rows
	if w.missed != 0 {
		if s.missing == 0 {
			s.missingSince = time.Now()
		}
		s.missing += w.missed
	}
	// The pair index's progress counts the rows too: a batch that only removes rows
	// changes its total as much as one that notes rows missing.
	if w.missed != 0 || (p.rows != 0 && s.words != nil) {
		s.publishMissing()
	}
	if len(p.docs)+len(p.gone) > 0 {
		s.merged, s.settled, s.vocabDue = false, false, true
	}
	return nil
}

// following reports whether the stage is catching up with a crawl: more is waiting than
// the batch it writes, or it wrote a batch a moment ago. Its rows are then written
// without their pairs rows (see pairsStep).
func (s *stage) following(more bool) bool {
	return more || time.Since(s.lastNote) < MaintainDelay
}

// covers remembers, for pages whose rows were written while the log had notes about them
// still unread, the last note their row already includes (the stage reads a page's state
// as it is, not as a note left it). A crawl notes a page many times (its fetch, every new
// link to it); while the stage lags, most of those notes are older than the row.
type covers struct {
	upTo  map[int64]int64 // page -> last note included
	queue []cover         // in the order written; seqs never decrease
}

type cover struct{ page, seq int64 }

func (c *covers) add(ids []int64, seq int64) {
	if c.upTo == nil {
		c.upTo = map[int64]int64{}
	}
	for _, id := range ids {
		c.upTo[id] = seq
		c.queue = append(c.queue, cover{id, seq})
	}
}

// has reports whether the note seq about page is included in the page's row.
func (c *covers) has(page, seq int64) bool {
	up, ok := c.upTo[page]
	return ok && seq <= up
}

// forget drops what only matters for notes up to applied (read already).
func (c *covers) forget(applied int64) {
	i := 0
	for i < len(c.queue) && c.queue[i].seq <= applied {
		if q := c.queue[i]; c.upTo[q.page] == q.seq {
			delete(c.upTo, q.page)
		}
		i++
	}
	if i > 0 {
		c.queue = append(c.queue[:0], c.queue[i:]...)
	}
}

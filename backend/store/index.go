package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// FTS5 flushes its pending terms at every savepoint, and SQLite opens a statement savepoint
// for every write that may abort once an FTS5 table has joined the transaction: page_fts
// writes in the middle of a batch would flush once per statement and multiply segment
// merges. So index changes are queued during a batch and applied last, just before the
// commit, in the same transaction (a kill still loses all or nothing).

// ftsRow is one page's indexed text.
type ftsRow struct{ title, headings, body, url string }

// ftsChange is the net index change of one page in the current batch.
type ftsChange struct {
	remove  bool    // drop the page's row
	row     *ftsRow // (re)index with this text; anchors are read at apply time
	anchors bool    // refresh the incoming anchor text of an existing row
}

// index holds the queued changes; touched only by the writer goroutine.
type index struct {
	changes map[int64]*ftsChange
	bytes   int // text held by changes
}

// maxQueuedText ends a batch early when this much page text waits to be indexed, which
// bounds the writer's memory whatever the crawl's rate.
const maxQueuedText = 32 << 20

func (s *Store) indexFull() bool { return s.index.bytes >= maxQueuedText }

func (s *Store) change(id int64) *ftsChange {
	c, ok := s.index.changes[id]
	if !ok {
		c = &ftsChange{}
		s.index.changes[id] = c
	}
	return c
}

func (s *Store) queueIndex(id int64, r *ftsRow) {
	s.index.bytes += len(r.title) + len(r.headings) + len(r.body) + len(r.url)
	c := s.change(id)
	c.remove, c.row, c.anchors = false, r, false
}

func (s *Store) queueUnindex(id int64) {
	c := s.change(id)
	c.remove, c.row, c.anchors = true, nil, false
}

func (s *Store) queueAnchors(id int64) {
	c := s.change(id)
	if c.row == nil && !c.remove {
		c.anchors = true
	}
}

func (s *Store) resetIndex() { clear(s.index.changes); s.index.bytes = 0 }

// applyIndex writes the queued index changes, in page order (so that a batch is replayed
// the same way), as the last statements of the batch.
func (s *Store) applyIndex(ctx context.Context, tx *Tx) error {
	if len(s.index.changes) == 0 {
		return nil
	}
	ids := make([]int64, 0, len(s.index.changes))
	for id := range s.index.changes {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	// Read everything first: reads after the first page_fts write are harmless, but keeping
	// writes together keeps the pending-term hash in one piece.
	anchors := make(map[int64]string, len(ids))
	for _, id := range ids {
		c := s.index.changes[id]
		if c.row != nil || c.anchors {
			a, err := incomingAnchors(ctx, tx, id)
			if err != nil {
				return err
			}
			anchors[id] = indexable(a)
		}
	}
	del, err := tx.Stmt(ctx, `DELETE FROM page_fts WHERE rowid=?`)
	if err != nil {
		return err
	}
	ins, err := tx.Stmt(ctx, `INSERT INTO page_fts(rowid, title, headings, body, anchors, url) VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	upd, err := tx.Stmt(ctx, `UPDATE page_fts SET anchors=?1 WHERE rowid=?2 AND anchors IS NOT ?1`)
	if err != nil {
		return err
	}
	for _, id := range ids {
		c := s.index.changes[id]
		switch {
		case c.remove:
			_, err = del.ExecContext(ctx, id)
		case c.row != nil:
			if _, err = del.ExecContext(ctx, id); err == nil {
				r := c.row
				_, err = ins.ExecContext(ctx, id, r.title, r.headings, r.body, anchors[id], r.url)
			}
		case c.anchors:
			_, err = upd.ExecContext(ctx, anchors[id], id)
		}
		if err != nil {
			return fmt.Errorf("index page %d: %w", id, err)
		}
	}
	s.resetIndex()
	return nil
}

// maxAnchors bounds the distinct anchor texts indexed for one page.
const maxAnchors = 100

func incomingAnchors(ctx context.Context, tx *Tx, pageID int64) (string, error) {
	st, err := tx.Stmt(ctx, `SELECT coalesce(group_concat(anchor, ' | '), '') FROM (
		SELECT DISTINCT anchor FROM links WHERE to_id=? AND anchor<>'' LIMIT ?)`)
	if err != nil {
		return "", err
	}
	var a string
	if err := st.QueryRowContext(ctx, pageID, maxAnchors).Scan(&a); err != nil {
		return "", fmt.Errorf("anchors: %w", err)
	}
	return a, nil
}

// RefreshAnchors re-indexes the incoming anchor text of up to n pages whose links changed
// after they were indexed, and reports how many it did (0: none left).
func (s *Store) RefreshAnchors(ctx context.Context, n int) (int, error) {
	return Get(ctx, s.writer, func(tx *Tx) (int, error) {
		rows, err := tx.QueryContext(ctx, `DELETE FROM fts_dirty WHERE page_id IN (SELECT page_id FROM fts_dirty LIMIT ?) RETURNING page_id`, n)
		if err != nil {
			return 0, err
		}
		defer rows.Close()
		done := 0
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return 0, err
			}
			s.queueAnchors(id)
			done++
		}
		return done, rows.Err()
	})
}

// indexable drops the private-use code points U+E000 and U+E001 that search uses to mark
// matches in snippets, so that page text cannot forge a highlight.
func indexable(s string) string {
	if !strings.ContainsAny(s, "\uE000\uE001") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '\uE000' || r == '\uE001' {
			return -1
		}
		return r
	}, s)
}

package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
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
	remove   bool    // drop the page's row
	row      *ftsRow // (re)index with this text; anchors are read at apply time
	anchors  bool    // refresh the incoming anchor text of an existing row
	resource bool    // a resource known only from links: index its anchors and citers' titles
	pairs    bool    // rewrite its page_pairs row from its page_fts text (see BuildPairsStep)
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
	c.remove, c.row, c.anchors, c.resource, c.pairs = false, r, false, false, false
}

func (s *Store) queueUnindex(id int64) {
	c := s.change(id)
	c.remove, c.row, c.anchors, c.resource, c.pairs = true, nil, false, false, false
}

// anchorRefreshCost is what refreshing one row's anchor text counts against
// maxQueuedText: FTS5 rewrites the whole row (about 19 KB of text on a typical page), so a
// batch of 95,000 refreshes took one 20-minute commit, with no progress reported, at the end
// of a 100,000-page crawl (issue 18).
const anchorRefreshCost = 16 << 10

func (s *Store) queueAnchors(id int64) {
	c := s.change(id)
	if c.row == nil && !c.remove && !c.anchors {
		c.anchors = true
		s.index.bytes += anchorRefreshCost
	}
}

// queueResource (re)indexes a non-HTML resource from the links that point at it, as WWWW
// did for images and movies: its row holds the anchor texts and the titles of the citing
// pages, so a search for what a page says about a file finds the file.
func (s *Store) queueResource(id int64) {
	c := s.change(id)
	if c.row == nil && !c.remove {
		c.resource = true
	}
}

func (s *Store) resetIndex() { clear(s.index.changes); s.index.bytes = 0 }

// rollbackIndex forgets a rolled-back batch's index changes and any pair words it chose.
func (s *Store) rollbackIndex() {
	s.resetIndex()
	s.pairs.words = s.pairs.committed
}

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
	resources := map[int64]*ftsRow{}
	for _, id := range ids {
		c := s.index.changes[id]
		if c.row != nil || c.anchors || c.resource {
			a, err := incomingAnchors(ctx, tx, id)
			if err != nil {
				return err
			}
			anchors[id] = indexable(a)
		}
		if c.resource {
			r, err := resourceRow(ctx, tx, id, anchors[id])
			if err != nil {
				return err
			}
			if r != nil {
				resources[id] = r
			}
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
		case resources[id] != nil:
			if _, err = del.ExecContext(ctx, id); err == nil {
				r := resources[id]
				_, err = ins.ExecContext(ctx, id, "", r.headings, "", anchors[id], r.url)
			}
		}
		if err != nil {
			return fmt.Errorf("index page %d: %w", id, err)
		}
	}
	if err := s.applyPairs(ctx, tx, ids, anchors, resources); err != nil {
		return err
	}
	s.resetIndex()
	return nil
}

// maxAnchors bounds the distinct anchor texts indexed for one page, maxCiters the titles of
// citing pages indexed for a resource.
const (
	maxAnchors = 100
	maxCiters  = 20
)

// resourceRow builds the index row of a resource known from links, or nil when the page is
// not such a resource (any more) or its row would not change.
func resourceRow(ctx context.Context, tx *Tx, id int64, anchors string) (*ftsRow, error) {
	st, err := tx.Stmt(ctx, `SELECT p.url, p.state = 'skipped' AND p.reason = 'type',
		coalesce((SELECT group_concat(title, ' | ') FROM (SELECT DISTINCT c.title FROM links l
			JOIN pages c ON c.id = l.from_id WHERE l.to_id = p.id AND c.title <> '' LIMIT ?)), ''),
		coalesce(f.headings, ''), coalesce(f.anchors, ''), f.rowid IS NOT NULL
		FROM pages p LEFT JOIN page_fts f ON f.rowid = p.id WHERE p.id = ?`)
	// (the literal 'type' above is ReasonType)
	if err != nil {
		return nil, err
	}
	var r ftsRow
	var isResource, indexed bool
	var oldHeadings, oldAnchors string
	if err := st.QueryRowContext(ctx, maxCiters, id).Scan(&r.url, &isResource, &r.headings, &oldHeadings, &oldAnchors, &indexed); err != nil {
		return nil, fmt.Errorf("resource %d: %w", id, err)
	}
	r.headings = indexable(r.headings)
	if !isResource || (indexed && r.headings == oldHeadings && anchors == oldAnchors) {
		return nil, nil
	}
	return &r, nil
}

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
// matches in snippets, so that page text cannot forge a highlight, and replaces invalid
// UTF-8 (which FTS5 and the pair index would split differently, see backend/pairs).
func indexable(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
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

// mergeStep is the most index pages one MergeIndex step writes (about 8 MB).
const mergeStep = 2000

// MergeIndex merges the segments of the full-text and pair indexes (see migration 0006) in steps of its own
// transaction until nothing is left to merge or ctx ends, and reports the steps taken. A
// query seeks every segment once per word, so a merged index answers faster; an interrupted
// merge loses nothing and the next call goes on from there.
func (s *Store) MergeIndex(ctx context.Context) (int, error) {
	for steps := 0; ; steps++ {
		more, err := s.MergeIndexStep(ctx)
		if err != nil || !more {
			return steps, err
		}
	}
}

// MergeIndexStep does one step of MergeIndex (at most mergeStep pages written, committed)
// and reports whether it merged anything.
func (s *Store) MergeIndexStep(ctx context.Context) (bool, error) {
	if s.writer == nil {
		return false, errors.New("merge index: the workspace is open read-only")
	}
	merged, err := Get(ctx, s.writer, func(tx *Tx) (bool, error) {
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
				return false, err
			}
			if err := tx.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&after); err != nil {
				return false, err
			}
			merged = merged || after-before >= 2 // under 2 changes is FTS5's sign that nothing was merged
		}
		return merged, nil
	})
	if err == nil {
		err = s.writer.Flush(ctx)
	}
	if err != nil {
		return false, fmt.Errorf("merge index: %w", err)
	}
	return merged, nil
}

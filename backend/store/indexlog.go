package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// The full-text index is a stage of its own (backend/index) with its own file and writer.
// The store tells it what changed through index_log (migration 0017): every operation that
// changes what a page's index row would hold notes the page; the notes of a batch are
// written last in its transaction, one per page, so a kill loses the changes and their
// notes together or neither. The index reads the log behind the crawl, rebuilds the rows
// of the pages it names from what is stored (IndexInputs), and remembers how far it got.

// indexLog is the current batch's notes; touched only by the writer goroutine.
type indexLog struct {
	pages map[int64]bool // page -> only its incoming anchor text changed

	mu       sync.Mutex
	onCommit []func() // told after a batch that wrote notes commits
}

// logPage notes that a page's text, state or citations changed.
func (s *Store) logPage(id int64) { s.log.pages[id] = false }

// logAnchors notes that the anchor text of links to a page changed.
func (s *Store) logAnchors(id int64) {
	if _, ok := s.log.pages[id]; !ok {
		s.log.pages[id] = true
	}
}

func (s *Store) resetLog() {
	clear(s.log.pages)
	// The retention settings are read again: a rolled-back batch may have changed them.
	s.keep, s.crawlKeep = -1, nil
}

// writeLog writes the batch's notes, in page order, as the batch's last statements.
func (s *Store) writeLog(ctx context.Context, tx *Tx) error {
	if len(s.log.pages) == 0 {
		return nil
	}
	ids := make([]int64, 0, len(s.log.pages))
	for id := range s.log.pages {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	st, err := tx.Stmt(ctx, `INSERT INTO index_log(page_id, anchors) VALUES (?, ?)`)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if _, err := st.ExecContext(ctx, id, s.log.pages[id]); err != nil {
			return fmt.Errorf("index log: %w", err)
		}
	}
	s.resetLog()
	s.log.mu.Lock()
	fns := slices.Clone(s.log.onCommit)
	s.log.mu.Unlock()
	for _, fn := range fns {
		tx.OnCommit(fn)
	}
	return nil
}

// OnIndexLog registers fn to be called (on the writer's goroutine: it must not block) after
// each commit that noted changes for the index.
func (s *Store) OnIndexLog(fn func()) {
	s.log.mu.Lock()
	s.log.onCommit = append(s.log.onCommit, fn)
	s.log.mu.Unlock()
}

// LogEntry is one note of the index log.
type LogEntry struct {
	Seq, PageID int64
	AnchorsOnly bool // only the anchor text of links to the page changed
}

// IndexLog returns up to limit notes after seq after, in order.
func (s *Store) IndexLog(ctx context.Context, after int64, limit int) ([]LogEntry, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT seq, page_id, anchors FROM index_log WHERE seq > ? ORDER BY seq LIMIT ?`, after, limit)
	if err != nil {
		return nil, fmt.Errorf("index log: %w", err)
	}
	defer rows.Close()
	var out []LogEntry
	for rows.Next() {
		var e LogEntry
		if err := rows.Scan(&e.Seq, &e.PageID, &e.AnchorsOnly); err != nil {
			return nil, fmt.Errorf("index log: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// IndexLogEnd returns the last note's seq (0 when there is none).
func (s *Store) IndexLogEnd(ctx context.Context) (int64, error) {
	var n sql.NullInt64
	if err := s.read.QueryRowContext(ctx, `SELECT max(seq) FROM index_log`).Scan(&n); err != nil {
		return 0, fmt.Errorf("index log: %w", err)
	}
	return n.Int64, nil
}

// IndexLogPage returns the page a note names, and whether the note exists.
func (s *Store) IndexLogPage(ctx context.Context, seq int64) (int64, bool, error) {
	var id int64
	err := s.read.QueryRowContext(ctx, `SELECT page_id FROM index_log WHERE seq = ?`, seq).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("index log: %w", err)
	}
	return id, true, nil
}

// TrimIndexLog deletes the notes before seq before: the index has applied them. The note
// at before stays, so that seq never goes back.
func (s *Store) TrimIndexLog(ctx context.Context, before int64) error {
	if s.writer == nil {
		return nil
	}
	return s.writer.Do(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM index_log WHERE seq < ?`, before)
		return err
	})
}

// WorkspaceID is the workspace's identity (migration 0017), which its index records.
func (s *Store) WorkspaceID(ctx context.Context) (string, error) {
	var v string
	if err := s.read.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = 'workspace'`).Scan(&v); err != nil {
		return "", fmt.Errorf("workspace id: %w", err)
	}
	var w struct{ ID string }
	if err := json.Unmarshal([]byte(v), &w); err != nil || w.ID == "" {
		return "", fmt.Errorf("workspace id: %q", v)
	}
	return w.ID, nil
}

// IndexablePages returns up to limit ids after after, in order, of the pages that may have an
// index row: pages with stored text and non-HTML resources known from links. A rebuild of
// the index walks them.
func (s *Store) IndexablePages(ctx context.Context, after int64, limit int) ([]int64, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id FROM (
			SELECT page_id AS id FROM page_text WHERE page_id > ?1
			UNION ALL
			SELECT id FROM pages WHERE id > ?1 AND state = 'skipped' AND reason = 'type')
		ORDER BY id LIMIT ?2`, after, limit)
	if err != nil {
		return nil, fmt.Errorf("indexable pages: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

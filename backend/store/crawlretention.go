package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// A crawl can have its own retention setting, which overrides the workspace's for its pages.
// A page that belongs to several crawls (found by one, fetched again by another) keeps as many
// versions as the most generous of their settings, so that no crawl loses what it keeps.

// generous returns the limit that keeps more of two (0 keeps all).
func generous(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	return max(a, b)
}

// crawlLimits returns the crawls' own settings' limits, read once per writer (and again after
// a change).
func (s *Store) crawlLimits(ctx context.Context, tx *Tx) (map[int64]int, error) {
	if s.crawlKeep != nil {
		return s.crawlKeep, nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, retention FROM crawls WHERE retention IS NOT NULL`)
	if err != nil {
		return nil, fmt.Errorf("read crawl retention: %w", err)
	}
	defer rows.Close()
	m := map[int64]int{}
	for rows.Next() {
		var id int64
		var js string
		if err := rows.Scan(&id, &js); err != nil {
			return nil, err
		}
		if r, ok := parseRetention(js); ok {
			m[id] = r.Limit()
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	s.crawlKeep = m
	return m, nil
}

func parseRetention(js string) (Retention, bool) {
	var r Retention
	if json.Unmarshal([]byte(js), &r) != nil || r.Valid() != nil {
		return r, false
	}
	return r, true
}

// pageLimit is how many versions a page keeps (0: all): its crawls' settings, the
// workspace's for a crawl without one, the most generous of them.
func (s *Store) pageLimit(ctx context.Context, tx *Tx, pageID int64) (int, error) {
	ws, err := s.retentionLimit(ctx, tx)
	if err != nil {
		return 0, err
	}
	own, err := s.crawlLimits(ctx, tx)
	if err != nil || len(own) == 0 {
		return ws, err
	}
	st, err := tx.Stmt(ctx, `SELECT crawl_id FROM pages WHERE id = ?1 AND crawl_id IS NOT NULL
		UNION SELECT crawl_id FROM frontier WHERE page_id = ?1 UNION SELECT crawl_id FROM versions WHERE page_id = ?1 AND crawl_id IS NOT NULL`)
	if err != nil {
		return 0, err
	}
	rows, err := st.QueryContext(ctx, pageID)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	limit, any := -1, false
	for rows.Next() {
		var c int64
		if err := rows.Scan(&c); err != nil {
			return 0, err
		}
		n, ok := own[c]
		if !ok {
			n = ws
		}
		if !any {
			limit, any = n, true
		} else {
			limit = generous(limit, n)
		}
	}
	if err := rows.Err(); err != nil || !any {
		return ws, err
	}
	return limit, nil
}

// CrawlRetention returns a crawl's own retention setting, nil when it follows the
// workspace's.
func (s *Store) CrawlRetention(ctx context.Context, id int64) (*Retention, error) {
	var js sql.NullString
	err := s.read.QueryRowContext(ctx, `SELECT retention FROM crawls WHERE id = ?`, id).Scan(&js)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("crawl %d: %w", id, ErrNotFound)
	}
	if err != nil || !js.Valid {
		return nil, err
	}
	if r, ok := parseRetention(js.String); ok {
		return &r, nil
	}
	return nil, nil
}

// SetCrawlRetention gives a crawl its own retention setting (nil: the workspace's again) and
// applies it to the crawl's pages at once, in one transaction: versions beyond what each page
// keeps go (see pageLimit), then the bodies nothing names any more.
func (s *Store) SetCrawlRetention(ctx context.Context, id int64, r *Retention) (Prune, error) {
	var js any
	if r != nil {
		if err := r.Valid(); err != nil {
			return Prune{}, err
		}
		b, _ := json.Marshal(r)
		js = string(b)
	}
	p, err := Get(ctx, s.writer, func(tx *Tx) (Prune, error) {
		var p Prune
		res, err := tx.ExecContext(ctx, `UPDATE crawls SET retention = ? WHERE id = ?`, js, id)
		if err != nil {
			return p, err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return p, fmt.Errorf("crawl %d: %w", id, ErrNotFound)
		}
		s.crawlKeep = nil // read again, with this change (and after a rollback: resetLog)
		pages, err := prunable(ctx, tx, `AND (p.crawl_id = ?1 OR p.id IN (SELECT page_id FROM frontier WHERE crawl_id = ?1)
			OR p.id IN (SELECT page_id FROM versions WHERE crawl_id = ?1))`, id)
		if err != nil {
			return p, err
		}
		return p, s.prunePages(ctx, tx, pages, &p)
	})
	if err != nil {
		return p, fmt.Errorf("apply crawl %d retention: %w", id, err)
	}
	return p, s.writer.Flush(ctx)
}

// prunable lists the pages with more than one version, among those cond (on pages p) picks.
func prunable(ctx context.Context, tx *Tx, cond string, args ...any) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, `SELECT p.id FROM pages p WHERE (SELECT count(*) FROM versions v WHERE v.page_id = p.id) > 1 `+cond, args...)
	if err != nil {
		return nil, err
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

// prunePages applies each page's retention to it.
func (s *Store) prunePages(ctx context.Context, tx *Tx, pages []int64, p *Prune) error {
	for _, id := range pages {
		n, err := s.pageLimit(ctx, tx, id)
		if err != nil {
			return err
		}
		if n > 0 {
			if err := pruneVersions(ctx, tx, id, n, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// CrawlHistory is what a crawl's pages take: their versions and the distinct bodies those
// name (a body shared with other crawls' pages counts for each).
type CrawlHistory struct {
	Retention *Retention // the crawl's own setting; nil: the workspace's
	Versions  int
	Bodies    int
	Bytes     int64 // the bodies' size, compressed
}

// CrawlHistoryUsage measures what a crawl's pages' versions take on disk.
func (s *Store) CrawlHistoryUsage(ctx context.Context, id int64) (CrawlHistory, error) {
	var h CrawlHistory
	r, err := s.CrawlRetention(ctx, id)
	if err != nil {
		return h, err
	}
	h.Retention = r
	err = s.read.QueryRowContext(ctx, `WITH cp AS (SELECT id FROM pages WHERE crawl_id = ?1
			UNION SELECT page_id FROM frontier WHERE crawl_id = ?1 UNION SELECT page_id FROM versions WHERE crawl_id = ?1),
		cv AS (SELECT v.hash FROM versions v JOIN cp ON cp.id = v.page_id)
		SELECT (SELECT count(*) FROM cv), count(*), coalesce(sum(length(b.data)), 0)
		FROM blobs b WHERE b.hash IN (SELECT hash FROM cv)`, id).Scan(&h.Versions, &h.Bodies, &h.Bytes)
	if err != nil {
		return h, fmt.Errorf("crawl %d history: %w", id, err)
	}
	return h, nil
}

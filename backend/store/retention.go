package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// How many versions the workspace keeps, and pruning the others.

// Retention says how many versions of each page the workspace keeps.
type Retention struct {
	Keep string `json:"keep"` // KeepAll, KeepLast or KeepNone
	Last int    `json:"last"` // with KeepLast: how many (at least 1)
}

// Retention policies.
const (
	KeepAll  = "all"  // every version
	KeepLast = "last" // the newest Last versions of each page
	KeepNone = "none" // only the page's content now: no history
)

// DefaultRetention keeps everything: a crawl is evidence.
var DefaultRetention = Retention{Keep: KeepAll, Last: 10}

// Limit is how many versions a page keeps, 0 for all.
func (r Retention) Limit() int {
	switch r.Keep {
	case KeepNone:
		return 1
	case KeepLast:
		return max(r.Last, 1)
	}
	return 0
}

// Valid reports whether r is a policy the store knows.
func (r Retention) Valid() error {
	switch {
	case r.Keep != KeepAll && r.Keep != KeepLast && r.Keep != KeepNone:
		return fmt.Errorf("retention %q: keep all, last or none", r.Keep)
	case r.Keep == KeepLast && (r.Last < 1 || r.Last > 1_000_000):
		return fmt.Errorf("retention: keep the last 1 to 1000000 versions, not %d", r.Last)
	}
	return nil
}

const retentionKey = "history"

// Retention returns the workspace's retention setting.
func (s *Store) Retention(ctx context.Context) (Retention, error) {
	return readRetention(ctx, s.read)
}

func readRetention(ctx context.Context, db interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (Retention, error) {
	r := DefaultRetention
	var v string
	err := db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, retentionKey).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("read retention: %w", err)
	}
	if err := json.Unmarshal([]byte(v), &r); err != nil || r.Valid() != nil {
		return DefaultRetention, nil
	}
	return r, nil
}

// retentionLimit is the writer's copy of the setting's Limit (-1: not read yet).
func (s *Store) retentionLimit(ctx context.Context, tx *Tx) (int, error) {
	if s.keep < 0 {
		r, err := readRetention(ctx, tx)
		if err != nil {
			return 0, err
		}
		s.keep = r.Limit()
	}
	return s.keep, nil
}

// Prune is what applying a retention setting removed.
type Prune struct {
	Versions int   // versions deleted
	Bodies   int   // bodies deleted (no page or version named them any more)
	Bytes    int64 // bytes those bodies took, compressed
}

// SetRetention stores a retention setting and applies it to every page at once: versions
// beyond it go, and with them the bodies nothing else names (bodies of older versions
// that were never kept as versions, too).
func (s *Store) SetRetention(ctx context.Context, r Retention) (Prune, error) {
	if err := r.Valid(); err != nil {
		return Prune{}, err
	}
	js, _ := json.Marshal(r)
	p, err := Get(ctx, s.writer, func(tx *Tx) (Prune, error) {
		var p Prune
		if _, err := tx.ExecContext(ctx, `INSERT INTO settings(key, value) VALUES (?, ?)
			ON CONFLICT(key) DO UPDATE SET value = excluded.value`, retentionKey, string(js)); err != nil {
			return p, err
		}
		tx.OnCommit(func() { s.keep = r.Limit() })
		own, err := s.crawlLimits(ctx, tx)
		if err != nil {
			return p, err
		}
		if len(own) > 0 {
			// Crawls with their own setting: each page by its own limit.
			s.keep = r.Limit()
			pages, err := prunable(ctx, tx, "")
			if err != nil {
				return p, err
			}
			if err := s.prunePages(ctx, tx, pages, &p); err != nil {
				return p, err
			}
		} else if n := r.Limit(); n > 0 {
			res, err := tx.ExecContext(ctx, `DELETE FROM versions WHERE id IN (SELECT id FROM (
				SELECT id, row_number() OVER (PARTITION BY page_id ORDER BY fetched_at DESC, id DESC) AS rn
				FROM versions) WHERE rn > ?)`, n)
			if err != nil {
				return p, fmt.Errorf("prune versions: %w", err)
			}
			nv, _ := res.RowsAffected()
			p.Versions += int(nv)
		}
		const unnamed = `FROM blobs b WHERE NOT EXISTS (SELECT 1 FROM versions v WHERE v.hash = b.hash)
			AND NOT EXISTS (SELECT 1 FROM pages q WHERE q.hash = b.hash)`
		var bodies int
		var size int64
		if err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(length(b.data)), 0) `+unnamed).Scan(&bodies, &size); err != nil {
			return p, err
		}
		p.Bodies, p.Bytes = p.Bodies+bodies, p.Bytes+size
		if _, err := tx.ExecContext(ctx, `DELETE FROM blobs WHERE id IN (SELECT b.id `+unnamed+`)`); err != nil {
			return p, fmt.Errorf("prune bodies: %w", err)
		}
		return p, nil
	})
	if err != nil {
		return p, fmt.Errorf("apply retention: %w", err)
	}
	return p, s.writer.Flush(ctx)
}

// retain deletes the versions of a page beyond its retention (pageLimit), and the bodies
// nothing names any more.
func (s *Store) retain(ctx context.Context, tx *Tx, pageID int64) error {
	n, err := s.pageLimit(ctx, tx, pageID)
	if err != nil || n == 0 {
		return err
	}
	return pruneVersions(ctx, tx, pageID, n, nil)
}

// pruneVersions deletes the versions of a page beyond its newest n, then the bodies no page
// and no version names any more, adding what went to p (when not nil). It runs inside the
// writer's transaction: a kill before the commit leaves everything as it was, and a body
// another page or version names is never deleted.
func pruneVersions(ctx context.Context, tx *Tx, pageID int64, n int, p *Prune) error {
	old, err := tx.Stmt(ctx, `DELETE FROM versions WHERE id IN (SELECT id FROM versions WHERE page_id = ?
		ORDER BY fetched_at DESC, id DESC LIMIT -1 OFFSET ?) RETURNING hash`)
	if err != nil {
		return err
	}
	rows, err := old.QueryContext(ctx, pageID, n)
	if err != nil {
		return err
	}
	var hashes []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			rows.Close()
			return err
		}
		hashes = append(hashes, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if p != nil {
		p.Versions += len(hashes)
	}
	for _, h := range hashes {
		if err := dropUnnamedBlob(ctx, tx, h, p); err != nil {
			return err
		}
	}
	return nil
}

// dropUnnamedBlob deletes the body of hash unless a page or a version names it, adding it
// to p (when not nil).
func dropUnnamedBlob(ctx context.Context, tx *Tx, hash string, p *Prune) error {
	st, err := tx.Stmt(ctx, `DELETE FROM blobs WHERE hash = ?1
		AND NOT EXISTS (SELECT 1 FROM versions WHERE hash = ?1) AND NOT EXISTS (SELECT 1 FROM pages WHERE hash = ?1)
		RETURNING length(data)`)
	if err != nil {
		return err
	}
	rows, err := st.QueryContext(ctx, hash)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var n int64
		if err := rows.Scan(&n); err != nil {
			return err
		}
		if p != nil {
			p.Bodies++
			p.Bytes += n
		}
	}
	return rows.Err()
}

// HistoryUsage is what the workspace's history takes.
type HistoryUsage struct {
	Versions     int   // versions kept
	Pages        int   // pages with more than one version
	Bodies       int   // bodies only earlier versions name
	Bytes        int64 // their size, compressed
	Unnamed      int   // bodies nothing names (left by older Mundaneum versions), freed by SetRetention
	UnnamedBytes int64
}

// HistoryUsage measures the history: the bodies kept only for earlier versions are what it
// costs beyond the pages' content now.
func (s *Store) HistoryUsage(ctx context.Context) (HistoryUsage, error) {
	var u HistoryUsage
	err := s.read.QueryRowContext(ctx, `SELECT count(*), (SELECT count(*) FROM (SELECT 1 FROM versions
		GROUP BY page_id HAVING count(*) > 1)) FROM versions`).Scan(&u.Versions, &u.Pages)
	if err != nil {
		return u, fmt.Errorf("history usage: %w", err)
	}
	err = s.read.QueryRowContext(ctx, `SELECT
		coalesce(sum(CASE WHEN v THEN 1 END), 0), coalesce(sum(CASE WHEN v THEN n END), 0),
		coalesce(sum(CASE WHEN NOT v THEN 1 END), 0), coalesce(sum(CASE WHEN NOT v THEN n END), 0)
		FROM (SELECT EXISTS (SELECT 1 FROM versions x WHERE x.hash = b.hash) AS v, length(b.data) AS n
			FROM blobs b WHERE NOT EXISTS (SELECT 1 FROM pages q WHERE q.hash = b.hash))`).
		Scan(&u.Bodies, &u.Bytes, &u.Unnamed, &u.UnnamedBytes)
	if err != nil {
		return u, fmt.Errorf("history usage: %w", err)
	}
	return u, nil
}

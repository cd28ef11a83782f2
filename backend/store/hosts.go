package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"mundaneum/backend/robots"
)

// LoadRobots returns the stored robots.txt of an origin (robots.Store).
func (s *Store) LoadRobots(ctx context.Context, origin string) (robots.Record, bool, error) {
	var r robots.Record
	var status, fetched, expires sql.NullInt64
	err := s.read.QueryRowContext(ctx, `SELECT robots_status, robots_body, robots_fetched_at, robots_expires_at
		FROM hosts WHERE origin = ?`, origin).Scan(&status, &r.Body, &fetched, &expires)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !status.Valid) {
		return robots.Record{}, false, nil
	}
	if err != nil {
		return r, false, fmt.Errorf("load robots.txt of %s: %w", origin, err)
	}
	r.Status = int(status.Int64)
	r.FetchedAt = time.UnixMilli(fetched.Int64)
	r.ExpiresAt = time.UnixMilli(expires.Int64)
	return r, true, nil
}

// SaveRobots stores the robots.txt of an origin (robots.Store).
func (s *Store) SaveRobots(ctx context.Context, origin string, r robots.Record) error {
	return s.writer.Do(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO hosts(origin, robots_status, robots_body, robots_fetched_at, robots_expires_at)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT(origin) DO UPDATE SET robots_status=excluded.robots_status,
			robots_body=excluded.robots_body, robots_fetched_at=excluded.robots_fetched_at,
			robots_expires_at=excluded.robots_expires_at`,
			origin, r.Status, r.Body, r.FetchedAt.UnixMilli(), r.ExpiresAt.UnixMilli())
		if err != nil {
			return fmt.Errorf("save robots.txt of %s: %w", origin, err)
		}
		return nil
	})
}

// Counts are the workspace's totals.
type Counts struct {
	Pages map[string]int64 // by state
	Hosts int64
	Links int64
	Blobs int64
}

// Counts returns the workspace's totals, which triggers keep in the counts table
// (migration 0005): a read of a few rows, whatever the workspace's size.
func (s *Store) Counts(ctx context.Context) (Counts, error) {
	c := Counts{Pages: map[string]int64{}}
	for _, st := range []string{StateQueued, StateFetched, StateRedirected, StateFailed, StateSkipped} {
		c.Pages[st] = 0
	}
	rows, err := s.read.QueryContext(ctx, `SELECT name, n FROM counts`)
	if err != nil {
		return c, fmt.Errorf("count: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var n int64
		if err := rows.Scan(&name, &n); err != nil {
			return c, fmt.Errorf("count: %w", err)
		}
		switch name {
		case "hosts":
			c.Hosts = n
		case "links":
			c.Links = n
		case "blobs":
			c.Blobs = n
		default:
			// A state no page has any more keeps its row at 0: leave it out, as a GROUP BY
			// would (the usual states are always there).
			if st, ok := strings.CutPrefix(name, "pages:"); ok && n != 0 {
				c.Pages[st] = n
			}
		}
	}
	if err := rows.Err(); err != nil {
		return c, fmt.Errorf("count: %w", err)
	}
	// Links not expanded yet count too (linkpack.go).
	var packed int64
	if err := s.read.QueryRowContext(ctx, `SELECT coalesce(sum(n), 0) FROM link_packs`).Scan(&packed); err != nil {
		return c, fmt.Errorf("count: %w", err)
	}
	c.Links += packed
	return c, nil
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"mundaneum/backend/robots"
)

// Hosts: the robots.txt kept per origin (robots.Store).

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

package store

import (
	"context"
	"fmt"

	"mundaneum/backend/check/record"
)

// The sites whose robots.txt is kept, for MOMspider's sites view (check/record's records).

// RobotsSites lists the sites whose robots.txt is stored, by origin.
func (s *Store) RobotsSites(ctx context.Context) ([]record.RobotsSite, error) {
	out, err := collect(ctx, s.read, func(row interface{ Scan(...any) error }) (record.RobotsSite, error) {
		var r record.RobotsSite
		err := row.Scan(&r.Origin, &r.Status, &r.Bytes, &r.FetchedAt, &r.ExpiresAt)
		return r, err
	}, `SELECT origin, robots_status, coalesce(length(robots_body), 0), coalesce(robots_fetched_at, 0),
		coalesce(robots_expires_at, 0) FROM hosts WHERE robots_status IS NOT NULL ORDER BY origin`)
	if err != nil {
		return nil, fmt.Errorf("list robots.txt sites: %w", err)
	}
	return out, nil
}

// SetRobotsExpiry changes until when a site's stored robots.txt holds (unix ms; a time in
// the past makes the next request fetch it again). A site with no stored robots.txt gives
// ErrNotFound.
func (s *Store) SetRobotsExpiry(ctx context.Context, origin string, at int64) error {
	if err := s.writable("set robots.txt expiry"); err != nil {
		return err
	}
	n, err := Get(ctx, s.writer, func(tx *Tx) (int64, error) {
		res, err := tx.ExecContext(ctx, `UPDATE hosts SET robots_expires_at = ? WHERE origin = ? AND robots_status IS NOT NULL`, at, origin)
		if err != nil {
			return 0, err
		}
		return res.RowsAffected()
	})
	if err != nil {
		return fmt.Errorf("set robots.txt expiry of %s: %w", origin, err)
	}
	if n == 0 {
		return fmt.Errorf("robots.txt of %s: %w", origin, ErrNotFound)
	}
	return s.writer.Flush(ctx)
}

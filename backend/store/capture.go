package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// The workspace's side of capture from the browser (backend/capture): the browsers paired
// to add pages (migration 0043), and the reads of the library its pickers and its badge
// need.

// CaptureClient is a browser extension paired with the workspace.
type CaptureClient struct {
	ID        int64
	Origin    string // the extension's Origin, bound at pairing
	Browser   string // what the extension said it runs in ("Chromium 156 on Linux")
	CreatedAt int64  // unix ms
	UsedAt    int64  // unix ms of its last capture, 0 never
	Captures  int    // pages it added or saved
}

const captureClientCols = `id, origin, browser, created_at, coalesce(used_at, 0), captures`

func scanCaptureClient(row interface{ Scan(...any) error }) (CaptureClient, error) {
	var c CaptureClient
	err := row.Scan(&c.ID, &c.Origin, &c.Browser, &c.CreatedAt, &c.UsedAt, &c.Captures)
	return c, err
}

// captureWrite runs fn in a write transaction and commits it before returning, so that
// the next call of the same browser (from another connection of the read pool) sees it:
// the owner's writer, or a short write beside the owner (the command line).
func (s *Store) captureWrite(ctx context.Context, what string, fn func(tx *Tx) error) error {
	if err := s.Update(ctx, fn); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// AddCaptureClient records a paired browser: its Origin, its name and the SHA-256 (hex) of
// its token.
func (s *Store) AddCaptureClient(ctx context.Context, origin, browser, tokenHash string) (CaptureClient, error) {
	c := CaptureClient{Origin: origin, Browser: browser, CreatedAt: nowMs()}
	err := s.captureWrite(ctx, "pair a browser", func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO capture_clients(origin, browser, hash, created_at) VALUES (?, ?, ?, ?)`,
			origin, browser, tokenHash, c.CreatedAt)
		if err != nil {
			return err
		}
		c.ID, err = res.LastInsertId()
		return err
	})
	return c, err
}

// CaptureClientByHash returns the browser whose token has this SHA-256 (hex), or ErrNotFound.
func (s *Store) CaptureClientByHash(ctx context.Context, tokenHash string) (CaptureClient, error) {
	c, err := scanCaptureClient(s.read.QueryRowContext(ctx, `SELECT `+captureClientCols+` FROM capture_clients WHERE hash = ?`, tokenHash))
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("paired browser: %w", ErrNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("paired browser: %w", err)
	}
	return c, nil
}

// CaptureClients lists the paired browsers, newest first.
func (s *Store) CaptureClients(ctx context.Context) ([]CaptureClient, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+captureClientCols+` FROM capture_clients ORDER BY id DESC`)
	if err != nil {
		return nil, fmt.Errorf("paired browsers: %w", err)
	}
	defer rows.Close()
	out := []CaptureClient{}
	for rows.Next() {
		c, err := scanCaptureClient(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// RemoveCaptureClient forgets a paired browser: its token is refused from now on.
func (s *Store) RemoveCaptureClient(ctx context.Context, id int64) error {
	var n int64
	err := s.captureWrite(ctx, "unpair a browser", func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM capture_clients WHERE id = ?`, id)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err == nil && n == 0 {
		return fmt.Errorf("paired browser %d: %w", id, ErrNotFound)
	}
	return err
}

// CaptureUsed records that a paired browser added or saved a page at (unix ms).
func (s *Store) CaptureUsed(ctx context.Context, id, at int64) error {
	return s.captureWrite(ctx, "count a capture", func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE capture_clients SET used_at = max(coalesce(used_at, 0), ?), captures = captures + 1
			WHERE id = ?`, at, id)
		return err
	})
}

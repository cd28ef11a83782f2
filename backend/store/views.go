package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Saved views: queries kept by name and opened again.

// View is a saved query (Harvest's standing query), re-evaluated when opened.
type View struct {
	ID        int64
	Name      string
	Query     string
	CreatedAt int64 // unix ms
	UpdatedAt int64 // the query last changed
	OpenedAt  int64 // last opened, 0 if never
	LastTotal int   // results when last opened
}

// errReadOnly is returned for view changes on a workspace opened read-only.
var errReadOnly = errors.New("the workspace is open read-only")

const viewColumns = `id, name, query, created_at, updated_at, coalesce(opened_at, 0), coalesce(last_total, 0)`

func scanView(row interface{ Scan(...any) error }) (View, error) {
	var v View
	err := row.Scan(&v.ID, &v.Name, &v.Query, &v.CreatedAt, &v.UpdatedAt, &v.OpenedAt, &v.LastTotal)
	return v, err
}

// ErrExists is returned when a row that should be new exists already.
var ErrExists = errors.New("exists already")

// SaveView stores a view under name. A view of that name is replaced only when replace is
// set (else ErrExists, wrapped with its query): its query changes and its baseline starts
// again, as if it had never been opened. replaced says whether one was. The change is
// committed when SaveView returns; beside the workspace's owner it waits its turn.
func (s *Store) SaveView(ctx context.Context, name, query string, replace bool) (v View, replaced bool, err error) {
	now := nowMs()
	err = s.Update(ctx, func(tx *Tx) error {
		old, err := scanView(tx.QueryRowContext(ctx, `SELECT `+viewColumns+` FROM views WHERE name = ?`, name))
		switch {
		case errors.Is(err, sql.ErrNoRows):
			v, err = scanView(tx.QueryRowContext(ctx, `INSERT INTO views(name, query, created_at, updated_at)
				VALUES (?, ?, ?, ?) RETURNING `+viewColumns, name, query, now, now))
			return err
		case err != nil:
			return err
		case !replace:
			return fmt.Errorf("a view named %q %w (its query: %s)", name, ErrExists, old.Query)
		}
		v, err = scanView(tx.QueryRowContext(ctx, `UPDATE views SET query = ?, updated_at = ?, opened_at = NULL,
			last_total = NULL WHERE id = ? RETURNING `+viewColumns, query, now, old.ID))
		replaced = err == nil
		return err
	})
	if err != nil {
		return View{}, false, fmt.Errorf("save view %q: %w", name, err)
	}
	return v, replaced, nil
}

// Views lists the saved views by name.
func (s *Store) Views(ctx context.Context) ([]View, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+viewColumns+` FROM views ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("list views: %w", err)
	}
	defer rows.Close()
	var out []View
	for rows.Next() {
		v, err := scanView(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// ViewNamed returns the view called name, or ErrNotFound.
func (s *Store) ViewNamed(ctx context.Context, name string) (View, error) {
	v, err := scanView(s.read.QueryRowContext(ctx, `SELECT `+viewColumns+` FROM views WHERE name = ?`, name))
	if errors.Is(err, sql.ErrNoRows) {
		return View{}, fmt.Errorf("view %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return View{}, fmt.Errorf("view %q: %w", name, err)
	}
	return v, nil
}

// DeleteView removes the view called name, or returns ErrNotFound.
func (s *Store) DeleteView(ctx context.Context, name string) error {
	var n int64
	err := s.Update(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM views WHERE name = ?`, name)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return fmt.Errorf("delete view %q: %w", name, err)
	}
	if n == 0 {
		return fmt.Errorf("view %q: %w", name, ErrNotFound)
	}
	return nil
}

// MarkViewOpened records that a view was opened at time at (unix ms) and found total results.
func (s *Store) MarkViewOpened(ctx context.Context, id, at int64, total int) error {
	err := s.Update(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE views SET opened_at = ?, last_total = ? WHERE id = ?`, at, total, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("mark view %d opened: %w", id, err)
	}
	return nil
}

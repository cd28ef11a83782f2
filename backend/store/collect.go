package store

import (
	"context"
	"database/sql"
)

// Helpers every domain's reads share.

// Querier is what reads need of a pool: a *sql.DB, or a statement cache over one
// (sqlcache.DB).
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// collect runs a query on the read pool and scans every row with scan.
func collect[T any](ctx context.Context, db Querier, scan func(interface{ Scan(...any) error }) (T, error), query string, args ...any) ([]T, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

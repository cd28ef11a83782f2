package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Settings of other packages, each under a key of its own in the settings table.

// LoadSetting returns the JSON value stored under key in the settings table (ok false when
// none is): for the settings of a package other than the workspace's main ones.
func (s *Store) LoadSetting(ctx context.Context, key string) (value []byte, ok bool, err error) {
	var v string
	err = s.read.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read setting %s: %w", key, err)
	}
	return []byte(v), true, nil
}

// SaveSetting stores a JSON value under key and commits it.
func (s *Store) SaveSetting(ctx context.Context, key string, value []byte) error {
	if err := s.writable("save setting " + key); err != nil {
		return err
	}
	err := s.writer.Do(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO settings(key, value) VALUES (?, ?)
			ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, string(value))
		return err
	})
	if err != nil {
		return fmt.Errorf("save setting %s: %w", key, err)
	}
	return s.writer.Flush(ctx)
}

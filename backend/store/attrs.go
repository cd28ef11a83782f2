package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// A page's summary attributes (summary_attrs): what its summariser found besides the text.

// saveAttrs replaces a page's summary attributes: they are automatic, made again whenever
// its content is summarised (the user's notes and tags are in the library, not here).
func saveAttrs(ctx context.Context, tx *Tx, pageID int64, attrs []Attr) error {
	del, err := tx.Stmt(ctx, `DELETE FROM summary_attrs WHERE page_id = ?`)
	if err != nil {
		return err
	}
	if _, err := del.ExecContext(ctx, pageID); err != nil {
		return fmt.Errorf("summary attributes: %w", err)
	}
	if len(attrs) == 0 {
		return nil
	}
	ins, err := tx.Stmt(ctx, `INSERT INTO summary_attrs(page_id, seq, name, value, num) VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	for i, a := range attrs {
		var num any
		if f, err := strconv.ParseFloat(strings.TrimSpace(a.Value), 64); err == nil {
			num = f
		}
		if _, err := ins.ExecContext(ctx, pageID, i, a.Name, a.Value, num); err != nil {
			return fmt.Errorf("summary attributes: %w", err)
		}
	}
	return nil
}

// PageAttrs returns a page's summariser and its summary attributes in their order: what
// an export maps to its own attributes (a SOIF template's, one per row).
func (s *Store) PageAttrs(ctx context.Context, pageID int64) (summariser string, attrs []Attr, err error) {
	if err := s.ReadDB().QueryRowContext(ctx, `SELECT coalesce(summariser, '') FROM pages WHERE id = ?`, pageID).Scan(&summariser); err != nil {
		return "", nil, err
	}
	rows, err := s.ReadDB().QueryContext(ctx, `SELECT name, value FROM summary_attrs WHERE page_id = ? ORDER BY seq`, pageID)
	if err != nil {
		return "", nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var a Attr
		if err := rows.Scan(&a.Name, &a.Value); err != nil {
			return "", nil, err
		}
		attrs = append(attrs, a)
	}
	return summariser, attrs, rows.Err()
}

package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
)

// The elements of a visit (migration 0013): how a page was reached, what its links make.

// saveElement records the element of a visit (migration 0013): how the page was reached
// and the elements its links make.
func saveElement(ctx context.Context, tx *Tx, r *Result, children []byte) error {
	st, err := tx.Stmt(ctx, `INSERT INTO elements(crawl_id, page_id, family, category, followed, children)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(crawl_id, page_id) DO UPDATE SET family=excluded.family,
		category=excluded.category, followed=excluded.followed, children=excluded.children`)
	if err != nil {
		return err
	}
	var kids any
	if len(children) > 0 {
		kids = children
	}
	e := r.Element
	if _, err := st.ExecContext(ctx, r.CrawlID, r.PageID, e.Family, e.Category, e.Followed, kids); err != nil {
		return fmt.Errorf("element: %w", err)
	}
	return nil
}

// Child is one element made by a link of a visited element: the page it reaches and the
// category decided for it. Its position is its index in the list, from 1.
type Child struct {
	PageID   int64
	Category uint8
}

// DecodeChildren reads an elements.children value.
func DecodeChildren(b []byte) ([]Child, error) {
	var out []Child
	for len(b) > 0 {
		id, n := binary.Uvarint(b)
		if n <= 0 || n >= len(b) {
			return out, errors.New("bad element children")
		}
		out = append(out, Child{PageID: int64(id), Category: b[n]})
		b = b[n+1:]
	}
	return out, nil
}

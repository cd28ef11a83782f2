package querysql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	vlib "mundaneum/backend/library"
	"mundaneum/backend/query"
)

// folder:PATH narrows a search to the library under PATH (GENVL's libraries): its postings,
// and the pages its pointers point at. The query language reads the path as text; here it
// is checked with the library's own parser, and resolved once per query to the node path
// of that library, which the filter table compiles (libpath).

// Parse reads a query (see query.Parse) and checks its folder: paths with the library's own
// parser: a path the library cannot read is left out, with a note.
func Parse(q string) query.Query {
	x := query.Parse(q)
	var bad []string
	x.Root = query.Drop(x.Root, func(n query.Node) bool {
		f, ok := n.(*query.Filter)
		if !ok || f.Field != "folder" {
			return false
		}
		if _, err := vlib.ParsePath(f.Value); err != nil {
			bad = append(bad, "folder:"+query.Clip(f.Value, 30)+" was left out: it takes a library's path like /Computing/Go")
			return true
		}
		return false
	})
	if len(bad) > 0 {
		n := &query.Notes{List: x.Notes}
		for _, s := range bad {
			n.Add(s)
		}
		x.Notes = n.List
	}
	return x
}

// Querier runs the look-ups ResolveFolders makes (a store's read pool satisfies it).
type Querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// ResolveFolders turns every folder: filter under root into a filter on the node paths
// below that library (field "libpath", value "/1/5/"; "" when there is no such library,
// with a note).
func ResolveFolders(ctx context.Context, db Querier, root query.Node, n *query.Notes) error {
	var err error
	query.Walk(root, false, func(x query.Node, _ bool) {
		f, ok := x.(*query.Filter)
		if !ok || f.Field != "folder" || err != nil {
			return
		}
		var p string
		if p, err = folderPath(ctx, db, f.Value); err == nil && p == "" {
			n.Add("folder:" + query.Clip(f.Value, 40) + " is not a library: nothing is in it")
		}
		f.Field, f.Value = "libpath", p
	})
	return err
}

// folderPath returns the node path ("/1/5/") of the library at a library path, "" when
// there is none.
func folderPath(ctx context.Context, db Querier, path string) (string, error) {
	segs, err := vlib.ParsePath(path)
	if err != nil {
		return "", nil
	}
	id, p := vlib.RootID, "/1/"
	for i, s := range segs {
		var q string
		args := []any{}
		if s.ID != 0 {
			q, args = `SELECT id, path FROM lib_nodes WHERE id = ? AND kind = 'library'`, append(args, s.ID)
			if i > 0 {
				q += ` AND parent_id = ?`
				args = append(args, id)
			}
		} else {
			q, args = `SELECT id, path FROM lib_nodes WHERE parent_id = ? AND title = ? AND kind = 'library'`, append(args, id, s.Title)
		}
		err := db.QueryRowContext(ctx, q, args...).Scan(&id, &p)
		if errors.Is(err, sql.ErrNoRows) {
			return "", nil
		}
		if err != nil {
			return "", fmt.Errorf("folder %q: %w", query.Clip(path, 40), err)
		}
	}
	return p, nil
}

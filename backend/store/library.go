package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"mundaneum/backend/library"
)

// The library's tables (migration 0016): the SQL behind library.Store and library.Tx.

const libColumns = `n.id, coalesce(n.parent_id, 0), n.path, n.kind, n.position, n.title, coalesce(n.url, ''),
	coalesce(n.url_key, ''), n.notes, n.body, n.tags, n.purpose, coalesce(n.image_id, 0), n.create_only, n.sort,
	n.author, n.email, coalesce(n.password, ''), coalesce(n.view_id, 0), n.created_at, n.updated_at, n.aliases,
	n.open_to_guests`

func scanLibNode(row interface{ Scan(...any) error }, extra ...any) (library.Node, error) {
	var n library.Node
	var tags, aliases string
	dest := append([]any{&n.ID, &n.Parent, &n.Path, &n.Kind, &n.Position, &n.Title, &n.URL, &n.URLKey, &n.Notes,
		&n.Body, &tags, &n.Purpose, &n.ImageID, &n.CreateOnly, &n.Sort, &n.Author, &n.Email, &n.Password,
		&n.ViewID, &n.CreatedAt, &n.UpdatedAt, &aliases, &n.OpenToGuests}, extra...)
	if err := row.Scan(dest...); err != nil {
		return n, err
	}
	if err := json.Unmarshal([]byte(tags), &n.Tags); err != nil {
		return n, fmt.Errorf("node %d: tags: %w", n.ID, err)
	}
	if aliases != "[]" {
		if err := json.Unmarshal([]byte(aliases), &n.Aliases); err != nil {
			return n, fmt.Errorf("node %d: aliases: %w", n.ID, err)
		}
	}
	return n, nil
}

func scanLibNodes(rows *sql.Rows, err error) ([]library.Node, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []library.Node
	for rows.Next() {
		n, err := scanLibNode(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// subtreeRange is the range of lib_path that holds the node of path and its descendants.
func subtreeRange(path string) (lo, hi string) {
	return path, path[:len(path)-1] + "0"
}

func tagsJSON(tags []string) string {
	if len(tags) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(tags)
	return string(b)
}

func aliasesJSON(as []library.Alias) string {
	if len(as) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(as)
	return string(b)
}

func nullIf[T comparable](v, zero T) any {
	if v == zero {
		return nil
	}
	return v
}

// The store is the library's.
var _ library.Store = (*Store)(nil)

// UpdateLibrary runs fn in one write transaction (see Update): on the owner of the
// workspace or beside it.
func (s *Store) UpdateLibrary(ctx context.Context, fn func(library.Tx) error) error {
	return s.Update(ctx, func(tx *Tx) error { return fn(&libTx{tx: tx, stmts: map[string]*sql.Stmt{}}) })
}

// libTx is library.Tx over a writer transaction.
type libTx struct {
	tx *Tx
	// stmts holds the statements prepared in this transaction: an import runs the same
	// few statements a hundred thousand times, and preparing an insert compiles the
	// triggers that keep lib_fts and lib_tags.
	stmts map[string]*sql.Stmt
}

func (t *libTx) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := t.stmts[query]; ok {
		return st, nil
	}
	st, err := t.tx.Stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	t.stmts[query] = st
	return st, nil
}

func (t *libTx) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := t.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

func (t *libTx) Node(ctx context.Context, id int64) (library.Node, error) {
	n, err := scanLibNode(t.tx.QueryRowContext(ctx, `SELECT `+libColumns+` FROM lib_nodes n WHERE n.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return n, fmt.Errorf("library node %d: %w", id, library.ErrNotFound)
	}
	return n, err
}

func (t *libTx) Children(ctx context.Context, parent int64, title string, kind library.Kind) ([]library.Node, error) {
	return scanLibNodes(t.tx.QueryContext(ctx, `SELECT `+libColumns+` FROM lib_nodes n
		WHERE n.parent_id = ? AND n.title = ? AND (? = '' OR n.kind = ?) ORDER BY n.position, n.id`, parent, title, kind, kind))
}

func (t *libTx) ChildIDs(ctx context.Context, parent int64, order library.Order) ([]int64, error) {
	by, ok := orderSQL[order]
	if !ok {
		by = orderSQL[library.ByManual]
	}
	rows, err := t.tx.QueryContext(ctx, `SELECT n.id FROM lib_nodes n WHERE n.parent_id = ? ORDER BY n.kind <> 'library', `+by, parent)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

func (t *libTx) Subtree(ctx context.Context, id int64) ([]library.Node, error) {
	n, err := t.Node(ctx, id)
	if err != nil {
		return nil, err
	}
	lo, hi := subtreeRange(n.Path)
	return scanLibNodes(t.tx.QueryContext(ctx, `SELECT `+libColumns+` FROM lib_nodes n
		WHERE n.path >= ? AND n.path < ? ORDER BY n.path`, lo, hi))
}

func (t *libTx) NextID(ctx context.Context) (int64, error) {
	var id int64
	err := t.tx.QueryRowContext(ctx, `SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'lib_nodes'), 0),
		coalesce((SELECT max(id) FROM lib_nodes), 0)) + 1`).Scan(&id)
	return id, err
}

func (t *libTx) NextPosition(ctx context.Context, parent int64) (int, error) {
	var p int
	err := t.tx.QueryRowContext(ctx, `SELECT coalesce(max(position), -1) + 1 FROM lib_nodes WHERE parent_id = ?`, parent).Scan(&p)
	return p, err
}

func (t *libTx) Insert(ctx context.Context, n *library.Node) error {
	return t.InsertMany(ctx, []library.Node{*n})
}

// insertManyChunk is how many nodes InsertMany writes with one statement. Each statement
// that writes lib_nodes opens a statement savepoint (its triggers write two tables), and at
// every savepoint FTS5 writes out its pending terms as a new segment: one row at a time,
// an import of 100,000 bookmarks would write (and merge) 100,000 segments.
const insertManyChunk = 500 // x 23 columns: within SQLite's 32,766 parameters

func (t *libTx) InsertMany(ctx context.Context, ns []library.Node) error {
	all := ns
	if len(all) == 0 {
		return nil
	}
	for len(ns) > 0 {
		chunk := ns[:min(len(ns), insertManyChunk)]
		ns = ns[len(chunk):]
		args := make([]any, 0, len(chunk)*libInsertCols)
		for _, n := range chunk {
			args = append(args, n.ID, nullIf(n.Parent, 0), n.Path, n.Kind, n.Position, n.Title, nullIf(n.URL, ""),
				nullIf(n.URLKey, ""), n.Notes, n.Body, tagsJSON(n.Tags), n.Purpose, nullIf(n.ImageID, 0), n.CreateOnly, n.Sort,
				n.Author, n.Email, nullIf(n.Password, ""), nullIf(n.ViewID, 0), n.CreatedAt, n.UpdatedAt, aliasesJSON(n.Aliases),
				n.OpenToGuests)
		}
		row := "(" + strings.TrimSuffix(strings.Repeat("?, ", libInsertCols), ", ") + ")"
		if _, err := t.exec(ctx, libInsert+strings.TrimSuffix(strings.Repeat(row+", ", len(chunk)), ", "), args...); err != nil {
			return fmt.Errorf("insert library nodes: %w", err)
		}
	}
	// Then their text, in one statement (see migration 0016).
	if len(all) == 1 {
		if _, err := t.exec(ctx, `INSERT INTO lib_fts(rowid, title, url, notes, tags, body, path)
			SELECT id, title, url, notes, tags, body, path FROM lib_nodes WHERE id = ?`, all[0].ID); err != nil {
			return fmt.Errorf("index library node: %w", err)
		}
		return t.addBelow(ctx, all)
	}
	ids := make([]int64, len(all))
	for i, n := range all {
		ids[i] = n.ID
	}
	js, _ := json.Marshal(ids)
	if _, err := t.exec(ctx, `INSERT INTO lib_fts(rowid, title, url, notes, tags, body, path)
		SELECT id, title, url, notes, tags, body, path FROM lib_nodes WHERE id IN (SELECT value FROM json_each(?))`, string(js)); err != nil {
		return fmt.Errorf("index library nodes: %w", err)
	}
	return t.addBelow(ctx, all)
}

// below is what a subtree adds to the counts of the libraries above it (migration 0020).
type below struct{ libs, postings int }

// addBelow adds the nodes ns, just inserted, to the counts of their ancestors: once per
// ancestor, whatever the number of nodes (an import's 100,000 bookmarks update its ~1,000
// libraries and those above).
func (t *libTx) addBelow(ctx context.Context, ns []library.Node) error {
	add := map[int64]below{}
	for _, n := range ns {
		ids, err := pathIDs(n.Path)
		if err != nil {
			return err
		}
		for _, a := range ids[:len(ids)-1] {
			b := add[a]
			if n.Kind == library.KindLibrary {
				b.libs++
			} else {
				b.postings++
			}
			add[a] = b
		}
	}
	return t.changeBelow(ctx, add, 1)
}

// changeBelow adds (sign 1) or takes (sign -1) the counts of add to its libraries.
func (t *libTx) changeBelow(ctx context.Context, add map[int64]below, sign int) error {
	for id, b := range add {
		if _, err := t.exec(ctx, `UPDATE lib_nodes SET libs_below = libs_below + ?, postings_below = postings_below + ? WHERE id = ?`,
			sign*b.libs, sign*b.postings, id); err != nil {
			return fmt.Errorf("library counts: %w", err)
		}
	}
	return nil
}

// subtreeBelow is what the subtree of the node of kind and path adds to each ancestor's
// counts, keyed by those ancestors.
func (t *libTx) subtreeBelow(ctx context.Context, id int64, path string) (map[int64]below, error) {
	var b below
	var kind string
	if err := t.tx.QueryRowContext(ctx, `SELECT kind, libs_below, postings_below FROM lib_nodes WHERE id = ?`, id).
		Scan(&kind, &b.libs, &b.postings); err != nil {
		return nil, fmt.Errorf("library counts: %w", err)
	}
	if kind == string(library.KindLibrary) {
		b.libs++
	} else {
		b.postings++
	}
	ids, err := pathIDs(path)
	if err != nil {
		return nil, err
	}
	out := map[int64]below{}
	for _, a := range ids[:len(ids)-1] {
		out[a] = b
	}
	return out, nil
}

const (
	libInsert = `INSERT INTO lib_nodes(id, parent_id, path, kind, position, title, url, url_key, notes, body, tags, purpose,
		image_id, create_only, sort, author, email, password, view_id, created_at, updated_at, aliases, open_to_guests) VALUES `
	libInsertCols = 23
)

func (t *libTx) Update(ctx context.Context, n *library.Node) error {
	_, err := t.exec(ctx, `UPDATE lib_nodes SET title = ?, url = ?, url_key = ?, notes = ?, body = ?, tags = ?,
		purpose = ?, image_id = ?, create_only = ?, sort = ?, author = ?, email = ?, password = ?, updated_at = ?,
		aliases = ?, open_to_guests = ? WHERE id = ?`,
		n.Title, nullIf(n.URL, ""), nullIf(n.URLKey, ""), n.Notes, n.Body, tagsJSON(n.Tags), n.Purpose,
		nullIf(n.ImageID, 0), n.CreateOnly, n.Sort, n.Author, n.Email, nullIf(n.Password, ""), n.UpdatedAt,
		aliasesJSON(n.Aliases), n.OpenToGuests, n.ID)
	if err != nil {
		return fmt.Errorf("update library node %d: %w", n.ID, err)
	}
	return nil
}

func (t *libTx) Move(ctx context.Context, id, parent int64, parentPath string, position int) error {
	n, err := t.Node(ctx, id)
	if err != nil {
		return err
	}
	newPath := parentPath + strconv.FormatInt(id, 10) + "/"
	if _, err := t.tx.ExecContext(ctx, `UPDATE lib_nodes SET parent_id = ?, position = ? WHERE id = ?`, parent, position, id); err != nil {
		return fmt.Errorf("move library node %d: %w", id, err)
	}
	if newPath == n.Path {
		return nil
	}
	// The subtree's counts leave the old ancestors and join the new ones.
	from, err := t.subtreeBelow(ctx, id, n.Path)
	if err != nil {
		return err
	}
	to, err := t.subtreeBelow(ctx, id, newPath)
	if err != nil {
		return err
	}
	if err := t.changeBelow(ctx, from, -1); err != nil {
		return err
	}
	if err := t.changeBelow(ctx, to, 1); err != nil {
		return err
	}
	lo, hi := subtreeRange(n.Path)
	if _, err := t.tx.ExecContext(ctx, `UPDATE lib_nodes SET path = ? || substr(path, ?) WHERE path >= ? AND path < ?`,
		newPath, len(n.Path)+1, lo, hi); err != nil {
		return fmt.Errorf("move library node %d: %w", id, err)
	}
	return nil
}

func (t *libTx) Delete(ctx context.Context, id int64) (int, error) {
	n, err := t.Node(ctx, id)
	if err != nil {
		return 0, err
	}
	lo, hi := subtreeRange(n.Path)
	res, err := t.tx.ExecContext(ctx, `DELETE FROM lib_nodes WHERE path >= ? AND path < ?`, lo, hi)
	if err != nil {
		return 0, fmt.Errorf("delete library node %d: %w", id, err)
	}
	k, err := res.RowsAffected()
	return int(k), err
}

func (t *libTx) SetPositions(ctx context.Context, ids []int64) error {
	for i, id := range ids {
		if _, err := t.exec(ctx, `UPDATE lib_nodes SET position = ? WHERE id = ?`, i, id); err != nil {
			return fmt.Errorf("reorder library: %w", err)
		}
	}
	return nil
}

func (t *libTx) URLParents(ctx context.Context, key string, before int64) ([]int64, error) {
	st, err := t.stmt(ctx, `SELECT parent_id FROM lib_nodes WHERE url_key = ?1 AND kind = 'pointer' AND id < ?2
		UNION ALL SELECT n.parent_id FROM lib_aliases a JOIN lib_nodes n ON n.id = a.node_id
		WHERE a.url_key = ?1 AND n.kind = 'pointer' AND n.id < ?2 AND n.url_key IS NOT ?1`)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, key, before)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

func (t *libTx) PointerURLs(ctx context.Context) (map[string][]int64, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT url_key, parent_id FROM lib_nodes WHERE url_key IS NOT NULL AND kind = 'pointer'
		UNION ALL SELECT a.url_key, n.parent_id FROM lib_aliases a JOIN lib_nodes n ON n.id = a.node_id
		WHERE n.kind = 'pointer' AND n.url_key IS NOT a.url_key`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]int64{}
	for rows.Next() {
		var k string
		var p int64
		if err := rows.Scan(&k, &p); err != nil {
			return nil, err
		}
		out[k] = append(out[k], p)
	}
	return out, rows.Err()
}

func (t *libTx) WithURL(ctx context.Context, key string) ([]library.Node, error) {
	st, err := t.stmt(ctx, `SELECT `+libColumns+` FROM lib_nodes n WHERE n.url_key = ?1
		OR n.id IN (SELECT node_id FROM lib_aliases WHERE url_key = ?1) ORDER BY n.id`)
	if err != nil {
		return nil, err
	}
	return scanLibNodes(st.QueryContext(ctx, key))
}

func (t *libTx) SaveImage(ctx context.Context, mime string, data []byte) (int64, error) {
	sum := sha256.Sum256(data)
	var id int64
	err := t.tx.QueryRowContext(ctx, `INSERT INTO lib_images(hash, mime, data) VALUES (?, ?, ?)
		ON CONFLICT(hash) DO UPDATE SET mime = excluded.mime RETURNING id`, hex.EncodeToString(sum[:]), mime, data).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("save image: %w", err)
	}
	return id, nil
}

func (t *libTx) ViewID(ctx context.Context, name string) (int64, error) {
	var id int64
	err := t.tx.QueryRowContext(ctx, `SELECT id FROM views WHERE name = ?`, name).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("view %q: %w", name, library.ErrNotFound)
	}
	return id, err
}

func (t *libTx) EnsureView(ctx context.Context, name, query string) (int64, error) {
	now := nowMs()
	var id int64
	err := t.tx.QueryRowContext(ctx, `INSERT INTO views(name, query, created_at, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT(name) DO UPDATE SET name = name RETURNING id`, name, query, now, now).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("view %q: %w", name, err)
	}
	return id, nil
}

func (t *libTx) ViewExists(ctx context.Context, id int64) (bool, error) {
	var n int
	err := t.tx.QueryRowContext(ctx, `SELECT count(*) FROM views WHERE id = ?`, id).Scan(&n)
	return n > 0, err
}

// undoKept is how many operations the undo journal remembers.
const undoKept = 50

func (t *libTx) PushUndo(ctx context.Context, u library.Undo) error {
	keys, err := json.Marshal(append([]string{}, u.Keys...))
	if err != nil {
		return err
	}
	if _, err := t.tx.ExecContext(ctx, `INSERT INTO lib_undo(at, op, summary, data, keys, actor, actor_name) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		u.At, u.Op, u.Summary, string(u.Data), string(keys), u.By, u.ByName); err != nil {
		return fmt.Errorf("undo journal: %w", err)
	}
	_, err = t.tx.ExecContext(ctx, `DELETE FROM lib_undo WHERE id <= (SELECT max(id) FROM lib_undo) - ?`, undoKept)
	return err
}

func (t *libTx) UndoTop(ctx context.Context) (library.Undo, error) {
	return scanUndo(t.tx.QueryRowContext(ctx, undoTopSQL))
}

// The redo journal shares lib_undo with the undo journal (no migration of its own): its
// entries' op is prefixed with redoPrefix, and the undo journal's queries leave them out.
const redoPrefix = "redo:"

func (t *libTx) PushRedo(ctx context.Context, u library.Undo) error {
	u.Op = redoPrefix + u.Op
	return t.PushUndo(ctx, u)
}

func (t *libTx) RedoTop(ctx context.Context) (library.Undo, error) {
	return scanRedo(t.tx.QueryRowContext(ctx, redoTopSQL))
}

func (t *libTx) ClearRedo(ctx context.Context) error {
	_, err := t.tx.ExecContext(ctx, `DELETE FROM lib_undo WHERE op LIKE 'redo:%'`)
	return err
}

func (t *libTx) DropUndo(ctx context.Context, id int64) error {
	_, err := t.tx.ExecContext(ctx, `DELETE FROM lib_undo WHERE id = ?`, id)
	return err
}

func (t *libTx) PathTitles(ctx context.Context, path string) ([]string, error) {
	return pathTitles(ctx, t.tx.QueryContext, path)
}

const (
	undoTopSQL = `SELECT id, at, op, summary, data, keys, actor, actor_name FROM lib_undo
		WHERE op NOT LIKE 'redo:%' ORDER BY id DESC LIMIT 1`
	redoTopSQL = `SELECT id, at, op, summary, data, keys, actor, actor_name FROM lib_undo
		WHERE op LIKE 'redo:%' ORDER BY id DESC LIMIT 1`
)

// scanRedo reads a redo entry, its op as the undo journal's ops are named.
func scanRedo(row *sql.Row) (library.Undo, error) {
	u, err := scanUndo(row)
	if errors.Is(err, library.ErrNotFound) {
		return u, fmt.Errorf("redo: nothing to redo: %w", library.ErrNotFound)
	}
	u.Op = strings.TrimPrefix(u.Op, redoPrefix)
	return u, err
}

func scanUndo(row *sql.Row) (library.Undo, error) {
	var u library.Undo
	var data, keys string
	err := row.Scan(&u.ID, &u.At, &u.Op, &u.Summary, &data, &keys, &u.By, &u.ByName)
	if errors.Is(err, sql.ErrNoRows) {
		return u, fmt.Errorf("undo: nothing to undo: %w", library.ErrNotFound)
	}
	if err != nil {
		return u, fmt.Errorf("undo journal: %w", err)
	}
	u.Data = []byte(data)
	if err := json.Unmarshal([]byte(keys), &u.Keys); err != nil {
		return u, fmt.Errorf("undo journal %d: keys: %w", u.ID, err)
	}
	return u, nil
}

// protectedBelowSQL lists the nodes with a password strictly below a path, parents first.
const protectedBelowSQL = `SELECT ` + libColumns + ` FROM lib_nodes n
	WHERE n.path > ? AND n.path < ? AND n.password IS NOT NULL ORDER BY length(n.path), n.path`

func (t *libTx) ProtectedBelow(ctx context.Context, id int64) ([]library.Node, error) {
	n, err := t.Node(ctx, id)
	if err != nil {
		return nil, err
	}
	lo, hi := subtreeRange(n.Path)
	return scanLibNodes(t.tx.QueryContext(ctx, protectedBelowSQL, lo, hi))
}

// pathIDs parses a node path ("/1/5/17/") into its ids.
func pathIDs(path string) ([]int64, error) {
	var ids []int64
	for _, p := range strings.Split(strings.Trim(path, "/"), "/") {
		id, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bad library path %q", path)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

type queryFunc func(ctx context.Context, query string, args ...any) (*sql.Rows, error)

func pathTitles(ctx context.Context, query queryFunc, path string) ([]string, error) {
	ids, err := pathIDs(path)
	if err != nil {
		return nil, err
	}
	js, _ := json.Marshal(ids)
	rows, err := query(ctx, `SELECT id, title FROM lib_nodes WHERE id IN (SELECT value FROM json_each(?))`, string(js))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	titles := map[int64]string{}
	for rows.Next() {
		var id int64
		var t string
		if err := rows.Scan(&id, &t); err != nil {
			return nil, err
		}
		titles[id] = t
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = titles[id]
	}
	return out, nil
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"mundaneum/backend/library"
)

// The library's reads (library.Store), on the read pool: they see committed data only.

// postingColumns adds to libColumns what the crawler knows of the node's URL and its view.
const postingColumns = libColumns + `, coalesce(pg.id, 0), coalesce(pg.title, ''), coalesce(pg.state, ''),
	coalesce(pg.status, 0), coalesce(pg.fetched_at, 0), pg.hash IS NOT NULL, coalesce(pg.reason, ''), coalesce(pg.detail, ''),
	v.name, coalesce(v.query, ''), coalesce(v.opened_at, 0), coalesce(v.last_total, 0),
	cu.verdict, coalesce(cu.status, 0), coalesce(cu.final_url, ''), coalesce(cu.reason, ''),
	coalesce(cu.checked_at, 0), cu.dead_at IS NOT NULL, coalesce(cu.permanent, 0),
	n.libs_below, n.postings_below`

const postingFrom = ` FROM lib_nodes n LEFT JOIN pages pg ON pg.url = n.url_key LEFT JOIN views v ON v.id = n.view_id
	LEFT JOIN check_urls cu ON cu.url = n.url_key AND n.url_key <> ''`

func scanPosting(row interface{ Scan(...any) error }) (library.Posting, error) {
	var p library.Posting
	var k library.Known
	var viewName sql.NullString
	var vi library.ViewInfo
	var verdict sql.NullString
	var h library.Health
	n, err := scanLibNode(row, &k.PageID, &k.Title, &k.State, &k.Status, &k.FetchedAt, &k.Copy, &k.Reason, &k.Detail,
		&viewName, &vi.Query, &vi.OpenedAt, &vi.LastTotal,
		&verdict, &h.Status, &h.FinalURL, &h.Reason, &h.CheckedAt, &h.Dead, &h.Permanent, &p.Libraries, &p.Postings)
	if err != nil {
		return p, err
	}
	if verdict.Valid {
		h.Verdict = verdict.String
		p.Health = &h
	}
	p.Node = n
	if k.PageID != 0 {
		p.Known = &k
	}
	if viewName.Valid {
		vi.Name = viewName.String
		p.View = &vi
	}
	return p, nil
}

func scanPostings(rows *sql.Rows, err error) ([]library.Posting, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []library.Posting{}
	for rows.Next() {
		p, err := scanPosting(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// LibNode reads one node of the library.
func (s *Store) LibNode(ctx context.Context, id int64) (library.Node, error) {
	n, err := scanLibNode(s.read.QueryRowContext(ctx, `SELECT `+libColumns+` FROM lib_nodes n WHERE n.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return n, fmt.Errorf("library node %d: %w", id, library.ErrNotFound)
	}
	if err != nil {
		return n, fmt.Errorf("library node %d: %w", id, err)
	}
	return n, nil
}

// LibPosting reads one node with what the crawler knows of it.
func (s *Store) LibPosting(ctx context.Context, id int64) (library.Posting, error) {
	p, err := scanPosting(s.read.QueryRowContext(ctx, `SELECT `+postingColumns+postingFrom+` WHERE n.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("library node %d: %w", id, library.ErrNotFound)
	}
	if err != nil {
		return p, fmt.Errorf("library node %d: %w", id, err)
	}
	return p, nil
}

// LibChildren lists the children of parent called title (of kind, unless kind is "").
func (s *Store) LibChildren(ctx context.Context, parent int64, title string, kind library.Kind) ([]library.Node, error) {
	return scanLibNodes(s.read.QueryContext(ctx, `SELECT `+libColumns+` FROM lib_nodes n
		WHERE n.parent_id = ? AND n.title = ? AND (? = '' OR n.kind = ?) ORDER BY n.position, n.id`, parent, title, kind, kind))
}

// LibAncestors returns the libraries above n, the root first.
func (s *Store) LibAncestors(ctx context.Context, n library.Node) ([]library.Node, error) {
	ids, err := pathIDs(n.Path)
	if err != nil {
		return nil, err
	}
	out := make([]library.Node, 0, len(ids))
	for _, id := range ids[:len(ids)-1] {
		a, err := s.LibNode(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// orderSQL is the ORDER BY of each order of a library's postings.
var orderSQL = map[library.Order]string{
	library.ByTitle:  `n.title COLLATE NOCASE, n.id`,
	library.ByDate:   `n.created_at DESC, n.id DESC`,
	library.ByManual: `n.position, n.id`,
}

// LibList lists a library's sub-libraries (all, by title or by hand) and one page of its
// other postings, with what the crawler knows of their URLs and the counts below each
// sub-library.
func (s *Store) LibList(ctx context.Context, parent int64, q library.ListQuery) (library.Listing, error) {
	order, ok := orderSQL[q.Order]
	if !ok {
		order = orderSQL[library.ByTitle]
	}
	libOrder := orderSQL[library.ByTitle]
	if q.Order == library.ByManual {
		libOrder = order
	}
	var l library.Listing
	var err error
	l.Libraries, err = scanPostings(s.read.QueryContext(ctx, `SELECT `+postingColumns+postingFrom+`
		WHERE n.parent_id = ? AND n.kind = 'library' ORDER BY `+libOrder, parent))
	if err != nil {
		return l, fmt.Errorf("list library %d: %w", parent, err)
	}
	l.Postings, err = scanPostings(s.read.QueryContext(ctx, `SELECT `+postingColumns+postingFrom+`
		WHERE n.parent_id = ? AND n.kind <> 'library' ORDER BY `+order+` LIMIT ? OFFSET ?`, parent, q.Limit, q.Offset))
	if err != nil {
		return l, fmt.Errorf("list library %d: %w", parent, err)
	}
	// The children, from the index alone (kind would read each of them from the table),
	// less the sub-libraries listed above.
	err = s.read.QueryRowContext(ctx, `SELECT count(*) FROM lib_nodes WHERE parent_id = ?`, parent).Scan(&l.Total)
	if err != nil {
		return l, fmt.Errorf("list library %d: %w", parent, err)
	}
	l.Total -= len(l.Libraries)
	return l, nil
}

// LibRecount counts what is below library id by reading every node there (the counts a
// page shows are stored: migration 0020); for tests and checks.
func (s *Store) LibRecount(ctx context.Context, id int64) (libs, postings int, err error) {
	n, err := s.LibNode(ctx, id)
	if err != nil {
		return 0, 0, err
	}
	lo, hi := subtreeRange(n.Path)
	err = s.read.QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE kind = 'library'), count(*) FILTER (WHERE kind <> 'library')
		FROM lib_nodes WHERE path > ? AND path < ?`, lo, hi).Scan(&libs, &postings)
	if err != nil {
		return 0, 0, fmt.Errorf("count library %d: %w", id, err)
	}
	return libs, postings, nil
}

// recentCap bounds the count of a "what's new" list.
const recentCap = 100_000

// LibRecent lists what is at or below library id (the library itself left out), newest
// first, added after since (unix ms; 0 for everything), and how many there are.
func (s *Store) LibRecent(ctx context.Context, id int64, since int64, offset, limit int) ([]library.Posting, int, error) {
	n, err := s.LibNode(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	lo, hi := subtreeRange(n.Path)
	ps, err := scanPostings(s.read.QueryContext(ctx, `SELECT `+postingColumns+postingFrom+`
		WHERE n.path > ? AND n.path < ? AND n.created_at > ? ORDER BY n.created_at DESC, n.id DESC LIMIT ? OFFSET ?`,
		lo, hi, since, limit, offset))
	if err != nil {
		return nil, 0, fmt.Errorf("what's new in library %d: %w", id, err)
	}
	var total int
	err = s.read.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM lib_nodes
		WHERE path > ? AND path < ? AND created_at > ? LIMIT ?)`, lo, hi, since, recentCap).Scan(&total)
	if err != nil {
		return nil, 0, fmt.Errorf("what's new in library %d: %w", id, err)
	}
	return ps, total, nil
}

// LibSubtree returns a node and everything below it, parents before their children.
func (s *Store) LibSubtree(ctx context.Context, id int64) ([]library.Node, error) {
	n, err := s.LibNode(ctx, id)
	if err != nil {
		return nil, err
	}
	lo, hi := subtreeRange(n.Path)
	return scanLibNodes(s.read.QueryContext(ctx, `SELECT `+libColumns+` FROM lib_nodes n
		WHERE n.path >= ? AND n.path < ? ORDER BY n.path`, lo, hi))
}

// LibImage reads a library image.
func (s *Store) LibImage(ctx context.Context, id int64) (library.Image, error) {
	img := library.Image{ID: id}
	err := s.read.QueryRowContext(ctx, `SELECT mime, data FROM lib_images WHERE id = ?`, id).Scan(&img.Mime, &img.Data)
	if errors.Is(err, sql.ErrNoRows) {
		return img, fmt.Errorf("library image %d: %w", id, library.ErrNotFound)
	}
	return img, err
}

// LibUndoTop returns the newest entry of the library's undo journal.
func (s *Store) LibUndoTop(ctx context.Context) (library.Undo, error) {
	return scanUndo(s.read.QueryRowContext(ctx, undoTopSQL))
}

// LibRedoTop returns the newest redo entry: the last change undone, while no new change
// has been made since (ErrNotFound when there is none).
func (s *Store) LibRedoTop(ctx context.Context) (library.Undo, error) {
	return scanRedo(s.read.QueryRowContext(ctx, redoTopSQL))
}

// LibProtectedBelow lists the nodes with a password strictly below node id, parents first.
func (s *Store) LibProtectedBelow(ctx context.Context, id int64) ([]library.Node, error) {
	n, err := s.LibNode(ctx, id)
	if err != nil {
		return nil, err
	}
	lo, hi := subtreeRange(n.Path)
	ns, err := scanLibNodes(s.read.QueryContext(ctx, protectedBelowSQL, lo, hi))
	if err != nil {
		return nil, fmt.Errorf("library %d: protected postings: %w", id, err)
	}
	return ns, nil
}

// LibTags lists the library's tags with how many postings carry each, most used first.
func (s *Store) LibTags(ctx context.Context) ([]library.TagCount, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT min(tag), count(*) FROM lib_tags GROUP BY tag ORDER BY count(*) DESC, min(tag)`)
	if err != nil {
		return nil, fmt.Errorf("library tags: %w", err)
	}
	defer rows.Close()
	out := []library.TagCount{}
	for rows.Next() {
		var t library.TagCount
		if err := rows.Scan(&t.Tag, &t.Count); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// LibKnown returns what the crawler knows of the page with canonical URL key, nil if
// nothing.
func (s *Store) LibKnown(ctx context.Context, key string) (*library.Known, error) {
	var k library.Known
	err := s.read.QueryRowContext(ctx, `SELECT id, coalesce(title, ''), state, coalesce(status, 0), coalesce(fetched_at, 0),
		hash IS NOT NULL, coalesce(reason, ''), coalesce(detail, '') FROM pages WHERE url = ?`, key).Scan(&k.PageID, &k.Title,
		&k.State, &k.Status, &k.FetchedAt, &k.Copy, &k.Reason, &k.Detail)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("page %s: %w", key, err)
	}
	return &k, nil
}

// LibLibraries returns every library of the tree (not its other postings), in path order:
// what a picker of libraries completes from. A workspace has a few thousand at most, even
// with a hundred thousand bookmarks in them.
func (s *Store) LibLibraries(ctx context.Context) ([]library.Node, error) {
	ns, err := scanLibNodes(s.read.QueryContext(ctx, `SELECT `+libColumns+` FROM lib_nodes n WHERE n.kind = 'library'
		ORDER BY n.path`))
	if err != nil {
		return nil, fmt.Errorf("libraries: %w", err)
	}
	return ns, nil
}

// LibRecentLibraries returns the ids of the libraries pointers were most recently added
// to, most recent first, at most limit of them.
func (s *Store) LibRecentLibraries(ctx context.Context, limit int) ([]int64, error) {
	// The newest pointers, through lib_created; a few hundred are enough to find limit
	// distinct libraries in any real use.
	rows, err := s.read.QueryContext(ctx, `SELECT parent_id FROM lib_nodes WHERE kind = 'pointer'
		ORDER BY created_at DESC, id DESC LIMIT 500`)
	if err != nil {
		return nil, fmt.Errorf("recent libraries: %w", err)
	}
	defer rows.Close()
	seen := map[int64]bool{}
	out := []int64{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		if !seen[id] && len(out) < limit {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, rows.Err()
}

// LibPointersTo returns the pointers whose URL, or one of whose former URLs, has the
// canonical form key, oldest first.
func (s *Store) LibPointersTo(ctx context.Context, key string) ([]library.Node, error) {
	ns, err := scanLibNodes(s.read.QueryContext(ctx, `SELECT `+libColumns+` FROM lib_nodes n WHERE n.kind = 'pointer'
		AND (n.url_key = ?1 OR n.id IN (SELECT node_id FROM lib_aliases WHERE url_key = ?1)) ORDER BY n.id`, key))
	if err != nil {
		return nil, fmt.Errorf("pointers to %s: %w", key, err)
	}
	return ns, nil
}

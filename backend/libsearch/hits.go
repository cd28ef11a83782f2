package libsearch

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"mundaneum/backend/highlight"
	vlib "mundaneum/backend/library"
	"mundaneum/backend/query"
)

// posting is a match: a library node, and its rank (higher first).
type posting struct {
	id    int64
	score float64
}

// find returns the matches of part, newest first, up to one more than RankCap.
func (s *Searcher) find(ctx context.Context, part libPart) ([]posting, error) {
	var conds []string
	var args []any
	if part.where != "" {
		conds, args = append(conds, part.where), part.args
	}
	match := part.match
	if match != "" && part.narrow != "" {
		match = "(" + match + ") AND " + part.narrow
	}
	var q string
	switch {
	case part.match != "" && len(conds) == 0:
		q = `SELECT rowid FROM lib_fts WHERE lib_fts MATCH ? ORDER BY rowid DESC LIMIT ?`
	case part.match != "":
		q = `SELECT lib_fts.rowid FROM lib_fts CROSS JOIN lib_nodes n ON n.id = lib_fts.rowid
			WHERE lib_fts MATCH ? AND ` + strings.Join(conds, " AND ") + ` ORDER BY lib_fts.rowid DESC LIMIT ?`
	default:
		conds = append(conds, "n.id <> 1")
		q = `SELECT n.id FROM lib_nodes n WHERE ` + strings.Join(conds, " AND ") + ` ORDER BY n.created_at DESC, n.id DESC LIMIT ?`
	}
	if part.match != "" {
		args = append([]any{match}, args...)
	}
	ids, err := s.ids(ctx, q, append(args, RankCap+1)...)
	if err != nil {
		return nil, fmt.Errorf("library hits: %w", err)
	}
	found := make([]posting, len(ids))
	for i, id := range ids {
		found[i].id = id
	}
	return found, nil
}

// ids runs q, which returns node ids.
func (s *Searcher) ids(ctx context.Context, q string, args ...any) ([]int64, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
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

// rank orders found (newest first) by where the query matches: in the title first, then in
// the tags, then elsewhere (see RankCap). Each column is one more scan of the same range of
// the index.
func (s *Searcher) rank(ctx context.Context, match string, found []posting) error {
	lo, hi := found[len(found)-1].id, found[0].id
	for _, c := range []struct {
		column string
		weight float64
	}{{"title", 2}, {"tags", 1}} {
		ids, err := s.ids(ctx, `SELECT rowid FROM lib_fts WHERE lib_fts MATCH ? AND rowid BETWEEN ? AND ?`,
			"{"+c.column+"} : ("+match+")", lo, hi)
		if err != nil {
			return fmt.Errorf("rank library hits: %w", err)
		}
		in := make(map[int64]bool, len(ids))
		for _, id := range ids {
			in[id] = true
		}
		for i := range found {
			if in[found[i].id] {
				found[i].score += c.weight
			}
		}
	}
	slices.SortStableFunc(found, func(a, b posting) int { return cmp.Compare(b.score, a.score) })
	return nil
}

// present reads what the hits show: the postings, their snippets (from the notes or the
// report, for the query's words), what the crawler knows of their pages, their paths.
func (s *Searcher) present(ctx context.Context, root query.Node, page []posting) ([]Hit, error) {
	ids := make([]int64, len(page))
	for i, h := range page {
		ids[i] = h.id
	}
	js, _ := json.Marshal(ids)
	rows, err := s.db.QueryContext(ctx, `SELECT n.id, n.kind, n.title, coalesce(n.url, ''), n.path, n.tags, n.notes,
		n.body, n.created_at, coalesce(pg.id, 0), coalesce(pg.status, 0), coalesce(pg.fetched_at, 0)
		FROM lib_nodes n LEFT JOIN pages pg ON pg.url = n.url_key WHERE n.id IN (SELECT value FROM json_each(?))`, string(js))
	if err != nil {
		return nil, fmt.Errorf("library hits: %w", err)
	}
	defer rows.Close()
	h := highlight.New(root, highlight.DefaultForms, nil)
	byID := map[int64]Hit{}
	pathOf := map[int64]string{}
	for rows.Next() {
		var hit Hit
		var path, tags, notes, body string
		if err := rows.Scan(&hit.ID, &hit.Kind, &hit.Title, &hit.URL, &path, &tags, &notes, &body, &hit.CreatedAt,
			&hit.PageID, &hit.Status, &hit.FetchedAt); err != nil {
			return nil, err
		}
		_ = json.Unmarshal([]byte(tags), &hit.Tags)
		if body != "" {
			body = vlib.MarkdownText(body) // a report reads as its view shows it, not as its Markdown
		}
		if notes != "" || body != "" {
			hit.Snippet = h.Snippet([]string{notes, body})
		}
		byID[hit.ID], pathOf[hit.ID] = hit, path
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	hits := []Hit{}
	var paths []string
	for _, id := range ids {
		if hit, ok := byID[id]; ok {
			hits = append(hits, hit)
			paths = append(paths, pathOf[id])
		}
	}
	return hits, s.titlePaths(ctx, hits, paths)
}

// titlePaths gives each hit its path of titles, from their node paths.
func (s *Searcher) titlePaths(ctx context.Context, hits []Hit, paths []string) error {
	var ids []int64
	for _, p := range paths {
		for _, part := range strings.Split(strings.Trim(p, "/"), "/")[1:] {
			id, _ := strconv.ParseInt(part, 10, 64)
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	js, _ := json.Marshal(ids)
	rows, err := s.db.QueryContext(ctx, `SELECT id, title FROM lib_nodes WHERE id IN (SELECT value FROM json_each(?))`, string(js))
	if err != nil {
		return fmt.Errorf("library paths: %w", err)
	}
	defer rows.Close()
	titles := map[int64]string{}
	for rows.Next() {
		var id int64
		var t string
		if err := rows.Scan(&id, &t); err != nil {
			return err
		}
		titles[id] = t
	}
	for i, p := range paths {
		var ts []string
		for _, part := range strings.Split(strings.Trim(p, "/"), "/")[1:] {
			id, _ := strconv.ParseInt(part, 10, 64)
			ts = append(ts, titles[id])
		}
		hits[i].Path = vlib.FormatPath(ts)
	}
	return rows.Err()
}

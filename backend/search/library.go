package search

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"mundaneum/backend/highlight"
	"mundaneum/backend/query"
	"mundaneum/backend/querysql"
	"mundaneum/backend/store"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	vlib "mundaneum/backend/library"
	"mundaneum/backend/urlnorm"
)

// The library in searches. The same query language searches the library's own index
// (lib_fts: titles, URLs, notes, tags and report text; rowid = lib_nodes.id) for "library
// hits", beside the crawled pages of a search or alone in the library's view; and
// folder:PATH and tag:NAME narrow both the library hits and the pages: to the pages the
// library's pointers under PATH (or with the tag) point at.
//
// is: asks the link checks ('mundaneum check') about a pointer's URL: is:broken is a dead
// link (failing on several checks spread over time, never one failure), is:redirect a
// redirected one, is:failed a failing latest check, is:ok and is:blocked the latest check's
// verdict. A query that is one URL also finds the pointers that have it as an alias (a
// redirect accepted into them). A query about pages only (status:, is:resource, ext:,
// type:, links, dates, languages, crawls, regular expressions) has no library hits.

// LibraryRequest is a search of the library.
type LibraryRequest struct {
	Query  string
	In     int64 // only at or below this library (0: the whole library)
	Limit  int
	Offset int
}

// LibraryHit is a posting that matches.
type LibraryHit struct {
	ID      int64
	Kind    string
	Title   string
	URL     string
	Path    string // the posting's path
	Tags    []string
	Snippet []string // alternating plain text and matches, from the notes or the report
	// PageID is the crawled page of the URL, 0 when the workspace has none.
	PageID    int64
	Status    int
	FetchedAt int64
	CreatedAt int64
}

// LibraryResults is one page of library hits.
type LibraryResults struct {
	Total       int
	TotalApprox bool
	Hits        []LibraryHit
	Note        string
	Took        time.Duration
}

// LibraryRankCap bounds the postings a library search reads and ranks: when more match,
// the newest LibraryRankCap are ranked and the total is "more than" (TotalApprox). A
// library is read by people, a page at a time: what they look for is in the first hits
// of a more precise query, and every query stays fast at any library size.
//
// The ranking is by where the words are, then by date: postings whose title matches the
// query first, then those whose tags do, then the rest, newest first in each. (bm25 is
// not used: FTS5 computes its IDF by reading the whole doclist of every word at each
// query, tens of milliseconds for a word in half of a 100,000-posting library, whatever
// the LIMIT.) Titles and tags are short: whether they hold the words says more than how
// often.
const LibraryRankCap = 500

// libColumns maps text fields to lib_fts columns ("" has none: nothing matches).
var libColumns = map[string]string{query.FieldTitle: "title", query.FieldURL: "url", query.FieldBody: "notes body", query.FieldAnchor: "", query.FieldHeading: ""}

// libText is the columns of lib_fts that hold text: words without a field that could
// match a token of path (the ancestors' ids, for folder:: numbers) are looked for there.
// Only those: a column filter makes FTS5 read every match's positions, and for a prefix
// that matches most of the library that doubles the time of the query.
const libText = "{title url notes tags body} : "

// numeric says whether any of words has a digit: only such a word can be a token of path.
func numeric(words ...string) bool {
	for _, w := range words {
		if strings.IndexFunc(w, unicode.IsNumber) >= 0 {
			return true
		}
	}
	return false
}

// libPart is a query compiled for the library: an FTS5 expression (positive text) and SQL
// conditions on lib_nodes n.
type libPart struct {
	match string // "" when no text must match
	where string // "" when no condition
	args  []any  // of where
	// narrow is an FTS5 expression that every node where holds for matches (a superset:
	// where still decides): folder: and tag: as terms of lib_fts, so that FTS5 intersects
	// them with the words instead of SQLite looking up every node the words match.
	narrow string
}

var errPagesOnly = errors.New("a query about pages")

type libCompiler struct{}

func (c *libCompiler) text(t *query.Text) (string, error) {
	e := querysql.Phrase(t.Words, t.Prefix)
	if !t.Phrase {
		parts := make([]string, len(t.Words))
		for i, w := range t.Words {
			parts[i] = querysql.Quote(w)
			if t.Prefix && i == len(t.Words)-1 {
				parts[i] += "*"
			}
		}
		e = strings.Join(parts, " AND ")
		if len(parts) > 1 {
			e = "(" + e + ")"
		}
	}
	return c.column(t.Field, e, numeric(t.Words...))
}

func (c *libCompiler) column(field, e string, numeric bool) (string, error) {
	cols, ok := libColumns[field]
	switch {
	case !ok && numeric:
		return libText + e, nil
	case !ok:
		return e, nil
	case cols == "":
		return "", errPagesOnly // anchor: and heading: are about pages
	}
	return "{" + cols + "} : " + e, nil
}

// compile turns n into a libPart.
func (c *libCompiler) compile(n query.Node) (libPart, error) {
	switch x := n.(type) {
	case *query.Text:
		e, err := c.text(x)
		return libPart{match: e}, err
	case *query.Near:
		var gs []string
		num := false
		for _, g := range x.Groups {
			gs = append(gs, querysql.Phrase(g.Words, g.Prefix))
			num = num || numeric(g.Words...)
		}
		e, err := c.column(x.Field, "NEAR("+strings.Join(gs, " ")+", "+strconv.Itoa(x.Distance)+")", num)
		return libPart{match: e}, err
	case *query.Filter:
		return c.filter(x)
	case *query.Regexp:
		return libPart{}, errPagesOnly
	case *query.Not:
		p, err := c.compile(x.Node)
		if err != nil {
			return p, err
		}
		return c.negate(p), nil
	case *query.And:
		var out libPart
		var pos, neg, where, narrow []string
		for _, ch := range x.Nodes {
			if not, ok := ch.(*query.Not); ok {
				p, err := c.compile(not.Node)
				if err != nil {
					return p, err
				}
				if p.where == "" {
					neg = append(neg, p.match)
					continue
				}
				ch = not
			}
			p, err := c.compile(ch)
			if err != nil {
				return p, err
			}
			if p.match != "" {
				pos = append(pos, p.match)
			}
			if p.where != "" {
				where = append(where, p.where)
				out.args = append(out.args, p.args...)
			}
			if p.narrow != "" {
				narrow = append(narrow, p.narrow)
			}
		}
		out.narrow = strings.Join(narrow, " AND ")
		if len(pos) > 0 {
			out.match = "(" + strings.Join(pos, " AND ") + ")"
			for _, m := range neg {
				out.match += " NOT (" + m + ")"
			}
		} else {
			for _, m := range neg {
				where = append(where, libNotMatch)
				out.args = append(out.args, m)
			}
		}
		out.where = strings.Join(where, " AND ")
		return out, nil
	case *query.Or:
		var ms, conds []string
		var args []any
		pure := true
		parts := make([]libPart, 0, len(x.Nodes))
		for _, ch := range x.Nodes {
			p, err := c.compile(ch)
			if err != nil {
				return p, err
			}
			parts = append(parts, p)
			pure = pure && p.where == "" && p.match != ""
			ms = append(ms, p.match)
		}
		if pure {
			return libPart{match: "(" + strings.Join(ms, " OR ") + ")"}, nil
		}
		for _, p := range parts {
			cond, a := p.condition()
			conds = append(conds, cond)
			args = append(args, a...)
		}
		return libPart{where: "(" + strings.Join(conds, " OR ") + ")", args: args}, nil
	}
	return libPart{}, nil
}

const (
	libMatch    = `n.id IN (SELECT rowid FROM lib_fts WHERE lib_fts MATCH ?)`
	libNotMatch = `n.id NOT IN (SELECT rowid FROM lib_fts WHERE lib_fts MATCH ?)`
)

// condition is p as one SQL condition (its text as a sub-query).
func (p libPart) condition() (string, []any) {
	var conds []string
	var args []any
	if p.match != "" {
		conds, args = append(conds, libMatch), append(args, p.match)
	}
	if p.where != "" {
		conds, args = append(conds, p.where), append(args, p.args...)
	}
	if len(conds) == 0 {
		return "1", nil
	}
	return "(" + strings.Join(conds, " AND ") + ")", args
}

func (c *libCompiler) negate(p libPart) libPart {
	cond, args := p.condition()
	return libPart{where: "NOT " + cond, args: args}
}

func (c *libCompiler) filter(f *query.Filter) (libPart, error) {
	switch f.Field {
	case "libpath":
		if f.Value == "" {
			return libPart{where: "0"}, nil
		}
		ids := strings.Split(strings.Trim(f.Value, "/"), "/")
		return libPart{where: `n.path > ? AND n.path < ?`, args: []any{f.Value, f.Value[:len(f.Value)-1] + "0"},
			narrow: `{path} : ` + querysql.Quote(ids[len(ids)-1])}, nil
	case "tag":
		p := libPart{where: `EXISTS (SELECT 1 FROM lib_tags WHERE tag = ? AND node_id = n.id)`, args: []any{f.Value}}
		if tagWords(f.Value) {
			p.narrow = `{tags} : ` + querysql.Quote(f.Value)
		}
		return p, nil
	case "is":
		cond, ok := libIsSQL[f.Value]
		if !ok {
			return libPart{}, errPagesOnly
		}
		return libPart{where: `n.url_key IN (SELECT url FROM check_urls WHERE ` + cond + `)`}, nil
	case "site", "host":
		// The host of a pointer's canonical URL, as site: matches a page's.
		pats := []any{"*://" + f.Value + "/*", "*://" + f.Value + ":*"}
		if f.Field == "site" {
			pats = append(pats, "*."+f.Value+"/*", "*."+f.Value+":*")
		}
		return libPart{where: `(` + strings.TrimSuffix(strings.Repeat(`n.url_key GLOB ? OR `, len(pats)), " OR ") + `)`, args: pats}, nil
	}
	return libPart{}, errPagesOnly
}

// libIsSQL is is: over the library: conditions on a pointer's row of check_urls.
var libIsSQL = map[string]string{
	"broken":   `dead_at IS NOT NULL`,
	"redirect": `verdict = 'redirected'`,
	"failed":   `verdict IN ('broken', 'server_error', 'timeout', 'invalid')`,
	"ok":       `verdict = 'ok'`,
	"blocked":  `verdict IN ('blocked', 'rate_limited', 'robots_excluded')`,
}

// aliasKey returns the canonical form of a query that is one http(s) URL, which may be a
// pointer's alias.
func aliasKey(text string) (string, bool) {
	q := strings.TrimSpace(text)
	if strings.ContainsAny(q, " \t\n\"") || !(strings.HasPrefix(strings.ToLower(q), "http://") || strings.HasPrefix(strings.ToLower(q), "https://")) {
		return "", false
	}
	k, err := urlnorm.Normalize(q)
	return k, err == nil
}

// libAlias is the condition "has the alias ?".
const libAlias = `n.id IN (SELECT node_id FROM lib_aliases WHERE url_key = ?)`

// tagWords says whether a tag, as a phrase in the tags column of lib_fts, holds for every
// node with the tag: the column indexes the tags' JSON (["how-to","r\u0026d"]), so the tag
// must have words and no character that JSON escapes (&, <, >, quotes, backslashes,
// controls), whose escape would put other words in the index than in the phrase.
func tagWords(tag string) bool {
	words := false
	for _, r := range tag {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			words = true
		case r < 0x80 && strings.ContainsRune(" !#$%'()*+,-./:;=?@[]^_`{|}~", r):
		default:
			return false
		}
	}
	return words
}

// resolveFolders turns every folder: filter under root into a filter on the node paths
// below that library (field "libpath", value "/1/5/"; "" when there is no such library,
// with a note): a path is resolved once per query, before it is compiled.
func resolveFolders(ctx context.Context, db store.Querier, root query.Node, n *query.Notes) error {
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
func folderPath(ctx context.Context, db store.Querier, path string) (string, error) {
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

// libraryFilter compiles the folder: (resolved, see resolveFolders) and tag: filters of a
// page search: the pages that the library's pointers there point at.
func (c *compiler) libraryFilter(f *query.Filter) string {
	switch f.Field {
	case "libpath":
		if f.Value == "" {
			return "0"
		}
		c.bind(f.Value, f.Value[:len(f.Value)-1]+"0")
		return `p.id IN (SELECT pg.id FROM lib_nodes n JOIN pages pg ON pg.url = n.url_key WHERE n.path > ? AND n.path < ?)`
	case "tag":
		c.bind(f.Value)
		return `p.id IN (SELECT pg.id FROM lib_tags t JOIN lib_nodes n ON n.id = t.node_id JOIN pages pg ON pg.url = n.url_key WHERE t.tag = ?)`
	}
	return "0"
}

// Library searches the library.
func (s *Searcher) Library(ctx context.Context, r LibraryRequest) (LibraryResults, error) {
	start := time.Now()
	if r.Limit <= 0 {
		r.Limit = defaultLimit
	}
	r.Limit = min(r.Limit, maxLimit)
	r.Offset = min(max(r.Offset, 0), maxOffset)
	q := Parse(r.Query)
	n := &query.Notes{List: q.Notes}
	res, err := s.library(ctx, q.Root, r, n)
	if err != nil {
		return res, fmt.Errorf("search the library for %q: %w", query.Clip(r.Query, 80), err)
	}
	res.Note = n.String()
	res.Took = time.Since(start)
	return res, nil
}

func (s *Searcher) library(ctx context.Context, root query.Node, r LibraryRequest, n *query.Notes) (LibraryResults, error) {
	res := LibraryResults{Hits: []LibraryHit{}}
	if root == nil {
		return res, nil
	}
	if err := resolveFolders(ctx, s.db, root, n); err != nil {
		return res, err
	}
	lc := &libCompiler{}
	part, err := lc.compile(root)
	key, isURL := aliasKey(r.Query)
	if errors.Is(err, errPagesOnly) && !isURL {
		return res, nil
	}
	if err != nil && !errors.Is(err, errPagesOnly) {
		return res, err
	}
	if isURL {
		// The URL's own words, or the alias: as one condition (the hits by date).
		cond, args := "0", []any(nil)
		if err == nil {
			cond, args = part.condition()
		}
		part = libPart{where: "(" + cond + " OR " + libAlias + ")", args: append(args, key)}
	}
	scope := "/1/"
	if r.In != 0 && r.In != vlib.RootID {
		if err := s.db.QueryRowContext(ctx, `SELECT path FROM lib_nodes WHERE id = ?`, r.In).Scan(&scope); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return res, fmt.Errorf("library #%d: %w", r.In, vlib.ErrNotFound)
			}
			return res, err
		}
	}
	var conds []string
	var args []any
	if scope != "/1/" { // everything but the root is below the root
		conds, args = append(conds, `n.path > ? AND n.path < ?`), append(args, scope, scope[:len(scope)-1]+"0")
		ids := strings.Split(strings.Trim(scope, "/"), "/")
		part.narrow = strings.TrimPrefix(part.narrow+" AND {path} : "+querysql.Quote(ids[len(ids)-1]), " AND ")
	}
	if part.where != "" {
		conds = append(conds, part.where)
		args = append(args, part.args...)
	}
	// The matches, newest first, up to one more than LibraryRankCap.
	match := part.match
	if match != "" && part.narrow != "" {
		match = "(" + match + ") AND " + part.narrow
	}
	var q string
	switch {
	case part.match != "" && len(conds) == 0:
		q = `SELECT rowid, 0 FROM lib_fts WHERE lib_fts MATCH ? ORDER BY rowid DESC LIMIT ?`
	case part.match != "":
		q = `SELECT lib_fts.rowid, 0 FROM lib_fts CROSS JOIN lib_nodes n ON n.id = lib_fts.rowid
			WHERE lib_fts MATCH ? AND ` + strings.Join(conds, " AND ") + ` ORDER BY lib_fts.rowid DESC LIMIT ?`
	default:
		conds = append(conds, "n.id <> 1")
		q = `SELECT n.id, 0 FROM lib_nodes n WHERE ` + strings.Join(conds, " AND ") + ` ORDER BY n.created_at DESC, n.id DESC LIMIT ?`
	}
	if part.match != "" {
		args = append([]any{match}, args...)
	}
	rows, err := s.db.QueryContext(ctx, q, append(args, LibraryRankCap+1)...)
	if err != nil {
		return res, fmt.Errorf("library hits: %w", err)
	}
	found, err := scanHits(rows)
	if err != nil {
		return res, fmt.Errorf("library hits: %w", err)
	}
	res.Total, res.TotalApprox = min(len(found), LibraryRankCap), len(found) > LibraryRankCap
	if res.TotalApprox {
		found = found[:LibraryRankCap]
		if part.match != "" {
			n.Add(fmt.Sprintf("more than %d postings match: ranked the newest %d", LibraryRankCap, LibraryRankCap))
		}
	}
	if part.match != "" && len(found) > 1 {
		if err := s.rankLibrary(ctx, part.match, found); err != nil {
			return res, err
		}
	}
	if r.Offset >= len(found) {
		return res, nil
	}
	found = found[r.Offset:min(len(found), r.Offset+r.Limit)]
	ids := make([]int64, len(found))
	for i, h := range found {
		ids[i] = h.id
	}
	js, _ := json.Marshal(ids)
	rows, err = s.db.QueryContext(ctx, `SELECT n.id, n.kind, n.title, coalesce(n.url, ''), n.path, n.tags, n.notes,
		n.body, n.created_at, coalesce(pg.id, 0), coalesce(pg.status, 0), coalesce(pg.fetched_at, 0)
		FROM lib_nodes n LEFT JOIN pages pg ON pg.url = n.url_key WHERE n.id IN (SELECT value FROM json_each(?))`, string(js))
	if err != nil {
		return res, fmt.Errorf("library hits: %w", err)
	}
	defer rows.Close()
	h := highlight.New(root, s.w.forms(), nil)
	byID := map[int64]LibraryHit{}
	pathOf := map[int64]string{}
	for rows.Next() {
		var hit LibraryHit
		var path, tags, notes, body string
		if err := rows.Scan(&hit.ID, &hit.Kind, &hit.Title, &hit.URL, &path, &tags, &notes, &body, &hit.CreatedAt,
			&hit.PageID, &hit.Status, &hit.FetchedAt); err != nil {
			return res, err
		}
		_ = json.Unmarshal([]byte(tags), &hit.Tags)
		if notes != "" || body != "" {
			hit.Snippet = h.Snippet([]string{notes, body})
		}
		byID[hit.ID], pathOf[hit.ID] = hit, path
	}
	if err := rows.Err(); err != nil {
		return res, err
	}
	var paths []string
	for _, id := range ids {
		if hit, ok := byID[id]; ok {
			res.Hits = append(res.Hits, hit)
			paths = append(paths, pathOf[id])
		}
	}
	return res, s.libPaths(ctx, res.Hits, paths)
}

// rankLibrary orders found (newest first) by where the query matches: in the title first,
// then in the tags, then elsewhere (see LibraryRankCap). Each column is one more scan of
// the same range of the index.
func (s *Searcher) rankLibrary(ctx context.Context, match string, found []hit) error {
	lo, hi := found[len(found)-1].id, found[0].id
	for _, c := range []struct {
		column string
		weight float64
	}{{"title", 2}, {"tags", 1}} {
		rows, err := s.db.QueryContext(ctx, `SELECT rowid FROM lib_fts WHERE lib_fts MATCH ? AND rowid BETWEEN ? AND ?`,
			"{"+c.column+"} : ("+match+")", lo, hi)
		if err != nil {
			return fmt.Errorf("rank library hits: %w", err)
		}
		in := map[int64]bool{}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			in[id] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for i := range found {
			if in[found[i].id] {
				found[i].score += c.weight
			}
		}
	}
	slices.SortStableFunc(found, func(a, b hit) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	return nil
}

// libPaths gives each hit its path of titles, from the node paths of ids.
func (s *Searcher) libPaths(ctx context.Context, hits []LibraryHit, paths []string) error {
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

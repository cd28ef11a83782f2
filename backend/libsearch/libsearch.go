// Package libsearch searches the library (backend/library) with the query language: its
// own index (lib_fts: titles, URLs, notes, tags and report text; rowid = lib_nodes.id)
// gives the "library hits" shown above the crawled pages of a search, or alone in the
// library's view. Its filters are page search's, read over postings (one table,
// backend/querysql): folder:PATH and tag:NAME narrow to the postings under PATH or with
// the tag, site: and host: to the pointers of those hosts, and is: asks the link checks
// ('mundaneum check') about a pointer's URL: is:broken is a dead link (failing on several
// checks spread over time, never one failure), is:redirect a redirected one, is:failed a
// failing latest check, is:ok and is:blocked the latest check's verdict. A query that is
// one URL also finds the pointers that have it as an alias (a redirect accepted into
// them). A query about pages only (status:, is:resource, ext:, type:, links, dates,
// languages, crawls, regular expressions) has no library hits.
package libsearch

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	vlib "mundaneum/backend/library"
	"mundaneum/backend/query"
	"mundaneum/backend/querysql"
	"mundaneum/backend/sqlcache"
)

// Request is a search of the library.
type Request struct {
	Query  string
	In     int64 // only at or below this library (0: the whole library)
	Limit  int
	Offset int
}

// Hit is a posting that matches.
type Hit struct {
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

// Results is one page of library hits.
type Results struct {
	Total       int
	TotalApprox bool
	Hits        []Hit
	Note        string
	Took        time.Duration
}

// RankCap bounds the postings a library search reads and ranks: when more match,
// the newest RankCap are ranked and the total is "more than" (TotalApprox). A
// library is read by people, a page at a time: what they look for is in the first hits
// of a more precise query, and every query stays fast at any library size.
//
// The ranking is by where the words are, then by date: postings whose title matches the
// query first, then those whose tags do, then the rest, newest first in each. (bm25 is
// not used: FTS5 computes its IDF by reading the whole doclist of every word at each
// query, tens of milliseconds for a word in half of a 100,000-posting library, whatever
// the LIMIT.) Titles and tags are short: whether they hold the words says more than how
// often.
const RankCap = 500

// Searcher searches the library of a workspace through its read pool.
type Searcher struct {
	db *sqlcache.DB
}

// New returns a searcher over db, a read pool of the workspace.
func New(db *sql.DB) *Searcher { return &Searcher{db: sqlcache.New(db, statements)} }

// statements is how many statements a searcher keeps prepared (a query's statements are
// built from its shape).
const statements = 32

// Search searches the library and returns hits r.Offset..r.Offset+r.Limit.
func (s *Searcher) Search(ctx context.Context, r Request) (Results, error) {
	start := time.Now()
	r.Limit, r.Offset = querysql.Window(r.Limit, r.Offset)
	q := querysql.Parse(r.Query)
	n := &query.Notes{List: q.Notes}
	res, err := s.run(ctx, q.Root, r, n)
	if err != nil {
		return res, fmt.Errorf("search the library for %q: %w", query.Clip(r.Query, 80), err)
	}
	res.Note = n.String()
	res.Took = time.Since(start)
	return res, nil
}

// run evaluates one parsed query: its matches found newest first, up to one more than
// RankCap, ranked (rank) and the page asked for presented (present).
func (s *Searcher) run(ctx context.Context, root query.Node, r Request, n *query.Notes) (Results, error) {
	res := Results{Hits: []Hit{}}
	if root == nil {
		return res, nil
	}
	part, ok, err := s.compile(ctx, root, r, n)
	if err != nil || !ok {
		return res, err
	}
	found, err := s.find(ctx, part)
	if err != nil {
		return res, err
	}
	res.Total, res.TotalApprox = min(len(found), RankCap), len(found) > RankCap
	if res.TotalApprox {
		found = found[:RankCap]
		if part.match != "" {
			n.Add(fmt.Sprintf("more than %d postings match: ranked the newest %d", RankCap, RankCap))
		}
	}
	if part.match != "" && len(found) > 1 {
		if err := s.rank(ctx, part.match, found); err != nil {
			return res, err
		}
	}
	if r.Offset >= len(found) {
		return res, nil
	}
	res.Hits, err = s.present(ctx, root, found[r.Offset:min(len(found), r.Offset+r.Limit)])
	return res, err
}

// compile compiles a parsed query for the library, within the library r.In: ok is false
// when it asks about pages only (and is not a URL, which may be an alias).
func (s *Searcher) compile(ctx context.Context, root query.Node, r Request, n *query.Notes) (part libPart, ok bool, err error) {
	if err := querysql.ResolveFolders(ctx, s.db, root, n); err != nil {
		return part, false, err
	}
	part, err = (&libCompiler{}).compile(root)
	key, isURL := aliasKey(r.Query)
	if errors.Is(err, errPagesOnly) && !isURL {
		return part, false, nil
	}
	if err != nil && !errors.Is(err, errPagesOnly) {
		return part, false, err
	}
	if isURL {
		// The URL's own words, or the alias: as one condition (the hits by date).
		cond, args := "0", []any(nil)
		if err == nil {
			cond, args = part.condition()
		}
		part = libPart{where: "(" + cond + " OR " + libAlias + ")", args: append(args, key)}
	}
	if r.In == 0 || r.In == vlib.RootID {
		return part, true, nil
	}
	var scope string
	if err := s.db.QueryRowContext(ctx, `SELECT path FROM lib_nodes WHERE id = ?`, r.In).Scan(&scope); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return part, false, fmt.Errorf("library #%d: %w", r.In, vlib.ErrNotFound)
		}
		return part, false, err
	}
	if scope != "/1/" { // everything but the root is below the root
		where := `n.path > ? AND n.path < ?`
		if part.where != "" {
			where += " AND " + part.where
		}
		part.where, part.args = where, append([]any{scope, scope[:len(scope)-1] + "0"}, part.args...)
		part.narrow = strings.TrimPrefix(part.narrow+" AND "+querysql.PathNarrow(scope), " AND ")
	}
	return part, true, nil
}

// Package search is Mundaneum's query engine: it parses a user's query into a syntax tree,
// compiles that into one parameterised SQL statement over the workspace's FTS5 index and
// page table, ranks hits with weighted bm25 and a citation boost, and presents them with
// snippets, facets, collapsed duplicates and typo corrections. It also keeps saved views
// (Harvest's standing queries). Any input is a legal query: what cannot be read as an
// operator is read as words, with a note.
package search

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"mundaneum/backend/sqlcache"
	"mundaneum/backend/store"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Request is one search.
type Request struct {
	Query  string
	Limit  int  // results per page (default 20, at most 1000)
	Offset int  // results to skip
	Facets bool // count matches by host, type, crawl, status and render
	// NewSince (unix ms), when set, has Results.New count the matches whose content
	// appeared or changed after it (saved views use it).
	NewSince int64
	// Explain fills Result.Explain: how each score was made.
	Explain bool
}

// Results is one page of hits for a query.
type Results struct {
	Query       string
	Total       int  // matches (an estimate when TotalApprox)
	TotalApprox bool // too many to count: Total is estimated (text queries) or a lower bound (TotalCap)
	// TotalAtLeast: Total is a lower bound (TotalCap matches were counted and there are more).
	TotalAtLeast bool
	// Window, when not 0, is how far paging reaches: only the best Window matches are ranked
	// (RankCap), and an Offset past them finds nothing.
	Window     int
	New        int  // matches new since Request.NewSince
	RankApprox bool // too many matches to score them all: the first found were ranked
	Took       time.Duration
	Results    []Result
	// Facets maps "host", "type", "crawl", "status" and "render" to counts over the matches: exact up
	// to FacetCap matches, estimated from a sample spread over the index beyond
	// (FacetsApprox).
	Facets       map[string][]FacetCount
	FacetsApprox bool
	Note         string // what the engine did with a query it could not take as written
	DidYouMean   string // a spelling correction of the query
	Corrected    bool   // the results are for DidYouMean: the query as typed found nothing
}

// Result is one hit.
type Result struct {
	PageID  int64
	URL     string
	Title   string
	Host    string // the origin, scheme://host[:port]
	Type    string // html, pdf, image, video, audio, archive, document, data, text, or a media type
	State   string // fetched, failed, redirected, skipped (resources known from links)
	Reason  string // why it failed, was skipped or redirected (the crawl's closed set), "" if fetched
	Status  int    // HTTP status of the last fetch, 0 if never fetched
	Score   int    // 1000 for the best hit of the query
	Snippet []string
	Copies  int // other pages with identical content, collapsed into this one
	// Alternates is the pages that name this one as their canonical URL (a print version,
	// a copy with tracking parameters), collapsed into it.
	Alternates int
	FetchedAt  int64 // unix ms, 0 if never fetched
	ChangedAt  int64 // unix ms: when its content last changed (or it was found)
	// New is set by OpenView: the page is new or changed since the view was last opened.
	New bool
	// Versions counts the contents kept of the page: more than one means it changed.
	Versions int
	// Flag is its current content's flag (store.FlagSoft404, store.FlagParked): a 200 whose
	// content is the site's error page or a domain-parking page, a "change" that is a death.
	Flag string
	// Author, Pages and Summariser come from the page's summary: the author its summariser
	// found (a PDF's, a page's meta author), a document's page count (0: none or unknown),
	// and which summariser read it (pdf, html, feed...; "" before summarisers were recorded).
	Author     string
	Pages      int
	Summariser string
	// Source names where the page's summary came from (another instance or a SOIF file),
	// "" when it was crawled here.
	Source string
	// Explain says how the score was made: the first stage's bm25, the citation factor
	// and the second stage's title and URL signals (see rerank.go).
	Explain string
}

// FacetCount is one value of a facet, with the query term that narrows to it.
type FacetCount struct {
	Value  string
	Count  int
	Refine string // e.g. site:example.com, to add to the query
}

// Caps that keep every query fast whatever the index size.
const (
	TotalCap = 10_000 // matches counted exactly
	FacetCap = 2_000  // matches facets count exactly; beyond, they are estimated from a sample of as many (facets.go)
	// RankCap bounds the matches scored (bm25 reads each one's column sizes, ~4 us a
	// row): beyond it, the first RankCap matches in index order are ranked (RankApprox).
	RankCap      = 500
	maxLimit     = 1000
	maxOffset    = 100_000
	defaultLimit = 20
)

// Searcher runs queries over a workspace's read pool.
type Searcher struct {
	db    *sqlcache.DB // the read pool, its statements prepared once per connection
	w     Weights
	df    *dfCache
	cites *citeCache
	pairs *pairCache
	vocab *vocabulary
}

// New returns a searcher over db (the store's read pool) with DefaultWeights.
func New(db *sql.DB) *Searcher {
	return &Searcher{db: sqlcache.New(db, searchStatements), w: DefaultWeights, df: &dfCache{}, cites: &citeCache{minPages: citeCacheMin}, pairs: &pairCache{df: &dfCache{}}, vocab: &vocabulary{}}
}

// searchStatements is how many statements a searcher keeps prepared: a query's statements
// are built from its shape (how many words, which filters), its values are arguments.
const searchStatements = 128

// WithWeights returns a searcher over the same pool that ranks with w (for tuning).
func (s *Searcher) WithWeights(w Weights) *Searcher {
	return &Searcher{db: s.db, w: w, df: s.df, cites: s.cites, pairs: s.pairs, vocab: s.vocab}
}

func (s *Searcher) estimator() estimator { return estimator{db: s.db, cache: s.df} }

// Search runs r.Query and returns results r.Offset..r.Offset+r.Limit. When the query finds
// nothing and a spelling correction does, the corrected results are returned (Corrected).
func (s *Searcher) Search(ctx context.Context, r Request) (Results, error) {
	start := time.Now()
	if r.Limit <= 0 {
		r.Limit = defaultLimit
	}
	r.Limit = min(r.Limit, maxLimit)
	r.Offset = min(max(r.Offset, 0), maxOffset)
	q := Parse(r.Query)
	n := &notes{List: q.Notes}
	q.Root = s.meant(q.Root, n)
	res, err := s.run(ctx, q.Root, r, n)
	if err != nil {
		return res, fmt.Errorf("search %q: %w", clip(r.Query, 80), err)
	}
	if res.Total == 0 && q.Root != nil {
		fix, err := s.correct(ctx, r.Query, q.Root)
		if err != nil {
			return res, fmt.Errorf("search %q: %w", clip(r.Query, 80), err)
		}
		if fix != "" {
			res.DidYouMean = fix
			q2 := Parse(fix)
			n2 := &notes{List: q2.Notes}
			q2.Root = s.meant(q2.Root, n2)
			alt, err := s.run(ctx, q2.Root, r, n2)
			if err != nil {
				return res, fmt.Errorf("search %q: %w", clip(fix, 80), err)
			}
			if alt.Total > 0 {
				alt.DidYouMean, alt.Corrected = fix, true
				n = n2
				n.Add("nothing matched the query as typed: showing results for " + fix)
				res = alt
			}
		}
	}
	if q.Root == nil && strings.TrimSpace(r.Query) != "" {
		n.Add("the query has no words to look for")
	}
	res.Query = r.Query
	res.Note = n.String()
	res.Took = time.Since(start)
	return res, nil
}

// plan compiles a parsed query: its library folders resolved, its regular expressions
// evaluated.
func (s *Searcher) plan(ctx context.Context, root Node, n *notes) (*plan, error) {
	if err := resolveFolders(ctx, s.db, root, n); err != nil {
		return nil, err
	}
	pl, err := s.compile(ctx, root, n)
	if err != nil {
		return nil, err
	}
	if err := s.evalRegexps(ctx, pl, n); err != nil {
		return nil, err
	}
	return pl, nil
}

// run evaluates one parsed query.
func (s *Searcher) run(ctx context.Context, root Node, r Request, n *notes) (Results, error) {
	res := Results{Results: []Result{}}
	if root == nil {
		return res, nil
	}
	pl, err := s.plan(ctx, root, n)
	if err != nil {
		return res, err
	}
	st := pl.statement(s.w)
	want := r.Offset + r.Limit
	var hits []hit
	read := 1.0 // the share of the index read for matches
	if st.ranked && st.rankExpr == "" {
		if hits, res.Total, res.TotalApprox, read, err = s.rankText(ctx, root, pl, st, want); err != nil {
			return res, err
		}
		res.RankApprox = res.TotalApprox
	} else {
		if res.Total, res.TotalApprox, err = st.count(ctx, s.db); err != nil || res.Total == 0 {
			return res, err
		}
		res.TotalAtLeast = res.TotalApprox
		res.RankApprox = st.ranked && res.Total > RankCap
		if hits, err = st.top(ctx, s.db, max(want, s.w.BoostDepth)); err != nil {
			return res, err
		}
	}
	if res.Total == 0 {
		return res, nil
	}
	if res.TotalApprox && !res.TotalAtLeast {
		// An estimate never exceeds what can be true: the rows of the index.
		rows, err := s.estimator().indexRows(ctx)
		if err != nil {
			return res, err
		}
		if rows > 0 {
			res.Total = max(len(hits), min(res.Total, int(rows)))
		}
	}
	switch {
	case read < 1:
		n.Add(fmt.Sprintf("common words, few matches: ranked the %d found in the first %d%% of the index", len(hits), int(math.Ceil(100*read))))
	case res.RankApprox:
		n.Add(fmt.Sprintf("more than %d matches: ranked the first %d found", RankCap, RankCap))
	}
	if r.NewSince > 0 {
		if res.New, err = st.countNew(ctx, s.db, r.NewSince); err != nil {
			return res, err
		}
	}
	if !st.ranked {
		// Only filters: the pages found are ordered by how many others cite them.
		for i := range hits {
			hits[i].score = 1
		}
	}
	var ranked Node
	if st.ranked {
		ranked = root
	}
	best, texts, err := s.boost(ctx, ranked, pl.expand, hits)
	if err != nil {
		return res, err
	}
	hits, dropped, err := s.collapseCanonical(ctx, hits)
	if err != nil {
		return res, err
	}
	res.Total = max(res.Total-dropped, len(hits))
	if res.RankApprox && st.ranked && st.rankExpr == "" {
		res.Window = len(hits)
	}
	if r.Offset < len(hits) {
		page := hits[r.Offset:min(want, len(hits))]
		if res.Results, err = s.present(ctx, root, pl.expand, page, best, texts); err != nil {
			return res, err
		}
		if !r.Explain {
			for i := range res.Results {
				res.Results[i].Explain = ""
			}
		}
	}
	if r.Facets {
		fs, err := st.facets(ctx, s.db.DB)
		if err != nil {
			return res, err
		}
		res.Facets, res.FacetsApprox = fs.lists, fs.approx
	}
	return res, nil
}

// compile compiles a query for this index: a first pass finds the words its text would
// look up, one probe counts them (see estimator.dfs; ranking needs the counts too), and the
// stem forms the index lacks are left out of the plan.
func (s *Searcher) compile(ctx context.Context, root Node, n *notes) (*plan, error) {
	expand, err := s.expandPrefixes(ctx, root)
	if err == nil {
		expand, err = s.expandApprox(ctx, root, expand)
	}
	if err != nil {
		return nil, err
	}
	pl := compileWithout(root, s.w, &notes{}, nil, expand)
	if pl.match == "" {
		return compile(root, s.w, n), nil
	}
	var atoms []string
	for _, c := range pl.conj {
		atoms = append(atoms, c.atoms...)
	}
	df, err := s.estimator().dfs(ctx, atoms)
	if err != nil {
		return nil, err
	}
	absent := map[string]bool{}
	for a, n := range df {
		if n == 0 {
			absent[a] = true
		}
	}
	pl = compileWithout(root, s.w, n, absent, expand)
	words, err := s.pairWords(ctx)
	if err != nil {
		return nil, err
	}
	usePairs(root, pl, words)
	return pl, nil
}

// statement is a plan made into SQL: FROM and WHERE with their arguments.
type statement struct {
	// table is the index the MATCH asks (page_fts, or page_pairs for a plan's pairs), and
	// match its expression.
	table, match string
	from, where  string
	args         []any // arguments of from and where, in order
	rankCol      string
	ranked       bool   // hits have a bm25 score
	rankExpr     string // FTS5 expression scoring the hits apart from the statement
	rankSQL      string
	// textOnly: the statement is a MATCH and nothing else, so counting and scoring can
	// skip the join with pages.
	textOnly bool
	// filterWhere and filterArgs are the conditions on pages p of a MATCH with filters.
	filterWhere string
	filterArgs  []any
	// countFrom and countArgs count without the ranking join.
	countFrom string
	countArgs []any
}

func (pl *plan) statement(w Weights) *statement {
	st := &statement{}
	var whereArgs []any
	for _, a := range pl.args {
		if r, ok := a.(*regexLeaf); ok {
			a = r.ids
		}
		whereArgs = append(whereArgs, a)
	}
	conds := pl.where
	switch {
	case pl.match != "":
		st.table, st.match = "page_fts", pl.match
		if pl.pairs != "" {
			st.table, st.match = "page_pairs", pl.pairs
		}
		st.from = st.table + ` CROSS JOIN pages p ON p.id = ` + st.table + `.rowid` // the index drives
		conds = append([]string{st.table + ` MATCH ?`}, conds...)
		whereArgs = append([]any{st.match}, whereArgs...)
		st.rankCol, st.ranked = w.bm25Of(st.table), true
		st.countFrom, st.countArgs = st.from, slices.Clone(whereArgs)
		st.args = whereArgs
	case pl.rank != "":
		// Text nested in OR with filters: the matches come from the pages table, their
		// scores from a separate, bounded bm25 query (see top).
		st.from, st.args, st.rankCol = `pages p`, whereArgs, `0`
		st.ranked, st.rankExpr, st.rankSQL = true, pl.rank, w.bm25SQL()
		st.countFrom, st.countArgs = st.from, slices.Clone(whereArgs)
	default:
		st.from, st.args, st.rankCol = `pages p`, whereArgs, `0`
		st.countFrom, st.countArgs = st.from, slices.Clone(whereArgs)
	}
	st.textOnly = pl.match != "" && len(pl.where) == 0 && pl.topIDs == ""
	if pl.match != "" && !st.textOnly {
		st.filterWhere, st.filterArgs = strings.Join(append(slices.Clone(pl.where), "1"), " AND "), whereArgs[1:]
	}
	if pl.topIDs != "" {
		conds = append(conds, `p.id IN (SELECT value FROM json_each(?))`)
		st.args = append(st.args, pl.topIDs)
		st.countArgs = append(st.countArgs, pl.topIDs)
		if st.filterWhere != "" {
			st.filterWhere += ` AND p.id IN (SELECT value FROM json_each(?))`
			st.filterArgs = append(slices.Clone(st.filterArgs), pl.topIDs)
		}
	}
	st.where = "1"
	if len(conds) > 0 {
		st.where = strings.Join(conds, " AND ")
	}
	return st
}

func (st *statement) count(ctx context.Context, db store.Querier) (int, bool, error) {
	var n int
	from := st.countFrom
	if st.textOnly {
		from = st.table
	}
	err := db.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM `+from+` WHERE `+st.where+` LIMIT `+strconv.Itoa(TotalCap+1)+`)`,
		st.countArgs...).Scan(&n)
	if err != nil {
		return 0, false, fmt.Errorf("count: %w", err)
	}
	if n > TotalCap {
		return TotalCap, true, nil
	}
	return n, false, nil
}

// countNew counts the matches whose content appeared or changed after since (unix ms).
func (st *statement) countNew(ctx context.Context, db store.Querier, since int64) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM `+st.countFrom+` WHERE `+st.where+
		` AND coalesce(p.changed_at, p.discovered_at) > ? LIMIT `+strconv.Itoa(TotalCap)+`)`, append(slices.Clone(st.countArgs), since)...).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count new: %w", err)
	}
	return n, nil
}

// firstRows queries the first k matches in index order: their ids and bm25 scores when
// scored (else 0).
func (st *statement) firstRows(ctx context.Context, db store.Querier, k int, scored bool) (*sql.Rows, error) {
	id, from, score := "p.id", st.from, "0"
	if st.textOnly {
		id, from = st.table+".rowid", st.table
	}
	if scored {
		score = st.rankCol
	}
	rows, err := db.QueryContext(ctx, `SELECT `+id+`, `+score+` FROM `+from+` WHERE `+st.where+` LIMIT `+strconv.Itoa(k),
		st.args...)
	if err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	return rows, nil
}

// sortHits orders hits by score, best first, then by page.
func sortHits(hits []hit) {
	slices.SortFunc(hits, func(a, b hit) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		case a.id < b.id:
			return -1
		case a.id > b.id:
			return 1
		}
		return 0
	})
}

// top returns the best k hits in rank order (or page order when nothing ranks them).
func (st *statement) top(ctx context.Context, db store.Querier, k int) ([]hit, error) {
	if st.rankExpr != "" {
		return st.topApart(ctx, db, k)
	}
	// Nothing ranks the matches: take the first k in the order of the index that finds
	// them (sorting a filter's every match by id would cost a temporary B-tree).
	q := `SELECT p.id, ` + st.rankCol + ` FROM ` + st.from + ` WHERE ` + st.where + ` LIMIT ` + strconv.Itoa(k)
	rows, err := db.QueryContext(ctx, q, st.args...)
	if err != nil {
		return nil, fmt.Errorf("rank: %w", err)
	}
	return scanHits(rows)
}

// topApart ranks the matches of a statement whose text is nested in OR with filters: it
// scores up to RankCap text matches with bm25 and orders up to TotalCap matches of the
// statement by those scores (0 for pages matched by a filter only).
func (st *statement) topApart(ctx context.Context, db store.Querier, k int) ([]hit, error) {
	rows, err := db.QueryContext(ctx, `SELECT rowid, `+st.rankSQL+` FROM page_fts WHERE page_fts MATCH ? LIMIT `+strconv.Itoa(RankCap), st.rankExpr)
	if err != nil {
		return nil, fmt.Errorf("rank: %w", err)
	}
	scores, err := scoreMap(rows)
	if err != nil {
		return nil, err
	}
	rows, err = db.QueryContext(ctx, `SELECT p.id FROM `+st.from+` WHERE `+st.where+` LIMIT `+strconv.Itoa(TotalCap), st.args...)
	if err != nil {
		return nil, fmt.Errorf("rank: %w", err)
	}
	defer rows.Close()
	var hits []hit
	for rows.Next() {
		var h hit
		if err := rows.Scan(&h.id); err != nil {
			return nil, err
		}
		h.score = scores[h.id]
		hits = append(hits, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("rank: %w", err)
	}
	sortHits(hits)
	return hits[:min(k, len(hits))], nil
}

// scoreMap reads (id, bm25) rows into scores by page, higher is better.
func scoreMap(rows *sql.Rows) (map[int64]float64, error) {
	scored, err := scanHits(rows)
	if err != nil {
		return nil, fmt.Errorf("rank: %w", err)
	}
	scores := make(map[int64]float64, len(scored))
	for _, h := range scored {
		scores[h.id] = h.score
	}
	return scores, nil
}

// scanHits reads (id, bm25) rows into hits scored higher-is-better.
func scanHits(rows *sql.Rows) ([]hit, error) {
	defer rows.Close()
	var hits []hit
	for rows.Next() {
		var h hit
		var r float64
		if err := rows.Scan(&h.id, &r); err != nil {
			return nil, err
		}
		h.score = -r // bm25 is negative, lower is better
		hits = append(hits, h)
	}
	return hits, rows.Err()
}

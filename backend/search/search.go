// Package search runs queries of the query language (backend/query) over the crawled pages
// of a workspace: it compiles a parsed query into parameterised SQL over the FTS5 index and
// the page table (compile.go, with querysql's filters), chooses once how to run it (plan.go:
// the strategies), finds its first matches (find.go), ranks them with weighted bm25, a
// citation boost and two stages that read titles and text (rank.go, rerank.go,
// proximity.go), and presents them with snippets, facets, collapsed duplicates and typo
// corrections. It also keeps saved views (Harvest's standing queries). The library has a
// search of its own (backend/libsearch); the index's vocabulary is backend/vocab's.
package search

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"mundaneum/backend/query"
	"mundaneum/backend/querysql"
	"mundaneum/backend/sqlcache"
	"mundaneum/backend/vocab"
	"strings"
	"time"
)

// Request is one search.
type Request struct {
	Query  string
	Limit  int  // results per page (default 20, at most 1000)
	Offset int  // results to skip
	Facets bool // count matches by host, type, crawl and status
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
	// Facets maps "host", "type", "crawl" and "status" to counts over the matches: exact up
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
	vocab *vocab.Vocabulary
}

// New returns a searcher over db (the store's read pool) with DefaultWeights.
func New(db *sql.DB) *Searcher {
	pool := sqlcache.New(db, searchStatements)
	return &Searcher{db: pool, w: DefaultWeights, df: &dfCache{}, cites: &citeCache{minPages: citeCacheMin}, pairs: &pairCache{df: &dfCache{}}, vocab: vocab.New(pool)}
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
	q := querysql.Parse(r.Query)
	n := &query.Notes{List: q.Notes}
	q.Root = s.meant(q.Root, n)
	res, err := s.run(ctx, q.Root, r, n)
	if err != nil {
		return res, fmt.Errorf("search %q: %w", query.Clip(r.Query, 80), err)
	}
	if res.Total == 0 && q.Root != nil {
		fix, err := s.vocab.Correct(ctx, r.Query, q.Root)
		if err != nil {
			return res, fmt.Errorf("search %q: %w", query.Clip(r.Query, 80), err)
		}
		if fix != "" {
			res.DidYouMean = fix
			q2 := querysql.Parse(fix)
			n2 := &query.Notes{List: q2.Notes}
			q2.Root = s.meant(q2.Root, n2)
			alt, err := s.run(ctx, q2.Root, r, n2)
			if err != nil {
				return res, fmt.Errorf("search %q: %w", query.Clip(fix, 80), err)
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

// run evaluates one parsed query.
func (s *Searcher) run(ctx context.Context, root query.Node, r Request, n *query.Notes) (Results, error) {
	res := Results{Results: []Result{}}
	if root == nil {
		return res, nil
	}
	pl, err := s.plan(ctx, root, n)
	if err != nil {
		return res, err
	}
	want := r.Offset + r.Limit
	f, err := s.find(ctx, root, pl, want)
	if err != nil || f.total == 0 {
		return res, err
	}
	hits := f.hits
	res.Total, res.TotalApprox, res.TotalAtLeast, res.RankApprox = f.total, f.approx || f.atLeast, f.atLeast, f.partial
	if f.approx {
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
	case f.read < 1:
		n.Add(fmt.Sprintf("common words, few matches: ranked the %d found in the first %d%% of the index", len(hits), int(math.Ceil(100*f.read))))
	case res.RankApprox:
		n.Add(fmt.Sprintf("more than %d matches: ranked the first %d found", RankCap, RankCap))
	}
	if r.NewSince > 0 {
		if res.New, err = pl.st.countNew(ctx, s.db, r.NewSince); err != nil {
			return res, err
		}
	}
	var ranked query.Node // what the later stages rank the hits by: nothing for filters only
	if pl.kind != filtersOnly {
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
	if res.RankApprox && pl.kind.text() {
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
		fs, err := pl.facets(ctx, s.db.DB)
		if err != nil {
			return res, err
		}
		res.Facets, res.FacetsApprox = fs.lists, fs.approx
	}
	return res, nil
}

// PrepareVocabulary asks the searcher to keep the index's terms in memory, for approximate
// words (see vocab.Vocabulary.Prepare); it returns at once. A searcher that answers many
// queries (the window's, serve's) calls it once.
func (s *Searcher) PrepareVocabulary(ctx context.Context) { s.vocab.Prepare(ctx) }

// WaitVocabulary waits until the terms are in memory (or reading them failed) and returns
// how long the first reading took.
func (s *Searcher) WaitVocabulary(ctx context.Context) (time.Duration, error) {
	return s.vocab.Wait(ctx)
}

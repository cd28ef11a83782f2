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
	"fmt"
	"math"
	"mundaneum/backend/query"
	"mundaneum/backend/querysql"
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

// Search runs r.Query and returns results r.Offset..r.Offset+r.Limit. When the query finds
// nothing and a spelling correction does, the corrected results are returned (Corrected).
func (s *Searcher) Search(ctx context.Context, r Request) (Results, error) {
	start := time.Now()
	r.Limit, r.Offset = querysql.Window(r.Limit, r.Offset)
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

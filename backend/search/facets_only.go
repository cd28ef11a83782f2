package search

import (
	"context"
	"fmt"
	"mundaneum/backend/query"
	"mundaneum/backend/querysql"
	"time"
)

// FacetResults is the facet counts of one query's matches, asked apart from its results:
// the window shows a query's first page as soon as it is ranked and fills in the facets
// with this second, cheaper call (no ranking, no snippets, no library), so a query's
// results never wait for its counts.
type FacetResults struct {
	Query string
	// Facets maps "host", "type", "crawl", "status" and "render" to counts over the matches, as
	// Results.Facets: exact up to FacetCap matches, estimated from a sample beyond (Approx).
	Facets map[string][]FacetCount
	Approx bool
	// DidYouMean and Corrected: the query as typed matched nothing and the counts are for
	// this spelling correction, the one Search shows results for.
	DidYouMean string
	Corrected  bool
	Took       time.Duration
}

// Facets counts the matches of query by host, type, crawl, status and render, as Search with
// Request.Facets would, without ranking or presenting them.
func (s *Searcher) Facets(ctx context.Context, text string) (FacetResults, error) {
	start := time.Now()
	out := FacetResults{Query: text, Facets: map[string][]FacetCount{}}
	q := querysql.Parse(text)
	root := s.meant(q.Root, &query.Notes{})
	fs, err := s.facetsOf(ctx, root)
	if err != nil {
		return out, fmt.Errorf("facets %q: %w", query.Clip(text, 80), err)
	}
	if !fs.matched && root != nil {
		fix, err := s.vocab.Correct(ctx, text, root)
		if err != nil {
			return out, fmt.Errorf("facets %q: %w", query.Clip(text, 80), err)
		}
		if fix != "" {
			alt, err := s.facetsOf(ctx, s.meant(querysql.Parse(fix).Root, &query.Notes{}))
			if err != nil {
				return out, fmt.Errorf("facets %q: %w", query.Clip(fix, 80), err)
			}
			out.DidYouMean = fix
			if alt.matched {
				fs, out.Corrected = alt, true
			}
		}
	}
	if fs.matched {
		out.Facets, out.Approx = fs.lists, fs.approx
	}
	out.Took = time.Since(start)
	return out, nil
}

// facetsOf compiles a parsed query as run does and counts its facets.
func (s *Searcher) facetsOf(ctx context.Context, root query.Node) (facetSet, error) {
	if root == nil {
		return facetSet{}, nil
	}
	pl, err := s.plan(ctx, root, &query.Notes{})
	if err != nil {
		return facetSet{}, err
	}
	return pl.facets(ctx, s.db.DB)
}

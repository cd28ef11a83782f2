package main

import (
	"context"
	"database/sql"
	"time"

	"mundaneum/backend/search"
)

// This file is the only one that knows the search package's API: switch it here when the
// API changes.

// engine runs queries the way the app does: through the search package, on the store's read
// pool, in this process.
type engine struct {
	s      *search.Searcher
	facets bool // ask for the facets with the results, in the same call (-facets-together)
}

func newEngine(db *sql.DB, facets bool) *engine {
	w := search.DefaultWeights
	w.Pairs = !noPairs
	return &engine{s: search.New(db).WithWeights(w), facets: facets}
}

// noPairs asks every phrase of the word index, as before the pair index (-no-pairs, for A/B).
var noPairs bool

// outcome is what the harness checks of one query's answer.
type outcome struct {
	total     int  // the engine's result count
	approx    bool // the count is a lower bound
	results   int  // results returned (at most the page size)
	snippets  int  // results that came with a snippet
	corrected bool // the results are for a spelling correction
	timedOut  bool // stopped at the harness's per-query timeout
}

// run asks for the first page of limit results, snippets included.
func (e *engine) run(ctx context.Context, q string, limit int) (outcome, error) {
	res, err := e.s.Search(ctx, search.Request{Query: q, Limit: limit, Facets: e.facets})
	if err != nil {
		return outcome{}, err
	}
	o := outcome{total: res.Total, approx: res.TotalApprox, results: len(res.Results), corrected: res.Corrected}
	for _, r := range res.Results {
		if len(r.Snippet) > 1 || len(r.Snippet) == 1 && r.Snippet[0] != "" {
			o.snippets++
		}
	}
	return o, nil
}

// start readies the searcher as the window and serve do when a workspace opens (the
// index's terms in memory, the files read into the OS's cache, in the background until ctx
// ends), and returns at once.
func (e *engine) start(ctx context.Context) { e.s.Prepare(ctx) }

// prepare waits until the searcher has the index's terms in memory, and returns how long
// they took.
func (e *engine) prepare(ctx context.Context) (time.Duration, error) {
	return e.s.WaitVocabulary(ctx)
}

// runFacets asks for the facet counts alone, as the window does once a query's results are
// shown (the second request).
func (e *engine) runFacets(ctx context.Context, q string) (approx bool, err error) {
	res, err := e.s.Facets(ctx, q)
	return res.Approx, err
}

// apiName says which search API this harness was built against, for the report.
const apiName = "Search(ctx, Request), Facets(ctx, query)"

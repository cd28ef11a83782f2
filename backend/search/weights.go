package search

import (
	"mundaneum/backend/highlight"
	"strconv"
)

// Weights are the ranking's tunable numbers, kept in one place.
type Weights struct {
	// bm25 column weights over page_fts(title, headings, body, anchors, url): title and the
	// anchor text of links pointing at a page weigh most (WWWW's and WebCrawler's lesson).
	Title, Headings, Body, Anchors, URL float64
	// Links boosts pages that many other pages cite: score *= 1 + Links*ln(1+citing pages).
	Links float64
	// BoostDepth is how many of the best bm25 hits get the link boost (it stays cheap).
	BoostDepth int
	// Stem makes a plain word match up to MaxVariants other words of its stem too (its
	// inflections, see highlight.Forms); the word as typed is counted ExactRepeat more times in
	// bm25, so exact matches rank first.
	Stem        bool
	MaxVariants int
	ExactRepeat int
	// RankBudget is how many index rows bm25 may count per query (see rankable).
	RankBudget int
	// SpreadRows is how many rows a query of common words may test before the matches of
	// the page asked for, found in the part of the index read, are enough (see collect).
	SpreadRows int
	// Pairs answers phrases of frequent words from the pair index once it is built (see
	// pairs.go); off, they are asked of the word index as any phrase.
	Pairs bool
	// Intent reads a query as meant (see intent.go): filler words of how-to phrasing are
	// not required, and "-x" (one character) is an option word, not an exclusion.
	Intent bool
	// Rerank scores the first BoostDepth hits again by their titles and URLs (rerank.go):
	// TitleCover per share of the query's words in the title or the URL's last segment,
	// TitleWithin (times the coverage) when every title word is a query word; KindScale multiplies changelogs, release notes and indexes the query
	// did not ask for.
	Rerank                  bool
	TitleCover, TitleWithin float64
	KindScale               float64
	// Proximity and HeadingAll weigh the third stage (proximity.go) over the first
	// ProxDepth hits: the query's words standing together in the body, and a heading
	// holding them all.
	Proximity, HeadingAll float64
	ProxDepth             int
}

// DefaultWeights are the weights a new Searcher uses.
var DefaultWeights = Weights{
	Title: 10, Headings: 4, Body: 1, Anchors: 8, URL: 3,
	Links:      0.1,
	BoostDepth: 200,
	Stem:       true, MaxVariants: highlight.DefaultForms, ExactRepeat: 1,
	RankBudget: 50_000,
	SpreadRows: 200_000,
	Pairs:      true,
	Intent:     true,
	Rerank:     true, TitleCover: 1, TitleWithin: 2, KindScale: 0.5,
	Proximity: 2, HeadingAll: 0.5, ProxDepth: 20,
}

// forms is how many stem forms of a plain word the query matches (0: none).
func (w Weights) forms() int {
	if !w.Stem {
		return 0
	}
	return w.MaxVariants
}

// bm25Of is the rank expression for the weights over an index with page_fts's columns
// (numbers formatted here, never user text).
func (w Weights) bm25Of(table string) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return "bm25(" + table + ", " + f(w.Title) + ", " + f(w.Headings) + ", " + f(w.Body) + ", " + f(w.Anchors) + ", " + f(w.URL) + ")"
}

package search

import (
	"context"
	"database/sql"
	"fmt"
	"mundaneum/backend/vocab"
	"slices"
	"strconv"
	"strings"

	"mundaneum/backend/query"
)

// plan is a compiled query and the strategy chosen to run it: the parts of one
// parameterised SQL statement over pages p (driven by a MATCH of page_fts, or of
// page_pairs, when the query has text to look up). No user text is ever pasted into the
// SQL: values are bound, and FTS5 expressions are built with every term quoted.
type plan struct {
	match string // FTS5 expression for the statement's MATCH; "" when none
	// pairs, when set, is the expression over page_pairs that finds exactly what match does
	// (a phrase of frequent words, see pairs.go): the statement asks it instead. pairAtoms
	// are its pair tokens, quoted.
	pairs     string
	pairAtoms []string
	conj      []conjunct   // the positive conjuncts of match (see rankable)
	negated   bool         // match leaves out some text (a NOT b)
	rank      string       // FTS5 expression ranking and highlighting hits when match is ""
	where     []string     // conditions on p, ANDed
	args      []any        // arguments of where, in order; *regexLeaf values are bound late
	regexps   []*regexLeaf // regexps nested in OR or NOT groups: evaluated over every page
	// top are the regexps that are conjuncts of the whole query: evaluated over the matches
	// of the rest of it, their combined result bound as topIDs.
	top    []topRegex
	topIDs string
	// expand holds the terms the query's long prefixes and approximate words were asked as
	// (see vocab.Expand): the snippets highlight those terms.
	expand vocab.Expansions

	// What choose decided, and what it learnt deciding it.
	kind strategy
	st   *statement
	// costs are what bm25 would count to score the text's conjuncts over page_fts (text
	// strategies of a plan without pairs).
	costs costs
	// least is the rows of the text's rarest conjunct (of its rarest pair over page_pairs):
	// a bound on the matches, and how many rows a MATCH tests.
	least int
	// onePass: bm25 can afford to score every match as it is found (see rankable and
	// pairCache.rarest); otherwise they are found unscored and scored afterwards (scoreFound).
	onePass bool
	// filtered is the filters' pages as choose counted them (text strategies with filters).
	filtered pageSpan
}

// strategy is how a plan finds its matches. choose picks one for every plan, once, from the
// query's shape and what the index says of its words; find runs it. The pair index is not a
// strategy of its own: a phrase of frequent words asks page_pairs instead of page_fts (see
// usePairs), and any of the three text strategies runs over it; what changes with it is how
// the matches are scored (scoreFound).
type strategy int

const (
	// filtersOnly: no text to look up (filters, regular expressions, or only text left
	// out). The matches are the pages the filters' indexes find, counted up to TotalCap;
	// the first found are ordered by citations.
	filtersOnly strategy = iota
	// rankApart: text nested in OR with filters ("brussels OR site:b.test"). FTS5 cannot
	// drive the statement, so the matches are found as filtersOnly finds them, and scored
	// by a separate, bounded bm25 query over the text alone (0 for pages matched by a
	// filter only).
	rankApart
	// textOnly: text and nothing else. The MATCH's rows are the matches, read in rowid
	// order without a join with pages.
	textOnly
	// textJoin: text with filters that pick many pages. Each text match is joined to its
	// page to test the filters (~1.5 us a row).
	textJoin
	// filtersFirst: text with filters that pick few pages (site: of a small site, type:ps,
	// url:/re/). The filters' pages are read once into an in-memory index, and each text
	// match's rowid is checked against it (~0.2 us a row): a common word has hundreds of
	// thousands of matches to join, a small site a few hundred pages.
	filtersFirst
)

func (k strategy) String() string {
	return [...]string{"filters only", "rank apart", "text only", "text joined", "filters first"}[k]
}

// text reports whether a MATCH drives the strategy: its hits come in rowid order, the
// first RankCap of them ranked.
func (k strategy) text() bool { return k == textOnly || k == textJoin || k == filtersFirst }

// pageSpan is what counting a plan's filter pages found: how many (counted up to limit),
// and their id range.
type pageSpan struct {
	n, limit int
	lo, hi   int64
}

// filterSetCap is the most pages a query's filters may pick for filtersFirst.
const filterSetCap = 20_000

// statement is a plan made into SQL: FROM and WHERE with their arguments.
type statement struct {
	// table is the index the MATCH asks (page_fts, or page_pairs for a plan's pairs), and
	// match its expression; both "" when no MATCH drives the statement.
	table, match string
	from, where  string
	args         []any  // arguments of from and where, in order
	rankCol      string // the hits' bm25 score in the statement ("0" without a MATCH)
	// filterWhere and filterArgs are the conditions on pages p of a MATCH with filters.
	filterWhere string
	filterArgs  []any
}

// statement makes the plan's SQL, with its regular expressions' results as they are bound
// now (the top ones' before evalRegexps has run).
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
	st.from, st.rankCol = `pages p`, `0`
	if pl.match != "" {
		st.table, st.match = "page_fts", pl.match
		if pl.pairs != "" {
			st.table, st.match = "page_pairs", pl.pairs
		}
		st.from = st.table + ` CROSS JOIN pages p ON p.id = ` + st.table + `.rowid` // the index drives
		conds = append([]string{st.table + ` MATCH ?`}, conds...)
		whereArgs = append([]any{st.match}, whereArgs...)
		st.rankCol = w.bm25Of(st.table)
	}
	st.args = whereArgs
	if pl.match != "" && (len(pl.where) > 0 || pl.topIDs != "") {
		st.filterWhere, st.filterArgs = strings.Join(append(slices.Clone(pl.where), "1"), " AND "), whereArgs[1:]
	}
	if pl.topIDs != "" {
		conds = append(conds, `p.id IN (SELECT value FROM json_each(?))`)
		st.args = append(st.args, pl.topIDs)
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

// filterPages counts the pages st's filters pick, as far as limit, with their id range.
func (st *statement) filterPages(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, limit int) (pageSpan, error) {
	span := pageSpan{limit: limit}
	var lo, hi sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT count(*), min(id), max(id) FROM (SELECT p.id FROM pages p WHERE `+st.filterWhere+` LIMIT `+strconv.Itoa(limit)+`)`,
		st.filterArgs...).Scan(&span.n, &lo, &hi); err != nil {
		return span, fmt.Errorf("filter: %w", err)
	}
	span.lo, span.hi = lo.Int64, hi.Int64
	return span, nil
}

// inFilter is the condition that a text match of st's index is among its filters' pages
// (filterArgs): the filters' pages become one in-memory index each match is checked against
// ("+" keeps FTS5 from looking each of them up instead).
func (st *statement) inFilter() string {
	return `+` + st.table + `.rowid IN (SELECT p.id FROM pages p WHERE ` + st.filterWhere + `)`
}

type topRegex struct {
	re     *query.Regexp
	negate bool
}

// topRegexp returns the Regexp of x when x is one, or its negation.
func topRegexp(x query.Node) (*query.Regexp, bool) {
	switch x := x.(type) {
	case *query.Regexp:
		return x, false
	case *query.Not:
		if r, ok := x.Node.(*query.Regexp); ok {
			return r, true
		}
	}
	return nil, false
}

// regexLeaf is a url:/re/ or title:/re/ leaf; its matching page ids are computed in Go
// and bound as a JSON array.
type regexLeaf struct {
	node *query.Regexp
	ids  string // JSON array of page ids, set before the statement runs
}

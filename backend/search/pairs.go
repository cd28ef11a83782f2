package search

import (
	"context"
	"database/sql"
	"mundaneum/backend/query"
	"mundaneum/backend/querysql"
	"mundaneum/backend/store"
	"strings"
	"sync"

	"mundaneum/backend/index"
	"mundaneum/backend/pairs"
)

// A query whose text is one phrase of the workspace's frequent words is answered from the
// pair index (page_pairs, see backend/pairs and backend/index): the phrase "a b c"
// is the phrase "a0b b0c" there, which matches exactly the same pages from short doclists.
// The matches are ranked by bm25 over page_pairs, which counts how often and in which
// columns each page has the phrase, when the phrase's rarest pair is within the ranking
// budget, else by their titles and URLs (scoreFields), as common words are.

// pairCache remembers the workspace's frequent words once the pair index is complete: the
// words are chosen once and never change until the index is rebuilt (see backend/index).
// Whether it is complete is asked at every search: rows written during a crawl lack their
// pairs rows until the index is idle.
type pairCache struct {
	mu         sync.Mutex
	complete   bool
	generation int64
	words      *pairs.Words
	df         *dfCache // document frequencies of pair tokens in page_pairs
}

// frequent returns the frequent words when the pair index is complete, else nil.
func (c *pairCache) frequent(ctx context.Context, db *sql.DB) (*pairs.Words, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	gen, err := index.Generation(ctx, db)
	if err != nil {
		return nil, err
	}
	complete, err := index.PairsComplete(ctx, db)
	if err != nil || !complete {
		return nil, err
	}
	if c.complete && c.generation == gen {
		return c.words, nil
	}
	c.complete, c.words, c.generation = false, nil, gen
	c.df.reset()
	if c.words, err = index.PairWords(ctx, db); err != nil {
		return nil, err
	}
	c.complete = true
	return c.words, nil
}

// rarest estimates the rows of the rarest of a phrase's pairs (quoted atoms): a bound on
// its matches, and what bm25 counts to rank them.
func (c *pairCache) rarest(ctx context.Context, db store.Querier, atoms []string) (int, error) {
	df, err := estimator{db: db, cache: c.df, table: "page_pairs"}.dfs(ctx, atoms)
	if err != nil {
		return 0, err
	}
	least := -1
	for _, a := range atoms {
		if least < 0 || df[a] < least {
			least = df[a]
		}
	}
	return max(least, 0), nil
}

// usePairs sets the plan's pair expression when its text is one phrase of frequent words:
// the query is that phrase and filters (no other text, nothing left out by text).
func usePairs(root query.Node, pl *plan, words *pairs.Words) {
	if words.Len() == 0 || len(pl.conj) != 1 || pl.negated || pl.match == "" {
		return
	}
	nodes := []query.Node{root}
	if a, ok := root.(*query.And); ok {
		nodes = a.Nodes
	}
	var text *query.Text
	for _, n := range nodes {
		switch n := n.(type) {
		case *query.Text:
			if text != nil {
				return
			}
			text = n
		case *query.Filter, *query.Regexp:
		case *query.Not:
			switch n.Node.(type) {
			case *query.Filter, *query.Regexp:
			default:
				return
			}
		default:
			return
		}
	}
	if text == nil || text.Prefix || len(text.Words) < 2 {
		return
	}
	ps, ok := words.Pairs(text.Words)
	if !ok {
		return
	}
	pl.pairs = querysql.PageColumns(text.Field, querysql.Quote(strings.Join(ps, " ")))
	for _, p := range ps {
		pl.pairAtoms = append(pl.pairAtoms, querysql.Quote(p))
	}
}

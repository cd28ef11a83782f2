package search

import (
	"context"
	"database/sql"
	"sync"
	"time"

	"mundaneum/backend/sqlcache"
	"mundaneum/backend/vocab"
)

// Searcher runs queries over a workspace's read pool.
type Searcher struct {
	db    *sqlcache.DB // the read pool, its statements prepared once per connection
	w     Weights
	df    *dfCache
	cites *citeCache
	pairs *pairCache
	vocab *vocab.Vocabulary
	bg    *background
}

// background is what Prepare started: Close stops it and waits for it.
type background struct {
	mu     sync.Mutex
	stop   []context.CancelFunc
	wg     sync.WaitGroup
	closed bool
}

// New returns a searcher over db (the store's read pool) with DefaultWeights.
func New(db *sql.DB) *Searcher {
	pool := sqlcache.New(db, searchStatements)
	return &Searcher{db: pool, w: DefaultWeights, df: &dfCache{}, cites: &citeCache{minPages: citeCacheMin}, pairs: &pairCache{df: &dfCache{}}, vocab: vocab.New(pool), bg: &background{}}
}

// searchStatements is how many statements a searcher keeps prepared: a query's statements
// are built from its shape (how many words, which filters), its values are arguments.
const searchStatements = 128

// WithWeights returns a searcher over the same pool that ranks with w (for tuning).
func (s *Searcher) WithWeights(w Weights) *Searcher {
	return &Searcher{db: s.db, w: w, df: s.df, cites: s.cites, pairs: s.pairs, vocab: s.vocab, bg: s.bg}
}

func (s *Searcher) estimator() estimator { return estimator{db: s.db, cache: s.df} }

// WaitVocabulary waits until the index's terms are in memory (see Prepare) (or reading them failed) and returns
// how long the first reading took.
func (s *Searcher) WaitVocabulary(ctx context.Context) (time.Duration, error) {
	return s.vocab.Wait(ctx)
}

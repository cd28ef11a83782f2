// Package vocab is the full-text index's vocabulary: the terms FTS5 holds, read from the
// index's own b-tree (btree.go) or from a copy kept in memory (memory.go), at a cost that
// does not grow with the index. Search asks it three things of a query's words: the terms
// a long prefix stands for (prefix.go), the terms within N edits of an approximate word
// (approx.go), and, when a query finds nothing, the spelling correction of its words that
// the index does not hold ("did you mean", correct.go and nearest.go).
package vocab

import (
	"context"
	"database/sql"

	"mundaneum/backend/query"
)

// DB is what a vocabulary reads the index through: a read pool of the index (the store's
// search pool, its statements cached by backend/sqlcache) that also begins read
// transactions.
type DB interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error)
}

// Vocabulary answers questions about the terms of one workspace's index. It is safe for
// concurrent use; a long-lived one (the window's, serve's) keeps the terms in memory once
// Prepare asks it to.
type Vocabulary struct {
	db  DB
	mem *inMemory
}

// New returns the vocabulary of the index that db reads.
func New(db DB) *Vocabulary { return &Vocabulary{db: db, mem: newInMemory()} }

// Expansions are the terms a query's long prefixes and approximate words were asked as:
// the compiler asks them instead of the prefix or the word, and the snippets highlight
// them.
type Expansions map[string][]string

// Prefix returns the terms a long prefix (lower case) was asked as, nil when it was left
// to FTS5.
func (e Expansions) Prefix(w string) []string { return e[w] }

// Approx returns the terms an approximate word (lower case, within d edits) was asked as,
// and whether it was expanded.
func (e Expansions) Approx(w string, d int) ([]string, bool) {
	terms, ok := e[approxKey(w, d)]
	return terms, ok
}

// Expand returns the terms of the index that the query's long prefixes (prefix.go) and
// approximate words (approx.go) stand for.
func (v *Vocabulary) Expand(ctx context.Context, root query.Node) (Expansions, error) {
	e, err := v.expandPrefixes(ctx, root)
	if err == nil {
		e, err = v.expandApprox(ctx, root, e)
	}
	return e, err
}

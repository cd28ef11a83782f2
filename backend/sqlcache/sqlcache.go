// Package sqlcache keeps a pool's prepared statements by their SQL text. SQLite parses and
// plans a statement every time database/sql runs SQL text directly; a search runs a dozen
// statements, and at a million pages their preparation was a tenth of its time
// (docs/benchmarks.md, "The results request at 1M"). A cached statement is prepared once
// per connection of the pool and reused until it leaves the cache.
package sqlcache

import (
	"container/list"
	"context"
	"database/sql"
	"sync"
)

// DB is a pool whose queries go through cached statements. The embedded pool serves
// everything else (transactions, connections, statements the caller manages).
type DB struct {
	*sql.DB
	max int

	mu sync.Mutex
	ll *list.List // of *entry, most recently used first
	m  map[string]*list.Element
}

type entry struct {
	q       string
	st      *sql.Stmt
	users   int  // callers running it now
	evicted bool // out of the cache: closed when the last user is done
}

// New caches up to max statements of db. Statements are keyed by their text, so SQL that
// carries its values as arguments is what the cache serves; SQL built with values in it
// passes through (one use each) and pushes out the least recently used.
func New(db *sql.DB, max int) *DB {
	return &DB{DB: db, max: max, ll: list.New(), m: map[string]*list.Element{}}
}

// QueryContext runs q (a cached statement) with args.
func (c *DB) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	e, err := c.take(ctx, q)
	if err != nil {
		return nil, err
	}
	defer c.release(e)
	return e.st.QueryContext(ctx, args...)
}

// QueryRowContext runs q (a cached statement) with args for at most one row. As with
// sql.DB, an error to prepare q is reported by the row's Scan.
func (c *DB) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	e, err := c.take(ctx, q)
	if err != nil {
		// sql.Row has no exported constructor: let the pool report the error the same way.
		return c.DB.QueryRowContext(ctx, q, args...)
	}
	defer c.release(e)
	return e.st.QueryRowContext(ctx, args...)
}

// take returns the cached statement of q, preparing it the first time, held until
// release. A statement pushed out of the cache is closed once no one holds it (rows still
// being read finish first: database/sql keeps the statement open while they are).
func (c *DB) take(ctx context.Context, q string) (*entry, error) {
	c.mu.Lock()
	if el, ok := c.m[q]; ok {
		c.ll.MoveToFront(el)
		e := el.Value.(*entry)
		e.users++
		c.mu.Unlock()
		return e, nil
	}
	c.mu.Unlock()
	st, err := c.DB.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.m[q]; ok { // prepared meanwhile by another caller
		st.Close()
		c.ll.MoveToFront(el)
		e := el.Value.(*entry)
		e.users++
		return e, nil
	}
	e := &entry{q: q, st: st, users: 1}
	c.m[q] = c.ll.PushFront(e)
	for c.ll.Len() > c.max {
		last := c.ll.Back()
		c.ll.Remove(last)
		old := last.Value.(*entry)
		delete(c.m, old.q)
		old.evicted = true
		if old.users == 0 {
			old.st.Close()
		}
	}
	return e, nil
}

func (c *DB) release(e *entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.users--
	if e.evicted && e.users == 0 {
		e.st.Close()
	}
}

// Len is how many statements the cache holds.
func (c *DB) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len()
}

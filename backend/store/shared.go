package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// Short writes beside the owner.
//
// One process owns a workspace for writing (the window, serve, a crawl): it holds the lock
// file <workspace>.lock and its writer goroutine batches transactions for up to a second,
// keeping caches of page and host ids. Other processes may still make short writes (a
// library posting, a saved view) while it runs: they open the store Shared and write with
// Update, each write one SQLite transaction of their own, which SQLite (WAL, busy_timeout)
// serialises with the owner's.
//
// Two rules keep this safe and fair:
//
//   - A shared store has no Writer, so nothing written beside the owner touches pages, hosts
//     or the page index: the owner's id caches and queued index changes describe tables
//     only it writes. (Store methods that need the Writer fail on a shared store.)
//   - A short write takes its turn: it holds a shared lock on <workspace>.turn from before it
//     asks SQLite for the write lock until it has committed, and the owner's writer, before
//     it begins each batch, waits (up to maxYield) while anyone holds that lock. Without it a
//     crawl's back-to-back batches would leave a foreign writer only the instants between a
//     commit and the next BEGIN, and SQLite's busy handler sleeps far longer than that.
//
// A short write is durable when Update returns, like any commit; the owner's later batches
// build on it (they begin after it committed), so it is never lost or overwritten by them.

// maxYield bounds how long the owner's writer waits for the writes of other processes
// before it begins a batch anyway (SQLite's busy_timeout then orders them): long enough
// for the largest of them (an import of a hundred thousand bookmarks, seconds), short
// enough that a stopped process (Ctrl-Z) holds up a crawl only for a while.
const maxYield = 30 * time.Second

// gate orders a writer's transactions with other processes' (see Writer.gate).
type gate interface {
	enter()
	leave()
}

func turnPath(workspace string) string { return workspace + ".turn" }

// ownerGate is the owner's side: before a batch, wait while a short write holds its turn.
type ownerGate struct{ lock *flock.Flock }

func ownerTurn(workspace string) gate { return &ownerGate{lock: flock.New(turnPath(workspace))} }

func (g *ownerGate) enter() {
	deadline := time.Now().Add(maxYield)
	for delay := 500 * time.Microsecond; ; delay = min(2*delay, 20*time.Millisecond) {
		ok, err := g.lock.TryLock()
		if ok {
			g.lock.Unlock()
			return
		}
		if err != nil || time.Now().After(deadline) {
			return // no lock file to wait on, or a stuck process: SQLite's locking still holds
		}
		time.Sleep(delay)
	}
}

func (g *ownerGate) leave() {}

// shortGate is a short writer's side: hold a shared lock on the turn file for the
// transaction.
type shortGate struct{ lock *flock.Flock }

func (g *shortGate) enter() { g.lock.RLock() } // on error, SQLite's busy_timeout still orders the writes
func (g *shortGate) leave() { g.lock.Unlock() }

// openShared sets s up for short writes (Options.Shared).
func (s *Store) openShared(ctx context.Context) error {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return fmt.Errorf("create workspace directory: %w", err)
	}
	wdb, err := sql.Open("sqlite", dsn(s.path, false))
	if err != nil {
		return err
	}
	wdb.SetMaxOpenConns(1)
	wdb.SetConnMaxIdleTime(0)
	// Nobody owns the workspace: bring its schema up to date, as its owner would. Under an
	// owner, Open checks instead that the schema is the one this program knows.
	owner := flock.New(s.path + ".lock")
	if ok, err := owner.TryLock(); err == nil && ok {
		err := migrate(ctx, wdb)
		owner.Unlock()
		if err != nil {
			wdb.Close()
			return err
		}
	}
	s.short = newWriter(wdb, 1, time.Millisecond, nil, nil)
	s.short.gate = &shortGate{lock: flock.New(turnPath(s.path))}
	return nil
}

// Update runs fn in a write transaction and returns once it is committed. On the owner it
// joins the writer's current batch and commits it; on a shared store it is a transaction
// of its own that waits its turn beside the owner. Like every writer operation, fn may be
// run again (see Writer) and must not commit or roll back tx.
func (s *Store) Update(ctx context.Context, fn func(*Tx) error) error {
	w := s.writer
	if w == nil {
		w = s.short
	}
	if w == nil {
		return errReadOnly
	}
	if err := w.Do(ctx, fn); err != nil {
		return err
	}
	return w.Flush(ctx)
}

// Shared reports whether the store was opened for short writes beside an owner.
func (s *Store) Shared() bool { return s.short != nil }

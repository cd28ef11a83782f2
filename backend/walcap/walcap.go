// Package walcap keeps a SQLite database's write-ahead log near a size while one writer
// commits to it and other connections read it.
//
// SQLite's own checkpoint after a commit (PASSIVE, wal_autocheckpoint) copies the log's
// frames into the database, but the writer goes back to the start of the log only when,
// as its next transaction begins, every frame was copied and no reader still uses a snapshot
// of the log. A crawl's writer commits every second while the index's stage, searches and
// status readers read beside it: there is nearly always a reader from before the last
// commit, so the log is never restarted and grows by everything written (363 MB for the
// workspace at the end of a 100,000-page crawl, docs/benchmarks.md "wal-cap"). The
// journal_size_limit pragma only cuts a log back once it has been restarted.
//
// A Cap, called by the writer between its transactions, restarts a log left holding more
// than a quarter of its limit: wal_checkpoint(RESTART) copies every frame and waits (a
// bounded time) for the readers of older snapshots to finish — a reader that begins
// meanwhile reads the database file and is not waited for — so that the next transaction
// writes from the log's start; a file past the limit is emptied (TRUNCATE). Nothing committed is lost: the frames
// are in the database file (synced) before the log is emptied.
package walcap

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"time"
)

// Cap restarts a database's log when it has grown past a limit. It is used by the
// database's one writer, between its transactions, never concurrently.
type Cap struct {
	wal   string        // the log's file (the database's path + "-wal")
	limit int64         // bytes of log file beyond which the log is restarted
	wait  time.Duration // longest wait for readers of older snapshots
	page  int64         // the database's page size, once asked

	// Counts, for tests and benchmarks.
	Restarts int // logs emptied
	Busy     int // attempts that found a reader still on an older snapshot after wait

	hook func() // tests: called before an attempt
}

// New returns a Cap for the database file at path: past limit bytes of log, a restart waits
// at most wait for readers.
func New(path string, limit int64, wait time.Duration) *Cap {
	return &Cap{wal: path + "-wal", limit: limit, wait: wait}
}

// restartAt is how much of the log's file past which After asks SQLite how many frames the
// log holds: a log not restarted since then is restarted (the file kept), so that the next
// transaction does not add to what is there; a file past the limit is emptied.
func (c *Cap) restartAt() int64 { return c.limit / 4 }

// After restarts the log when it holds more than a quarter of the limit (a log the
// writer's checkpoints could not restart), and empties its file when it is larger than the
// limit. db must be the writer's pool of one connection, with no transaction open. It
// reports whether the log was restarted; a reader that kept an older snapshot longer than
// the wait leaves it as it is (the next call tries again).
func (c *Cap) After(ctx context.Context, db *sql.DB) (bool, error) {
	if c == nil {
		return false, nil
	}
	fi, err := os.Stat(c.wal)
	if err != nil || fi.Size() <= c.restartAt() {
		return false, nil // no log (yet), or too small to matter
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return false, fmt.Errorf("wal cap: %w", err)
	}
	defer conn.Close()
	if fi.Size() <= c.limit {
		// Usually the log restarted at the last transaction's start: nothing to do.
		held, err := c.Held(ctx, conn)
		if err != nil {
			return false, err
		}
		if held <= c.restartAt() {
			return false, nil
		}
	}
	if c.hook != nil {
		c.hook()
	}
	var old int64
	if err := conn.QueryRowContext(ctx, `PRAGMA busy_timeout`).Scan(&old); err != nil {
		return false, fmt.Errorf("wal cap: %w", err)
	}
	// The connection's busy handler is what waits for the readers: bounded here, put back after.
	if _, err := conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA busy_timeout = %d`, c.wait.Milliseconds())); err != nil {
		return false, fmt.Errorf("wal cap: %w", err)
	}
	mode := "RESTART"
	if fi.Size() > c.limit {
		mode = "TRUNCATE"
	}
	var busy, logFrames, copied int64
	cerr := conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(`+mode+`)`).Scan(&busy, &logFrames, &copied)
	if _, err := conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA busy_timeout = %d`, old)); err != nil && cerr == nil {
		cerr = err
	}
	if cerr != nil {
		return false, fmt.Errorf("wal cap: %w", cerr)
	}
	if busy != 0 {
		c.Busy++
		return false, nil
	}
	c.Restarts++
	return true, nil
}

// Querier is what Held asks questions of: the writer's pool or one of its connections.
type Querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Held returns the bytes of the frames the log holds once SQLite's PASSIVE checkpoint has
// copied what it can: after a commit, with a log that restarted as the transaction began,
// that transaction's frames only. q must be the writer's, with no transaction open.
func (c *Cap) Held(ctx context.Context, q Querier) (int64, error) {
	if c.page == 0 {
		if err := q.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&c.page); err != nil {
			return 0, fmt.Errorf("wal cap: %w", err)
		}
	}
	var busy, frames, copied int64
	if err := q.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &copied); err != nil {
		return 0, fmt.Errorf("wal cap: %w", err)
	}
	return frames * c.page, nil
}

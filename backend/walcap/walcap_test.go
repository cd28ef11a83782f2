package walcap

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// open opens the writer's pool (one connection) or a reader's, as the store does.
func open(t *testing.T, path string, write bool) *sql.DB {
	t.Helper()
	q := "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)"
	if write {
		q += "&_pragma=journal_size_limit(67108864)&_txlock=immediate"
	}
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path)+q)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// reader holds a read snapshot of the database until end is called.
type reader struct {
	tx *sql.Tx
}

func begin(t *testing.T, db *sql.DB) *reader {
	t.Helper()
	tx, err := db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := tx.QueryRow(`SELECT count(*) FROM t`).Scan(&n); err != nil { // the snapshot begins here
		t.Fatal(err)
	}
	return &reader{tx: tx}
}

func (r *reader) end() { r.tx.Rollback() }

// run commits rounds transactions of about 1 MiB each while readers overlap as the
// index stage's reads and searches do: a reader from before each commit is still reading
// when it ends (so SQLite's checkpoint after the commit cannot copy every frame), and the
// next reader begins before it ends. It returns the largest size the log's file reached.
func run(t *testing.T, c *Cap, rounds int) int64 {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.db")
	w := open(t, path, true)
	if _, err := w.Exec(`CREATE TABLE t(id INTEGER PRIMARY KEY, v BLOB)`); err != nil {
		t.Fatal(err)
	}
	r1, r2 := open(t, path, false), open(t, path, false)
	pools := [2]*sql.DB{r1, r2}
	var held *reader = begin(t, pools[0])
	if c != nil {
		c.wal = path + "-wal"
		c.hook = func() {
			// The reader of the moment finishes its (short) read while the writer waits.
			r := held
			held = nil
			go r.end()
		}
	}
	blob := []byte(strings.Repeat("x", 4000))
	var peak int64
	for i := range rounds {
		tx, err := w.Begin()
		if err != nil {
			t.Fatal(err)
		}
		for j := range 256 {
			if _, err := tx.Exec(`INSERT OR REPLACE INTO t(id, v) VALUES (?, ?)`, (i*256+j)%20000, blob); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if held != nil {
			next := begin(t, pools[(i+1)%2]) // the next reader begins before this one ends
			held.end()
			held = next
		}
		if c != nil {
			if _, err := c.After(context.Background(), w); err != nil {
				t.Fatal(err)
			}
			if held == nil {
				held = begin(t, pools[(i+1)%2])
			}
		}
		if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > peak {
			peak = fi.Size()
		}
	}
	held.end()
	return peak
}

// TestReadersStarveRestart: with readers always overlapping the writer's commits, SQLite's
// own checkpoints never let the writer go back to the start of the log, and it grows by
// every transaction; the cap keeps it at its limit plus a transaction.
func TestReadersStarveRestart(t *testing.T) {
	const rounds = 48 // about 48 MiB written
	const limit = 8 << 20
	if testing.Short() {
		t.Skip("writes 96 MiB")
	}
	without := run(t, nil, rounds)
	if without < 40<<20 {
		t.Fatalf("without a cap the log reached %d bytes: the readers did not starve the restart (the test no longer shows it)", without)
	}
	c := New("", limit, 10*time.Second)
	with := run(t, c, rounds)
	if bound := int64(limit + 2<<20); with > bound {
		t.Errorf("with a cap of %d the log reached %d bytes (bound %d); restarts %d, busy %d", limit, with, bound, c.Restarts, c.Busy)
	}
	if c.Restarts == 0 {
		t.Errorf("no restart")
	}
	t.Logf("log peak: %d MiB without the cap, %d MiB with it (%d restarts, %d busy)", without>>20, with>>20, c.Restarts, c.Busy)
}

// TestCapKeepsCommits: what was committed before a restart is read back after it, from
// a new connection (the log emptied, the frames in the database file).
func TestCapKeepsCommits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	w := open(t, path, true)
	if _, err := w.Exec(`CREATE TABLE t(id INTEGER PRIMARY KEY, v BLOB)`); err != nil {
		t.Fatal(err)
	}
	c := New(path, 1<<20, time.Second)
	blob := []byte(strings.Repeat("y", 4000))
	for i := range 2000 {
		if _, err := w.Exec(`INSERT INTO t(id, v) VALUES (?, ?)`, i, blob); err != nil {
			t.Fatal(err)
		}
		if i%100 == 99 {
			if _, err := c.After(context.Background(), w); err != nil {
				t.Fatal(err)
			}
		}
	}
	if c.Restarts == 0 {
		t.Fatal("no restart")
	}
	r := open(t, path, false)
	var n int
	if err := r.QueryRow(`SELECT count(*) FROM t WHERE v = ?`, blob).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 2000 {
		t.Fatalf("%d rows after %d restarts, want 2000", n, c.Restarts)
	}
}

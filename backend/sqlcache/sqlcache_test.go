package sqlcache

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	_ "modernc.org/sqlite"
)

func open(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(4)
	if _, err := db.Exec(`CREATE TABLE n(i INTEGER PRIMARY KEY, sq INTEGER)`); err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		if _, err := db.Exec(`INSERT INTO n VALUES (?, ?)`, i, i*i); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// TestCache runs the same statements many times from several goroutines while other
// statements push them out of a small cache: every answer is right, the cache stays within
// its bound, and nothing reads a statement closed under it.
func TestCache(t *testing.T) {
	c := New(open(t), 3)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 300 {
				i := (g*31 + k) % 100
				// Six texts over a cache of three: statements are evicted while in use.
				q := fmt.Sprintf(`SELECT sq FROM n WHERE i = ? AND %d = %d`, k%6, k%6)
				var sq int
				if err := c.QueryRowContext(ctx, q, i).Scan(&sq); err != nil || sq != i*i {
					errs <- fmt.Errorf("row %d: %d, %v", i, sq, err)
					return
				}
				rows, err := c.QueryContext(ctx, `SELECT i FROM n WHERE i < ? ORDER BY i`, i)
				if err != nil {
					errs <- err
					return
				}
				n := 0
				for rows.Next() {
					n++
				}
				rows.Close()
				if err := rows.Err(); err != nil || n != i {
					errs <- fmt.Errorf("rows below %d: %d, %v", i, n, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := c.Len(); n > 3 || n == 0 {
		t.Errorf("cache holds %d statements, bound 3", n)
	}
}

// TestErrors: SQL that does not prepare is reported, by QueryContext and by the row's
// Scan, and is not cached.
func TestErrors(t *testing.T) {
	c := New(open(t), 8)
	ctx := context.Background()
	if _, err := c.QueryContext(ctx, `SELECT nope FROM n`); err == nil {
		t.Error("QueryContext of a bad statement: no error")
	}
	var x int
	if err := c.QueryRowContext(ctx, `SELECT FROM WHERE`).Scan(&x); err == nil {
		t.Error("QueryRowContext of a bad statement: no error")
	}
	if c.Len() != 0 {
		t.Errorf("bad statements cached: %d", c.Len())
	}
}

// BenchmarkCached and BenchmarkDirect compare a statement run through the cache with the
// same SQL text run by the pool (prepared on every use).
func BenchmarkCached(b *testing.B) { benchmarkQuery(b, true) }
func BenchmarkDirect(b *testing.B) { benchmarkQuery(b, false) }

func benchmarkQuery(b *testing.B, cached bool) {
	db, err := sql.Open("sqlite", filepath.Join(b.TempDir(), "t.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE n(i INTEGER PRIMARY KEY, sq INTEGER); INSERT INTO n VALUES (1, 1)`); err != nil {
		b.Fatal(err)
	}
	c := New(db, 8)
	q := `SELECT n.sq, (SELECT count(*) FROM n m WHERE m.i <= n.i), coalesce((SELECT max(sq) FROM n WHERE i > ?), 0) FROM n WHERE n.i = ?`
	ctx := context.Background()
	for b.Loop() {
		var row *sql.Row
		if cached {
			row = c.QueryRowContext(ctx, q, 0, 1)
		} else {
			row = db.QueryRowContext(ctx, q, 0, 1)
		}
		var a, n, m int
		if err := row.Scan(&a, &n, &m); err != nil {
			b.Fatal(err)
		}
	}
}

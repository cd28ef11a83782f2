package index

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"mundaneum/backend/store"
)

// TestSearchPoolFollowsTheWriters checks the search pool, which maps both files into
// memory, against the two writers: it sees each commit of the workspace as the file grows
// by 20 MB (SQLite checkpoints the WAL into it every 4 MB) and each of the index, and it
// holds one snapshot through a read transaction.
func TestSearchPoolFollowsTheWriters(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	db := f.idx.SearchDB()
	for _, schema := range []string{"main", IndexSchema} {
		var mapped int64
		if err := db.QueryRowContext(ctx, "PRAGMA "+schema+".mmap_size").Scan(&mapped); err != nil || mapped < 1<<30 {
			t.Fatalf("search pool %s.mmap_size = %d, %v; want the file mapped", schema, mapped, err)
		}
	}
	var mapped int64
	if err := f.st.ReadDB().QueryRowContext(ctx, "PRAGMA mmap_size").Scan(&mapped); err != nil || mapped != 0 {
		t.Fatalf("store readers' mmap_size = %d, %v; want 0", mapped, err)
	}
	body := make([]byte, 64<<10)
	for i := range body {
		body[i] = byte('a' + i%26)
	}
	held, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Rollback()
	var before, beforeRows int
	if err := held.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM settings), (SELECT count(*) FROM page_fts_docsize)`).Scan(&before, &beforeRows); err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 8; round++ {
		if err := f.st.Writer().Do(ctx, func(tx *store.Tx) error {
			for i := range 40 {
				if _, err := tx.ExecContext(ctx, `INSERT INTO settings(key, value) VALUES (?, ?)`,
					fmt.Sprintf("k%d-%d", round, i), string(body)); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		f.visit(page{url: fmt.Sprintf("http://a.test/r%d", round), title: "round", body: fmt.Sprintf("round%d", round)})
		f.wait()
		var n, size, rows int
		if err := db.QueryRowContext(ctx, `SELECT count(*), sum(length(value)), (SELECT count(*) FROM page_fts WHERE page_fts MATCH 'round')
			FROM settings WHERE key GLOB 'k*'`).Scan(&n, &size, &rows); err != nil {
			t.Fatal(err)
		}
		if n != 40*round || size != n*len(body) || rows != round {
			t.Fatalf("round %d: search pool sees %d rows (%d bytes) and %d indexed pages, want %d and %d", round, n, size, rows, 40*round, round)
		}
	}
	var still, stillRows int
	if err := held.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM settings), (SELECT count(*) FROM page_fts_docsize)`).Scan(&still, &stillRows); err != nil || still != before || stillRows != beforeRows {
		t.Fatalf("a read transaction saw %d rows and %d indexed after others committed, had %d and %d (%v)", still, stillRows, before, beforeRows, err)
	}
}

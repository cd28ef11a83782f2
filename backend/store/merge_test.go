package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// TestMergeIndex checks that MergeIndex merges the segments that separate commits leave
// into one, keeps every row findable, and is a no-op on a merged index.
func TestMergeIndex(t *testing.T) {
	ctx := context.Background()
	st := openTest(t)
	w := st.Writer()
	for i := range 6 { // each commit flushes a segment; automerge waits for 8
		err := w.Do(ctx, func(tx *Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO page_fts(rowid, title, body) VALUES (?, ?, 'common words here')`,
				i+1, fmt.Sprintf("title%d", i))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	segments := func() int {
		var n int
		if err := st.ReadDB().QueryRowContext(ctx, `SELECT count(DISTINCT segid) FROM page_fts_idx`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := segments(); n < 6 {
		t.Fatalf("%d segments before merging, want 6", n)
	}
	steps, err := st.MergeIndex(ctx)
	if err != nil || steps == 0 {
		t.Fatalf("MergeIndex = %d steps, %v", steps, err)
	}
	if n := segments(); n != 1 {
		t.Errorf("%d segments after merging, want 1", n)
	}
	var hits int
	st.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM page_fts WHERE page_fts MATCH 'common'`).Scan(&hits)
	if hits != 6 {
		t.Errorf("%d rows match after merging, want 6", hits)
	}
	if steps, err := st.MergeIndex(ctx); err != nil || steps != 0 {
		t.Errorf("MergeIndex on a merged index = %d steps, %v; want none", steps, err)
	}
	if v, err := st.IntegrityCheck(ctx); err != nil || v != "ok" {
		t.Errorf("integrity after merging: %q %v", v, err)
	}
}

func TestMergeIndexReadOnly(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.mundaneum")
	st, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.MergeIndex(ctx); err == nil {
		t.Error("MergeIndex on a read-only store succeeded")
	}
}

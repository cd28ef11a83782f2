package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// TestPairIndexBuildResumes builds the pair index a step at a time, closes the workspace in
// the middle (as a kill would, after a committed step) and finishes after reopening: every
// row ends up with its pairs, and the phrase is found the same in both indexes.
func TestPairIndexBuildResumes(t *testing.T) {
	old := PairsMinRows
	PairsMinRows = 100
	t.Cleanup(func() { PairsMinRows = old })
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.mundaneum")
	st, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const rows = 5000
	if err := st.Writer().Do(ctx, func(tx *Tx) error {
		for i := 1; i <= rows; i++ {
			body := fmt.Sprintf("the cat sat on the mat w%dx and then", i)
			if i%3 == 0 {
				body = fmt.Sprintf("on the cat the mat sat q%dq then and", i)
			}
			if _, err := tx.Exec(`INSERT INTO page_fts(rowid, title, headings, body, anchors, url) VALUES (?, 'a title', '', ?, '', '')`, i, body); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	p, more, err := st.BuildPairsStep(ctx)
	if err != nil || !more || p.Words < 8 || p.Complete || p.Total != rows {
		t.Fatalf("choosing: %+v more %v err %v", p, more, err)
	}
	if p, more, err = st.BuildPairsStep(ctx); err != nil || !more || p.Done == 0 || p.Done >= rows {
		t.Fatalf("first step: %+v more %v err %v", p, more, err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if st, err = Open(ctx, path, Options{}); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var builtTo int64
	if err := st.ReadDB().QueryRow(`SELECT built_to FROM pair_state`).Scan(&builtTo); err != nil || builtTo != pairsStep {
		t.Fatalf("after reopening: built to %d (%v), want %d", builtTo, err, pairsStep)
	}
	steps := 0
	p, err = st.BuildPairs(ctx, func(PairsProgress) { steps++ })
	if err != nil || !p.Complete || p.Done != rows || steps == 0 {
		t.Fatalf("resumed: %+v after %d steps, %v", p, steps, err)
	}
	if _, more, err := st.BuildPairsStep(ctx); more || err != nil {
		t.Fatalf("a complete index has more to do: %v %v", more, err)
	}
	count := func(q, m string) int {
		var n int
		if err := st.ReadDB().QueryRow(q, m).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, c := range []struct{ words, pairs string }{
		{`"the cat sat"`, `"the0cat cat0sat"`},
		{`"the mat sat"`, `"the0mat mat0sat"`},
		{`"cat sat on the mat"`, `"cat0sat sat0on on0the the0mat"`},
		{`"then and"`, `"then0and"`},
	} {
		want := count(`SELECT count(*) FROM page_fts WHERE page_fts MATCH ?`, c.words)
		got := count(`SELECT count(*) FROM page_pairs WHERE page_pairs MATCH ?`, c.pairs)
		if want == 0 || got != want {
			t.Errorf("%s: %d pages, pairs %s: %d", c.words, want, c.pairs, got)
		}
	}
	if v, err := st.IntegrityCheck(ctx); err != nil || v != "ok" {
		t.Fatalf("integrity: %q %v", v, err)
	}
}

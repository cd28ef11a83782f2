package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"mundaneum/backend/store"
)

// testWorkspace generates a small synthetic workspace (short bodies, to keep the test quick).
func testWorkspace(t *testing.T, pages int) (*model, string, genStats) {
	t.Helper()
	words, err := loadWords("/usr/share/dict/words")
	if err != nil {
		t.Skipf("no word list: %v", err)
	}
	m := newModel(7, pages, 20, 60, words)
	path := filepath.Join(t.TempDir(), "w.mundaneum")
	gs, err := generate(context.Background(), m, path, 500, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	return m, path, gs
}

func splitSet(s, sep string) []string {
	if s == "" {
		return nil
	}
	out := strings.Split(s, sep)
	slices.Sort(out)
	return slices.Compact(out)
}

// TestGenerateMatchesStore checks that the generated workspace is what the store itself
// would hold: index rows for the kept pages and the resources only, the incoming anchor text
// and the citing titles that the store's indexer would compute from the links table.
func TestGenerateMatchesStore(t *testing.T) {
	ctx := context.Background()
	m, path, gs := testWorkspace(t, 1500)
	st, err := store.Open(ctx, path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	db := st.ReadDB()
	if ok, err := st.IntegrityCheck(ctx); err != nil || ok != "ok" {
		t.Fatalf("integrity: %q %v", ok, err)
	}
	var fts, kept, resources, dups, links int
	err = db.QueryRow(`SELECT (SELECT count(*) FROM page_fts),
		(SELECT count(*) FROM pages WHERE state='fetched' AND duplicate_of IS NULL),
		(SELECT count(*) FROM pages WHERE state='skipped' AND reason='type'),
		(SELECT count(*) FROM pages WHERE duplicate_of IS NOT NULL),
		(SELECT count(*) FROM links)`).Scan(&fts, &kept, &resources, &dups, &links)
	if err != nil {
		t.Fatal(err)
	}
	if fts != kept+resources || fts != gs.FTSRows || dups != gs.Duplicates || links != gs.Links || dups == 0 || resources != m.nres {
		t.Fatalf("fts=%d kept=%d resources=%d dups=%d links=%d, stats %+v", fts, kept, resources, dups, links, gs)
	}
	var dupRows int
	if err := db.QueryRow(`SELECT count(*) FROM page_fts WHERE rowid IN (SELECT id FROM pages WHERE duplicate_of IS NOT NULL)`).Scan(&dupRows); err != nil || dupRows != 0 {
		t.Fatalf("duplicates indexed: %d %v", dupRows, err)
	}
	var sameHash int
	if err := db.QueryRow(`SELECT count(*) FROM pages d JOIN pages o ON o.id = d.duplicate_of WHERE d.hash = o.hash AND d.title = o.title`).Scan(&sameHash); err != nil || sameHash != dups {
		t.Fatalf("duplicates sharing hash and title: %d of %d (%v)", sameHash, dups, err)
	}

	rows, err := db.Query(`SELECT f.rowid, f.anchors, f.headings, p.state,
		coalesce((SELECT group_concat(anchor, ' | ') FROM (SELECT DISTINCT anchor FROM links WHERE to_id=p.id AND anchor<>'')), ''),
		coalesce((SELECT group_concat(title, ' | ') FROM (SELECT DISTINCT c.title FROM links l JOIN pages c ON c.id=l.from_id WHERE l.to_id=p.id AND c.title<>'')), '')
		FROM page_fts f JOIN pages p ON p.id=f.rowid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n, withAnchors := 0, 0
	for rows.Next() {
		var id int64
		var anchors, headings, state, wantAnchors, citers string
		if err := rows.Scan(&id, &anchors, &headings, &state, &wantAnchors, &citers); err != nil {
			t.Fatal(err)
		}
		n++
		if !slices.Equal(splitSet(anchors, " | "), splitSet(wantAnchors, " | ")) {
			t.Fatalf("page %d: anchors %q, links say %q", id, anchors, wantAnchors)
		}
		if anchors != "" {
			withAnchors++
		}
		if state == store.StateSkipped && !slices.Equal(splitSet(headings, " | "), splitSet(citers, " | ")) {
			t.Fatalf("resource %d: headings %q, citing titles %q", id, headings, citers)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != fts || withAnchors < fts/2 {
		t.Fatalf("checked %d rows, %d with anchors", n, withAnchors)
	}
}

// TestHarness runs every query class end to end on a small workspace.
func TestHarness(t *testing.T) {
	ctx := context.Background()
	m, path, gs := testWorkspace(t, 800)
	vf := filepath.Join(t.TempDir(), "vocab.tsv")
	if err := extractVocab(ctx, path, vf); err != nil {
		t.Fatal(err)
	}
	v, err := loadVocab(vf)
	if err != nil {
		t.Fatal(err)
	}
	if v.df["https"][4] == 0 || len(v.terms) < 1000 {
		t.Fatalf("vocabulary: %d terms, https in %d urls", len(v.terms), v.df["https"][4])
	}
	x := newMixer(m, v, gs.FTSRows, 3)
	qs := x.queryMix(3, nil)
	if len(qs) != 3*len(classes) {
		t.Fatalf("%d queries", len(qs))
	}
	for _, q := range qs {
		if strings.TrimSpace(q.text) == "" {
			t.Fatalf("empty query of class %s", q.class)
		}
	}
	if _, _, _, err := coldStart(ctx, path, qs[0].text, 20, false, true); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ts, err := runMix(ctx, newEngine(st.SearchDB(), true), qs[:5], qs, 20, time.Minute, "", t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range ts {
		// A word taken from the index's body vocabulary is found, with snippets.
		if strings.HasPrefix(tm.q.class, "1w-") && (tm.out.total == 0 || tm.out.snippets == 0) {
			t.Errorf("%s %q: %+v", tm.q.class, tm.q.text, tm.out)
		}
	}
	r := report{Pages: m.n, Classes: []classStats{summarise("x", ts)}, All: summarise("all", ts)}
	r.print(os.Stderr, ts, 3)
}

package main

import (
	"context"
	"os"
	"path/filepath"
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
	if err := buildIndex(context.Background(), path, t.Logf); err != nil {
		t.Fatal(err)
	}
	return m, path, gs
}

// TestGenerateMatchesStore checks that the generated workspace is what a crawl would store
// and index: text for the kept pages (none for duplicates), index rows for them and the
// resources only, and the incoming anchor text and citing titles found where the links
// put them.
func TestGenerateMatchesStore(t *testing.T) {
	ctx := context.Background()
	m, path, gs := testWorkspace(t, 1500)
	sr, err := openSearch(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	if ok, err := sr.st.IntegrityCheck(ctx); err != nil || ok != "ok" {
		t.Fatalf("integrity: %q %v", ok, err)
	}
	if p := sr.idx.Progress(ctx); !p.Current() {
		t.Fatalf("index after generation: %+v", p)
	}
	db := sr.idx.SearchDB()
	var rows, kept, texts, resources, dups, links int
	err = db.QueryRow(`SELECT (SELECT count(*) FROM page_fts_docsize),
		(SELECT count(*) FROM pages WHERE state='fetched' AND duplicate_of IS NULL),
		(SELECT count(*) FROM page_text),
		(SELECT count(*) FROM pages WHERE state='skipped' AND reason='type'),
		(SELECT count(*) FROM pages WHERE duplicate_of IS NOT NULL),
		(SELECT count(*) FROM links)`).Scan(&rows, &kept, &texts, &resources, &dups, &links)
	if err != nil {
		t.Fatal(err)
	}
	if rows != kept+resources || rows != gs.FTSRows || texts != kept || dups != gs.Duplicates || links != gs.Links || dups == 0 || resources != m.nres {
		t.Fatalf("rows=%d kept=%d texts=%d resources=%d dups=%d links=%d, stats %+v", rows, kept, texts, resources, dups, links, gs)
	}
	var dupRows int
	if err := db.QueryRow(`SELECT count(*) FROM page_fts_docsize WHERE id IN (SELECT id FROM pages WHERE duplicate_of IS NOT NULL)`).Scan(&dupRows); err != nil || dupRows != 0 {
		t.Fatalf("duplicates indexed: %d %v", dupRows, err)
	}
	var sameHash int
	if err := db.QueryRow(`SELECT count(*) FROM pages d JOIN pages o ON o.id = d.duplicate_of WHERE d.hash = o.hash AND d.title = o.title`).Scan(&sameHash); err != nil || sameHash != dups {
		t.Fatalf("duplicates sharing hash and title: %d of %d (%v)", sameHash, dups, err)
	}
	// Every tenth page and resource: its text is the model's, and the anchor text of links
	// to it and the titles citing it find it in their columns.
	checked := 0
	for id := 1; id <= m.n+m.nres; id += 10 {
		if id <= m.n && m.isDup(id) {
			continue
		}
		ins, err := store.IndexInputs(ctx, db, []int64{int64(id)})
		if err != nil {
			t.Fatal(err)
		}
		in := ins[0]
		if id <= m.n && (in.Kind != store.IndexedText || in.Text.Title != m.title(id) || in.Text.Body != m.body(id)) {
			t.Fatalf("page %d: %+v", id, in)
		}
		if id > m.n && in.Kind != store.IndexedResource {
			t.Fatalf("resource %d: %+v", id, in)
		}
		for col, text := range map[string]string{"anchors": in.Anchors, "headings": in.Citers} {
			words := strings.Fields(strings.NewReplacer("|", " ").Replace(text))
			if len(words) == 0 {
				continue
			}
			var hit int
			q := col + `:"` + strings.ReplaceAll(words[0], `"`, `""`) + `"`
			if err := db.QueryRow(`SELECT count(*) FROM page_fts WHERE page_fts MATCH ? AND rowid = ?`, q, id).Scan(&hit); err != nil || hit != 1 {
				t.Fatalf("page %d: %s not found in %s (%v)", id, q, col, err)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("checked %d columns", checked)
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
	if _, err := coldStart(ctx, path, qs[0].text, 20, false, true); err != nil {
		t.Fatal(err)
	}
	sr, err := openSearch(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	ts, err := runMix(ctx, newEngine(sr.idx.SearchDB(), false), qs[:5], qs, 20, true, time.Minute, "", t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range ts {
		// A word taken from the index's body vocabulary is found, with snippets.
		if strings.HasPrefix(tm.q.class, "1w-") && (tm.out.total == 0 || tm.out.snippets == 0) {
			t.Errorf("%s %q: %+v", tm.q.class, tm.q.text, tm.out)
		}
	}
	fa, both := summarise("all", ts, facetsPart), summarise("all", ts, bothParts)
	r := report{Pages: m.n, FacetsHow: "window", Classes: []classStats{summarise("x", ts, resultsPart)}, All: summarise("all", ts, resultsPart),
		FacetsClasses: []classStats{summarise("x", ts, facetsPart)}, FacetsAll: &fa, BothAll: &both}
	r.print(os.Stderr, ts, 3)
}

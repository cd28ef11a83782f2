package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"mundaneum/backend/store/dbtest"
)

func TestPackText(t *testing.T) {
	for _, in := range []PageText{
		{},
		{Title: "Otlet", Headings: "Mundaneum\nRépertoire", Body: strings.Repeat("fiches ", 5000)},
		{Title: "a\x00b", Headings: "\uE000forged\uE001", Body: "bad \xff utf-8"},
	} {
		p := PackText(in)
		got, err := UnpackText(p.Codec(), p.Data())
		if err != nil {
			t.Fatal(err)
		}
		want := PageText{Title: strings.ReplaceAll(Clean(in.Title), "\x00", ""), Headings: Clean(in.Headings), Body: Clean(in.Body)}
		if got != want {
			t.Errorf("round trip of %q = %q, want %q", in, got, want)
		}
		if strings.ContainsAny(got.Headings, "\uE000\uE001") || strings.Contains(got.Body, "\xff") {
			t.Errorf("not cleaned: %q", got)
		}
	}
	if _, err := UnpackText("zstd", []byte("not zstd")); err == nil {
		t.Error("garbage unpacked")
	}
	if _, err := UnpackText("brotli", nil); err == nil {
		t.Error("unknown codec unpacked")
	}
}

// TestMigrationMovesTextOut fills a workspace at schema 8 (the index inside it) and checks
// that migration 0017 keeps every page's text, once, and drops the index.
func TestMigrationMovesTextOut(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.mundaneum")
	db, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	for _, m := range migrations() {
		if m.version > 8 {
			break
		}
		body, err := migrationFS.ReadFile("migrations/" + m.name)
		if err != nil {
			t.Fatal(err)
		}
		if err := applyMigration(ctx, db, m.version, string(body)); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
	}
	must := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	must(`INSERT INTO hosts(origin) VALUES ('http://a.test')`)
	must(`INSERT INTO pages(id, url, host_id, state, discovered_at) VALUES (1, 'http://a.test/', 1, 'fetched', 0),
		(2, 'http://a.test/logo.png', 1, 'skipped', 0), (3, 'http://a.test/q', 1, 'queued', 0)`)
	must(`UPDATE pages SET reason = 'type' WHERE id = 2`)
	must(`INSERT INTO page_fts(rowid, title, headings, body, anchors, url) VALUES
		(1, 'Otlet', 'Mundaneum', 'le répertoire bibliographique universel', 'home', 'http://a.test/'),
		(2, '', 'Otlet', '', 'logo', 'http://a.test/logo.png')`)
	must(`INSERT INTO fts_dirty(page_id) VALUES (1)`)
	db.Close()

	st, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	text, err := st.Text(ctx, 1)
	if err != nil || text != (PageText{Title: "Otlet", Headings: "Mundaneum", Body: "le répertoire bibliographique universel"}) {
		t.Fatalf("text after migration = %+v, %v", text, err)
	}
	if _, err := st.Text(ctx, 2); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a resource's links-made row became text: %v", err)
	}
	if id, err := st.WorkspaceID(ctx); err != nil || len(id) != 32 {
		t.Fatalf("workspace id = %q, %v", id, err)
	}
	var left int
	dbtest.Scan(t, st.ReadDB().QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name LIKE 'page_fts%' OR name LIKE 'page_pairs%'
		OR name IN ('page_vocab', 'pair_words', 'pair_state', 'fts_dirty')`), &left)
	if left != 0 {
		t.Fatalf("%d tables of the old index left", left)
	}
	if v, err := st.IntegrityCheck(ctx); err != nil || v != "ok" {
		t.Fatalf("integrity: %q %v", v, err)
	}
}

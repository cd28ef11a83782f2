package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"mundaneum/backend/sqlcache"
)

// TestAnchorsOf: the one-pass read of a page's anchors gives what the seek per distinct
// anchor gives, for a page with a few links, one with more links than a pass reads but
// few distinct anchors (a home page), one with more distinct anchors than a row holds, and
// one with none.
func TestAnchorsOf(t *testing.T) {
	ctx := context.Background()
	raw, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`CREATE TABLE link_rows(from_id INTEGER, to_id INTEGER, anchor TEXT);
		CREATE INDEX links_to ON link_rows(to_id, anchor)`); err != nil {
		t.Fatal(err)
	}
	add := func(to int, anchor string, times int) {
		for i := range times {
			if _, err := raw.Exec(`INSERT INTO link_rows VALUES (?, ?, ?)`, 1000+i, to, anchor); err != nil {
				t.Fatal(err)
			}
		}
	}
	// 1: a few links, repeated anchors, an empty one.
	add(1, "Otlet", 2)
	add(1, "the Mundaneum", 1)
	add(1, "", 3)
	// 2: a home page: thousands of "Home", then a few others sorted after it.
	add(2, "Home", 3*anchorScan)
	add(2, "Mundaneum home page", 1)
	add(2, "back", 2)
	add(2, "Accueil", 1)
	// 3: more distinct anchors than a row keeps.
	for i := range MaxAnchors + 30 {
		add(3, fmt.Sprintf("anchor %03d", i), 1+i%3)
	}
	// 4: none.
	db := sqlcache.New(raw, 8)
	for id := int64(1); id <= 5; id++ {
		got, err := anchorsOf(ctx, db, id)
		if err != nil {
			t.Fatal(err)
		}
		var want string
		if err := raw.QueryRow(anchorsQuery, id, MaxAnchors).Scan(&want); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("page %d: one pass %q,\nseeks %q", id, got, want)
		}
		if id == 2 && want != "Accueil | Home | Mundaneum home page | back" {
			t.Errorf("page 2: %q", want)
		}
	}
}

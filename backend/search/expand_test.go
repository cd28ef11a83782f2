package search

import (
	"context"
	"mundaneum/backend/searchtest"
	"slices"
	"strings"
	"testing"
)

// TestLongPrefixes checks that a prefix longer than the index's prefix index, asked as the
// OR of its terms, finds exactly what FTS5's own prefix query finds.
func TestLongPrefixes(t *testing.T) {
	st := searchtest.Build(t, searchtest.LongPrefixes())
	ctx := context.Background()
	s := New(st.SearchDB())

	// Each query, and the same in FTS5's syntax with its native prefix queries.
	for q, native := range map[string]string{
		"unde*":           `"unde"*`,
		"UNDER*":          `"under"*`,
		"title:under*":    `{title}: "under"*`,
		"undergo*":        `"undergo"*`,
		"unde* zebra":     `"unde"* AND "zebra"`,
		"unde* -undergo":  `"unde"* NOT ("undergo" OR "undergoes")`,
		"zebr* OR undef*": `"zebr"* OR "undef"*`,
		"body:unde* page": `{body}: "unde"* AND "page"`,
	} {
		res, err := s.Search(ctx, Request{Query: q, Limit: 100})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var have []string
		for _, r := range res.Results {
			have = append(have, r.URL)
		}
		slices.Sort(have)
		rows, err := st.SearchDB().QueryContext(ctx, `SELECT p.url FROM page_fts f JOIN pages p ON p.id = f.rowid
			WHERE page_fts MATCH ? ORDER BY p.url`, native)
		if err != nil {
			t.Fatal(err)
		}
		var ref []string
		for rows.Next() {
			var u string
			if err := rows.Scan(&u); err != nil {
				t.Fatal(err)
			}
			ref = append(ref, u)
		}
		rows.Close()
		if strings.Join(have, " ") != strings.Join(ref, " ") {
			t.Errorf("%s: %v\nFTS5's %s: %v", q, have, native, ref)
		}
	}
}

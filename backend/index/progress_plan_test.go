package index

import (
	"context"
	"strings"
	"testing"
)

// TestRebuildTotalPlan: counting the resources a rebuild walks searches link_rows by its
// index on to_id for each; through the links view (a UNION ALL) SQLite read every link of
// the workspace for each resource (over 4 minutes at 100,000 pages, while the window asked
// for the rebuild's progress).
func TestRebuildTotalPlan(t *testing.T) {
	f := newFixture(t)
	rows, err := f.idx.SearchDB().QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+rebuildTotalSQL)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	searched := false
	for _, d := range plan {
		if strings.Contains(d, "SCAN link_rows") || strings.HasPrefix(d, "MATERIALIZE") {
			t.Errorf("the links are read whole: %q in %q", d, plan)
		}
		searched = searched || strings.Contains(d, "USING COVERING INDEX links_to")
	}
	if !searched {
		t.Errorf("link_rows is not searched by to_id: %q", plan)
	}
}

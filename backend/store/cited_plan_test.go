package store

import (
	"context"
	"strings"
	"testing"
)

// queryPlan returns the details of EXPLAIN QUERY PLAN of query on db.
func queryPlan(t *testing.T, db Querier, query string, args ...any) []string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		out = append(out, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestIndexTextsPlan: whether a shown resource is cited is a search of link_rows by its
// index on to_id, not a reading of every link (through the links view, a UNION ALL,
// SQLite read all of them for each resource: 2.6-5 s a search at 100,000 pages).
// The census of skipped pages (the workspace's counts) asks the same of every resource.
func TestIndexTextsPlan(t *testing.T) {
	st := openTest(t)
	for name, q := range map[string]string{"index texts": indexTextsSQL, "census": censusSQL(`state = 'skipped'`)} {
		var args []any
		if name == "index texts" {
			args = append(args, "[1,2]")
		}
		plan := queryPlan(t, st.ReadDB(), q, args...)
		searched := false
		for _, d := range plan {
			if strings.Contains(d, "SCAN link_rows") || strings.HasPrefix(d, "MATERIALIZE") {
				t.Errorf("%s: the links are read whole: %q in %q", name, d, plan)
			}
			searched = searched || strings.Contains(d, "USING COVERING INDEX links_to")
		}
		if !searched {
			t.Errorf("%s: link_rows is not searched by to_id: %q", name, plan)
		}
	}
}

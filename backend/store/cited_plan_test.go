package store

import (
	"context"
	"strconv"
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

// manyLinks fills st with a workspace of many links: n pages, each linking to the next
// links ones, expanded (the writer's expansion runs behind the crawl) or not, as st holds
// them.
func manyLinks(t *testing.T, st *Store, n, links int) []int64 {
	t.Helper()
	ctx := context.Background()
	cr, err := st.CreateCrawl(ctx, "k", []string{"http://a.test/0"}, "site", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	url := func(i int) string { return "http://a.test/" + strconv.Itoa(i) }
	var seeds []Target
	for i := range n {
		seeds = append(seeds, Target{URL: url(i), Origin: "http://a.test", Kind: "seed"})
	}
	if _, err := st.Enqueue(ctx, cr.ID, seeds); err != nil {
		t.Fatal(err)
	}
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, n)
	for i := range n {
		if ids[i], err = st.PageID(ctx, url(i)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		var ls []Target
		for j := 1; j <= links; j++ {
			ls = append(ls, Target{URL: url((i + j) % n), Origin: "http://a.test", Kind: "a", Follow: true, Pos: j})
		}
		if _, err := st.SaveResult(ctx, &Result{CrawlID: cr.ID, PageID: ids[i], URL: url(i), State: StateFetched,
			Status: 200, Hash: "h" + strconv.Itoa(i), Blob: []byte{1}, Codec: "zstd", Doc: &Doc{Title: "T"},
			Links: ls, ReplaceLinks: true}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	return ids
}

// TestPageSQLPlan: a page's count of links out is a search of link_rows by its key, not a
// reading of every link of the workspace (through the links view, a UNION ALL, SQLite
// read all of them from the correlated count, for every page the window or `page` shows).
func TestPageSQLPlan(t *testing.T) {
	st := openTest(t)
	ids := manyLinks(t, st, 200, 20)
	plan := queryPlan(t, st.ReadDB(), pageSQL, ids[0])
	searched := false
	for _, d := range plan {
		if strings.Contains(d, "SCAN link_rows") || strings.HasPrefix(d, "MATERIALIZE") || strings.Contains(d, "CO-ROUTINE links") {
			t.Errorf("the links are read whole: %q in %q", d, plan)
		}
		searched = searched || strings.HasPrefix(d, "SEARCH link_rows USING") && strings.Contains(d, "(from_id=?)")
	}
	if !searched {
		t.Errorf("link_rows is not searched by from_id: %q", plan)
	}
	p, err := st.Page(context.Background(), ids[0])
	if err != nil || p.Outlinks != 20 || p.Inlinks != 20 {
		t.Fatalf("page %+v, %v", p, err)
	}
}

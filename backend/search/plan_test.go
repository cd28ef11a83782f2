package search

import (
	"context"
	"mundaneum/backend/querysql"
	"mundaneum/backend/searchtest"
	"slices"
	"testing"

	"mundaneum/backend/query"
)

// TestStrategies checks which strategy choose picks for each shape of query, and that the
// text strategies that could run a query with filters (joining each match, or checking it
// against the filters' pages) find the same matches.
func TestStrategies(t *testing.T) {
	st := searchtest.Build(t, bigAndSmall())
	ctx := context.Background()
	s := New(st.SearchDB())
	for _, tc := range []struct {
		q    string
		want strategy
	}{
		{"common", textOnly},
		{"common words", textOnly},
		{"common site:small.test", filtersFirst},   // 3 pages against ~600 matches
		{"common title:/^small$/", filtersFirst},   // a regexp over the matches: its few ids
		{"zeppelin site:small.test", textJoin},     // 3 matches: joining them is cheaper
		{"common site:big.test", textJoin},         // the filter picks most pages
		{"zeppelin OR site:small.test", rankApart}, // text in OR with a filter
		{"site:small.test", filtersOnly},           // no text
		{"-common", filtersOnly},                   // only text left out
		{"site:big.test -zeppelin", filtersOnly},   // negated text joins the filters
		{"common site:small.test -zeppelin", filtersFirst},
	} {
		n := &query.Notes{}
		pl, err := s.plan(ctx, querysql.Parse(tc.q).Root, n)
		if err != nil {
			t.Fatalf("%q: %v", tc.q, err)
		}
		if pl.kind != tc.want {
			t.Errorf("%q: %s, want %s", tc.q, pl.kind, tc.want)
		}
		if pl.kind != textJoin && pl.kind != filtersFirst {
			continue
		}
		var got [2][]int64
		for i, k := range []strategy{textJoin, filtersFirst} {
			pl.kind = k
			if pl.filtered, err = pl.st.filterPages(ctx, s.db, filterSetCap+1); err != nil {
				t.Fatal(err)
			}
			f, err := s.find(ctx, querysql.Parse(tc.q).Root, pl, 20)
			if err != nil {
				t.Fatalf("%q as %s: %v", tc.q, k, err)
			}
			for _, h := range f.hits {
				got[i] = append(got[i], h.id)
			}
			slices.Sort(got[i])
		}
		if !slices.Equal(got[0], got[1]) || len(got[0]) == 0 && tc.q != "zeppelin site:small.test" {
			t.Errorf("%q: joined %v, filters first %v", tc.q, got[0], got[1])
		}
	}
}

package search

import (
	"context"
	"fmt"
	"mundaneum/backend/searchtest"
	"strings"
	"testing"
)

// An estimated total never exceeds what can be true, and paging past the ranked window says
// so (issue 18: "about 965 results" where the index held 928 rows, and --offset 500 printed
// "0-500 of about ..." with nothing).
func TestTotalsAndTheRankedWindow(t *testing.T) {
	var pages []searchtest.Page
	for i := range RankCap + 1 {
		pages = append(pages, searchtest.Page{URL: fmt.Sprintf("http://a.test/w/%d", i), Title: "page", Body: "common words here"})
	}
	// Pages that are not in the index (broken links), then one that is: the rowids of the
	// index leave a gap that an estimate from the first matches' rowids reads as matches.
	for i := range 2 * RankCap {
		pages = append(pages, searchtest.Page{URL: fmt.Sprintf("http://a.test/gone/%d", i), State: "failed", Reason: "not-found", Status: 404})
	}
	pages = append(pages, searchtest.Page{URL: "http://a.test/last", Title: "last", Body: "other words"})
	st := searchtest.Build(t, pages)
	s := New(st.SearchDB())
	ctx := context.Background()
	res, err := s.Search(ctx, Request{Query: "common", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := s.estimator().indexRows(ctx)
	if err != nil || rows != RankCap+2 {
		t.Fatalf("index rows = %d, %v; want %d", rows, err, RankCap+2)
	}
	if !res.TotalApprox || res.Total > int(rows) || res.Total < RankCap+1 {
		t.Errorf("total = %d (approx %v); the index holds %d rows and %d match", res.Total, res.TotalApprox, rows, RankCap+1)
	}
	if res.Window != RankCap {
		t.Errorf("window = %d, want %d", res.Window, RankCap)
	}
	past, err := s.Search(ctx, Request{Query: "common", Limit: 10, Offset: RankCap})
	if err != nil || len(past.Results) != 0 || past.Window != RankCap {
		t.Errorf("past the window: %d results, window %d, %v", len(past.Results), past.Window, err)
	}
	if f, err := s.Search(ctx, Request{Query: "status:404", Limit: 10}); err != nil || f.Window != 0 || f.Total != 2*RankCap {
		t.Errorf("a filter's total %d (window %d), %v: paging reaches all of it", f.Total, f.Window, err)
	}
}

// problem: finds pages by the problems found in their HTML; search results carry why a page
// failed or was skipped.
func TestProblemFieldAndReasons(t *testing.T) {
	st := searchtest.Build(t, []searchtest.Page{
		{URL: "http://a.test/ok", Title: "fine", Body: "alpha"},
		{URL: "http://a.test/untitled", Body: "alpha beta", Problems: []string{"no-title", "bad-link"}},
		{URL: "http://a.test/long", Title: "long", Body: "gamma", Problems: []string{"truncated"}},
		{URL: "http://a.test/gone", State: "failed", Reason: "not-found", Status: 404},
	})
	s := New(st.SearchDB())
	ctx := context.Background()
	res, err := s.Search(ctx, Request{Query: "status:404"})
	if err != nil || len(res.Results) != 1 || res.Results[0].Reason != "not-found" {
		t.Fatalf("status:404 = %+v, %v", res.Results, err)
	}
	for q, want := range map[string]int{"problem:no-title": 1, "problem:bad-link alpha": 1, "problem:any": 2,
		"problem:Truncated": 1, "problem:title": 0, "alpha -problem:no-title": 1} {
		r, err := s.Search(ctx, Request{Query: q})
		if err != nil || r.Total != want || strings.Contains(r.Note, "left out") {
			t.Errorf("%s: %d results (note %q), %v; want %d", q, r.Total, r.Note, err, want)
		}
	}
	if r, _ := s.Search(ctx, Request{Query: "problem:'drop"}); !strings.Contains(r.Note, "left out") {
		t.Errorf("a bad problem: value is not refused: %q", r.Note)
	}
}

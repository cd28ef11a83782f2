package search

import (
	"context"
	"fmt"
	"mundaneum/backend/searchtest"
	"strings"
	"testing"
)

// bigAndSmall is a site of 600 pages of common words, three of them with a rare word and
// one with a common word in its title, and a small site of three pages: its filter picks
// fewer pages than the common word matches.
func bigAndSmall() []searchtest.Page {
	var pages []searchtest.Page
	for i := range 600 {
		p := searchtest.Page{URL: fmt.Sprintf("http://big.test/p%d", i), Title: fmt.Sprintf("page %d", i),
			Body: "plenty of common words here"}
		switch i {
		case 100, 300, 500:
			p.Body += " zeppelin"
		case 450:
			p.Title = "Common knowledge"
		}
		pages = append(pages, p)
	}
	for i := range 3 {
		pages = append(pages, searchtest.Page{URL: fmt.Sprintf("http://small.test/s%d", i), Title: "small", Body: "common words"})
	}
	return pages
}

// TestRankingWithinBudget checks the document-frequency estimates that choose what bm25
// ranks, and the rankings used when a query's words are too common to count.
func TestRankingWithinBudget(t *testing.T) {
	st := searchtest.Build(t, bigAndSmall())
	ctx := context.Background()
	s := New(st.SearchDB())
	e := s.estimator()
	for range 2 { // probed, then cached
		df, err := e.dfs(ctx, []string{`"zeppelin"`, `"common"`, `"nowhere"`, `"zeppelin"`})
		if err != nil {
			t.Fatal(err)
		}
		if n := df[`"zeppelin"`]; n != 3 {
			t.Errorf("df(zeppelin) = %d; want exactly 3", n)
		}
		if n := df[`"common"`]; n < 480 || n > 720 {
			t.Errorf("df(common) = %d; want about 601", n)
		}
		if n, ok := df[`"nowhere"`]; !ok || n != 0 {
			t.Errorf("df(nowhere) = %d, %v", n, ok)
		}
	}
	conj := []conjunct{{expr: `"common"`, atoms: []string{`"common"`}}, {expr: `"zeppelin"`, atoms: []string{`"zeppelin"`}}}
	c, err := e.rankable(ctx, conj, 100)
	if err != nil || c.all(conj) || len(c.ranked) != 1 || c.ranked[0].expr != `"zeppelin"` || c.least != 3 || c.rankedRows != 3 || c.allRows < 483 || c.allRows > 723 {
		t.Errorf("rankable(budget 100) = %+v, %v; want only the rare word, least 3, all about 604", c, err)
	}

	for _, budget := range []int{0, 100, DefaultWeights.RankBudget} {
		w := DefaultWeights
		w.RankBudget = budget
		s := s.WithWeights(w)
		// Too common for bm25 at budget 0: the page with the word in its title comes first.
		res, err := s.Search(ctx, Request{Query: "common", Limit: 5})
		if err != nil || len(res.Results) == 0 || !strings.HasSuffix(res.Results[0].URL, "/p450") || res.Results[0].Score != 1000 {
			t.Errorf("budget %d: common: %+v, %v; want p450 first", budget, res.Results, err)
		}
		if res.Total != 603 {
			t.Errorf("budget %d: common: total %d, want 603", budget, res.Total)
		}
		// The small site's pages are found from its filter (see filterFirst).
		res, err = s.Search(ctx, Request{Query: "common site:small.test", Limit: 5})
		if err != nil || res.Total != 3 || len(res.Results) != 3 || !strings.Contains(res.Results[0].URL, "small.test") {
			t.Errorf("budget %d: common site:small.test: %+v, %v", budget, res, err)
		}
		res, err = s.Search(ctx, Request{Query: "zeppelin site:small.test", Limit: 5})
		if err != nil || res.Total != 0 {
			t.Errorf("budget %d: zeppelin site:small.test: %d results, %v", budget, res.Total, err)
		}
		// A rare word with a common one: exactly the pages with both.
		res, err = s.Search(ctx, Request{Query: "zeppelin common", Limit: 5})
		if err != nil || res.Total != 3 || len(res.Results) != 3 {
			t.Errorf("budget %d: zeppelin common: %d results of %d, %v", budget, len(res.Results), res.Total, err)
		}
	}
}

func TestEstimateTotal(t *testing.T) {
	for _, tc := range []struct {
		n         int
		last, max int64
		want      int
	}{
		{2001, 4002, 1_000_000, 500_000}, // every other row
		{2001, 2001, 2001, 2001},         // the last match is the last row
		{5, 0, 10, 5},
		{2001, 1_000_000, 1_000_000, 2001},
	} {
		if got := estimateTotal(tc.n, tc.last, tc.max); got < tc.want*99/100 || got > tc.want*101/100 {
			t.Errorf("estimateTotal(%d, %d, %d) = %d, want about %d", tc.n, tc.last, tc.max, got, tc.want)
		}
	}
}

// TestManyAtoms: the longest queries (40 words with their stem forms) are probed in
// batches, since SQLite allows 500 terms in a compound SELECT.
func TestManyAtoms(t *testing.T) {
	st := searchtest.Build(t, searchtest.Corpus)
	s := New(st.SearchDB())
	atoms := []string{`"cards"`}
	for i := range 1200 {
		atoms = append(atoms, fmt.Sprintf(`"w%d"`, i))
	}
	df, err := s.estimator().dfs(context.Background(), atoms)
	if err != nil {
		t.Fatal(err)
	}
	if len(df) != len(atoms) || df[`"cards"`] == 0 || df[`"w7"`] != 0 {
		t.Errorf("dfs of %d atoms: %d counted, cards %d, w7 %d", len(atoms), len(df), df[`"cards"`], df[`"w7"`])
	}
	var words []string
	for i := range 60 {
		words = append(words, string(rune('b'+i%20))+string(rune('a'+i/20))+"mp")
	}
	if _, err := s.Search(context.Background(), Request{Query: strings.Join(words, " OR "), Limit: 5}); err != nil {
		t.Fatalf("a query of 60 words: %v", err)
	}
}

// TestSpreadStopsAtThePageAsked checks that a query of common words with few matches stops
// reading the index once the page asked for is full and enough rows were tested, and
// otherwise reads all of it.
func TestSpreadStopsAtThePageAsked(t *testing.T) {
	var pages []searchtest.Page
	for i := range 400 {
		body := "alpha beta gamma"
		if i%100 == 10 {
			body = "beta alpha gamma" // the phrase "beta alpha", in 4 pages spread over the index
		}
		pages = append(pages, searchtest.Page{URL: fmt.Sprintf("http://big.test/p%d", i), Title: "page", Body: body})
	}
	st := searchtest.Build(t, pages)
	ctx := context.Background()
	w := DefaultWeights
	w.RankBudget = 0 // every word is common
	s := New(st.SearchDB()).WithWeights(w)
	res, err := s.Search(ctx, Request{Query: `"beta alpha"`, Limit: 10})
	if err != nil || res.Total != 4 || res.TotalApprox || len(res.Results) != 4 {
		t.Errorf("whole index: %d (approx %v), %d results, %v; want all 4", res.Total, res.TotalApprox, len(res.Results), err)
	}
	w.SpreadRows = 1
	s = s.WithWeights(w)
	res, err = s.Search(ctx, Request{Query: `"beta alpha"`, Limit: 1})
	if err != nil || len(res.Results) != 1 || !strings.HasSuffix(res.Results[0].URL, "/p10") || !res.TotalApprox || res.Total < 4 ||
		!strings.Contains(res.Note, "ranked the 1 found in the first 3% of the index") {
		t.Errorf("first page only: %+v, %v; want p10, an estimated total and a note", res, err)
	}
	// The next page reads on.
	res, err = s.Search(ctx, Request{Query: `"beta alpha"`, Limit: 1, Offset: 1})
	if err != nil || len(res.Results) != 1 || !strings.HasSuffix(res.Results[0].URL, "/p110") {
		t.Errorf("second page: %+v, %v; want p110", res, err)
	}
}

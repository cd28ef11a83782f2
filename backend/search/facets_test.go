package search

import (
	"context"
	"fmt"
	"testing"
)

// Over more than FacetCap matches the facets are estimated from a sample spread over the
// whole index, said to be approximate, and close to the true counts: a host whose pages
// were all crawled last (which counting the first matches never saw) is counted too.
func TestFacetsSampledAcrossTheIndex(t *testing.T) {
	var pages []page
	early, late := 3*FacetCap/2, FacetCap/2
	for i := range early {
		pages = append(pages, page{url: fmt.Sprintf("http://early.test/%d", i), title: "page", body: "common words"})
	}
	for i := range late {
		pages = append(pages, page{url: fmt.Sprintf("http://late.test/%d.pdf", i), title: "page", body: "common words", ctype: "application/pdf"})
	}
	st := workspace(t, pages)
	s := New(st.SearchDB())
	res, err := s.Search(context.Background(), Request{Query: "common", Facets: true, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !res.FacetsApprox {
		t.Fatal("facets over more than FacetCap matches are not said to be approximate")
	}
	got := map[string]int{}
	for _, f := range res.Facets["host"] {
		got[f.Value] = f.Count
	}
	near := func(n, want int) bool { return n >= want*85/100 && n <= want*115/100 }
	if !near(got["early.test"], early) || !near(got["late.test"], late) {
		t.Errorf("host counts %v, want about early.test %d, late.test %d", got, early, late)
	}
}

// Up to FacetCap matches the counts are exact.
func TestFacetsExactUpToTheCap(t *testing.T) {
	var pages []page
	for i := range FacetCap {
		pages = append(pages, page{url: fmt.Sprintf("http://h%d.test/%d", i%3, i), title: "page", body: "common words"})
	}
	st := workspace(t, pages)
	res, err := New(st.SearchDB()).Search(context.Background(), Request{Query: "common", Facets: true, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, f := range res.Facets["host"] {
		sum += f.Count
	}
	if res.FacetsApprox || sum != FacetCap {
		t.Errorf("approx %v, host counts sum to %d, want exactly %d", res.FacetsApprox, sum, FacetCap)
	}
}

package search

import (
	"context"
	"fmt"
	"mundaneum/backend/searchtest"
	"reflect"
	"strings"
	"testing"
)

// Over more than FacetCap matches the facets are estimated from a sample spread over the
// whole index, said to be approximate, and close to the true counts: a host whose pages
// were all crawled last (which counting the first matches never saw) is counted too.
func TestFacetsSampledAcrossTheIndex(t *testing.T) {
	var pages []searchtest.Page
	early, late := 3*FacetCap/2, FacetCap/2
	for i := range early {
		pages = append(pages, searchtest.Page{URL: fmt.Sprintf("http://early.test/%d", i), Title: "page", Body: "common words"})
	}
	for i := range late {
		pages = append(pages, searchtest.Page{URL: fmt.Sprintf("http://late.test/%d.pdf", i), Title: "page", Body: "common words", CType: "application/pdf"})
	}
	st := searchtest.Build(t, pages)
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
	var pages []searchtest.Page
	for i := range FacetCap {
		pages = append(pages, searchtest.Page{URL: fmt.Sprintf("http://h%d.test/%d", i%3, i), Title: "page", Body: "common words"})
	}
	st := searchtest.Build(t, pages)
	res, err := New(st.SearchDB()).Search(context.Background(), Request{Query: "common", Facets: true, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	sum := countOf(res.Facets["host"])
	if res.FacetsApprox || sum != FacetCap {
		t.Errorf("approx %v, host counts sum to %d, want exactly %d", res.FacetsApprox, sum, FacetCap)
	}
}

// Up to FacetCap matches the counts are exact however the matches are spread over the
// index: here they all sit in its second half, more than a window's first share in each
// window, and the budget the empty windows leave goes to the full ones.
func TestFacetsExactWhenBunched(t *testing.T) {
	var pages []searchtest.Page
	for i := range FacetCap {
		pages = append(pages, searchtest.Page{URL: fmt.Sprintf("http://other.test/%d", i), Title: "page", Body: "other words"})
	}
	want := FacetCap * 9 / 10
	for i := range want {
		pages = append(pages, searchtest.Page{URL: fmt.Sprintf("http://h%d.test/%d", i%2, i), Title: "page", Body: "bunched words"})
	}
	st := searchtest.Build(t, pages)
	res, err := New(st.SearchDB()).Facets(context.Background(), "bunched")
	if err != nil {
		t.Fatal(err)
	}
	sum := countOf(res.Facets["host"])
	if res.Approx || sum != want {
		t.Errorf("approx %v, host counts sum to %d, want exactly %d", res.Approx, sum, want)
	}
}

// Facets, the window's second request, counts what Search with Request.Facets counts, for
// every kind of query (text, filters only, OR, NOT, phrases, a typo Search corrects, one
// that matches nothing), exact or sampled.
func TestFacetsAloneAgreeWithSearch(t *testing.T) {
	var pages []searchtest.Page
	for i := range FacetCap + FacetCap/2 {
		p := searchtest.Page{URL: fmt.Sprintf("http://h%d.test/%d", i%5, i), Title: "page", Body: "common words"}
		switch {
		case i%7 == 0:
			p.Body += " rarer cataloguing"
		case i%11 == 0:
			p.URL += ".pdf"
			p.CType = "application/pdf"
		case i%13 == 0:
			p.State, p.Reason, p.Status = "failed", "http", 404
		}
		pages = append(pages, p)
	}
	st := searchtest.Build(t, pages)
	s := New(st.SearchDB())
	ctx := context.Background()
	for _, q := range []string{"common", "rarer", "site:h1.test", "type:pdf", "rarer OR pdf", "common -rarer",
		`"rarer cataloguing"`, "site:h2.test rarer", "catalogueing", "zzzzqqq", "", "title:page is:failed",
		"common type:pdf", "common ext:ps", "site:h3.test common -rarer"} {
		want, err := s.Search(ctx, Request{Query: q, Limit: 1, Facets: true})
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Facets(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Facets, want.Facets) && !(len(got.Facets) == 0 && len(want.Facets) == 0) ||
			got.Approx != want.FacetsApprox || got.Corrected != want.Corrected {
			t.Errorf("%q: Facets gives %v (approx %v, corrected %v), Search %v (approx %v, corrected %v)",
				q, got.Facets, got.Approx, got.Corrected, want.Facets, want.FacetsApprox, want.Corrected)
		}
	}
}

// A filter that an index answers host by host (site: over several hosts) is sampled in id
// order too: with two hosts' pages interleaved, reading in the index's order (one host's
// pages, then the other's) would find only the first host in every window.
func TestFacetsSampleFiltersInIDOrder(t *testing.T) {
	var pages []searchtest.Page
	n := 2 * FacetCap
	for i := range n {
		h := "b.example.test"
		if i%2 == 0 {
			h = "a.example.test"
		}
		pages = append(pages, searchtest.Page{URL: fmt.Sprintf("http://%s/%d", h, i), Title: "page", Body: "words"})
	}
	st := searchtest.Build(t, pages)
	res, err := New(st.SearchDB()).Facets(context.Background(), "site:example.test")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, f := range res.Facets["host"] {
		got[f.Value] = f.Count
	}
	near := func(n, want int) bool { return n >= want*85/100 && n <= want*115/100 }
	if !res.Approx || !near(got["a.example.test"], n/2) || !near(got["b.example.test"], n/2) {
		t.Errorf("approx %v, host counts %v, want about %d each", res.Approx, got, n/2)
	}
}

// countOf sums the counts of one facet's values.
func countOf(fs []FacetCount) int {
	sum := 0
	for _, f := range fs {
		sum += f.Count
	}
	return sum
}

// A text query whose filters pick few pages (one site, one type) or none has its facets
// counted exactly, from the text's matches checked against those pages.
func TestFacetsOfFewFilteredPages(t *testing.T) {
	var pages []searchtest.Page
	want := map[string]int{} // pdf pages with the word, by host
	for i := range 3 * FacetCap {
		p := searchtest.Page{URL: fmt.Sprintf("http://h%d.test/%d", i%4, i), Title: "page", Body: "common words"}
		if i%9 == 0 {
			p.URL += ".pdf"
			p.CType = "application/pdf"
			if i%2 == 0 {
				p.Body = "other words"
			} else {
				want[fmt.Sprintf("h%d.test", i%4)]++
			}
		}
		pages = append(pages, p)
	}
	st := searchtest.Build(t, pages)
	s := New(st.SearchDB())
	ctx := context.Background()
	res, err := s.Facets(ctx, "common type:pdf")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, f := range res.Facets["host"] {
		got[strings.TrimPrefix(strings.TrimPrefix(f.Value, "http://"), "https://")] = f.Count
	}
	if res.Approx || !reflect.DeepEqual(got, want) || countOf(res.Facets["type"]) != countOf(res.Facets["host"]) {
		t.Errorf("common type:pdf: approx %v, hosts %v, want %v; types %v", res.Approx, got, want, res.Facets["type"])
	}
	none, err := s.Facets(ctx, "common ext:ps")
	if err != nil {
		t.Fatal(err)
	}
	if len(none.Facets) != 0 || none.Approx {
		t.Errorf("common ext:ps matches nothing, facets %v (approx %v)", none.Facets, none.Approx)
	}
}

package search

import (
	"context"
	"mundaneum/backend/searchtest"
	"slices"
	"testing"
)

// TestApproximate checks word~N against a real index: the terms within N edits match, the
// others do not, fields still apply, and the snippet marks the approximate words.
func TestApproximate(t *testing.T) {
	st := searchtest.Build(t, searchtest.Corpus)
	s := New(st.SearchDB())
	ctx := context.Background()
	urls := func(q string) []string {
		t.Helper()
		res, err := s.Search(ctx, Request{Query: q, Limit: 20})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if res.Corrected {
			t.Fatalf("%q was corrected to %q: an approximate word needs no did-you-mean", q, res.DidYouMean)
		}
		var out []string
		for _, r := range res.Results {
			out = append(out, r.URL)
		}
		return out
	}
	for _, tc := range []struct {
		q         string
		has, hasn []string
	}{
		{"otlett~1", []string{"http://a.test/otlet"}, nil},                                   // one letter added
		{"otelt~1", []string{"http://a.test/otlet"}, nil},                                    // two letters swapped
		{"clasificaton~2", []string{"http://a.test/near", "http://c.test/report.pdf"}, nil},  // two left out
		{"title:belgain~1", []string{"http://www.b.test/"}, []string{"http://a.test/otlet"}}, // title only
		{"xotlet~1", []string{"http://a.test/otlet"}, nil},                                   // an edit at the first letter
	} {
		got := urls(tc.q)
		for _, u := range tc.has {
			if !slices.Contains(got, u) {
				t.Errorf("%q = %v, want %s among them", tc.q, got, u)
			}
		}
		for _, u := range tc.hasn {
			if slices.Contains(got, u) {
				t.Errorf("%q = %v, must not hold %s", tc.q, got, u)
			}
		}
	}
}

package search

import (
	"context"
	"fmt"
	"mundaneum/backend/searchtest"
	"testing"
	"time"
)

// TestCitationCache checks that results ranked from the in-memory citation counts are those
// ranked from the citations table, and that the counts follow new links once a minute old.
func TestCitationCache(t *testing.T) {
	ctx := context.Background()
	w := searchtest.New(t)
	w.Add(searchtest.Corpus...)
	table := New(w.SearchDB())
	table.cites.minPages = 1 << 62 // never cached
	cached := New(w.SearchDB())
	cached.cites.minPages = 0
	waitLoaded := func() {
		t.Helper()
		for range 500 {
			cached.cites.mu.Lock()
			done := cached.cites.n != nil && !cached.cites.loading
			cached.cites.mu.Unlock()
			if done {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatal("the citation counts never loaded")
	}
	same := func(q string) {
		t.Helper()
		want, got := searchT(t, table, q), searchT(t, cached, q)
		if fmt.Sprint(pageScores(want)) != fmt.Sprint(pageScores(got)) {
			t.Fatalf("%q: cached counts rank %v, the table %v", q, pageScores(got), pageScores(want))
		}
	}
	searchT(t, cached, "mundaneum") // the first query reads the table
	if cached.cites.n != nil || cached.cites.loading {
		t.Fatal("the first query started loading the counts")
	}
	searchT(t, cached, "mundaneum") // the second starts the load
	waitLoaded()
	for _, q := range []string{"mundaneum", "cards", "classification", "otlet OR belgian"} {
		same(q)
	}
	hits := []hit{{id: 1}}
	maxPage, err := cached.estimator().maxRowid(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c1, err := cached.cites.citing(ctx, cached.db, maxPage, hits)
	if err != nil || c1[1] == 0 {
		t.Fatalf("citations of the home page = %v, %v", c1, err)
	}

	// More pages cite the home page: the counts follow once they are a minute old.
	var more []searchtest.Page
	for i := range 5 {
		more = append(more, searchtest.Page{URL: fmt.Sprintf("http://e.test/%d", i), Title: "citing", Body: "a page citing the Mundaneum",
			Links: []searchtest.Link{{To: "http://a.test/", Anchor: "the Mundaneum"}}})
	}
	w.Add(more...)
	cached.cites.mu.Lock()
	cached.cites.at = time.Now().Add(-2 * citeCacheTTL)
	cached.cites.mu.Unlock()
	searchT(t, cached, "mundaneum")
	waitLoaded()
	c2, err := cached.cites.citing(ctx, cached.db, maxPage, hits)
	if err != nil || c2[1] != c1[1]+5 {
		t.Fatalf("citations of the home page after 5 more links = %v, want %d (%v)", c2, c1[1]+5, err)
	}
	same("mundaneum")
}

func pageScores(r Results) []string {
	var out []string
	for _, x := range r.Results {
		out = append(out, fmt.Sprintf("%s=%d", x.URL, x.Score))
	}
	return out
}

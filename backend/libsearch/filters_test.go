package libsearch

import (
	"context"
	"slices"
	"testing"

	vlib "mundaneum/backend/library"
	"mundaneum/backend/search"
	"mundaneum/backend/searchtest"
)

// TestFiltersAgreeWithPages files a pointer to every page of a workspace and checks that
// site: and host: pick the same URLs among the library's postings as among the pages: the
// two searches read their filters from one table. A URL whose path or query names another
// host is that other host's in neither.
func TestFiltersAgreeWithPages(t *testing.T) {
	urls := []string{
		"http://h.test/a", "https://h.test/b", "http://h.test:8080/c", "http://www.h.test/d", "https://sub.h.test:8443/e",
		"http://x.test/mirror/www.h.test/f", "http://x.test/go?to=http://h.test:8080/g", "http://notmy-h.test/h",
		"http://x.test/h.test/i",
	}
	var pages []searchtest.Page
	for _, u := range urls {
		pages = append(pages, searchtest.Page{URL: u, Title: "words", Body: "words"})
	}
	w := searchtest.Build(t, pages)
	ctx := context.Background()
	l := vlib.New(w.Store)
	for _, u := range urls {
		if _, err := l.Point(ctx, vlib.RootID, vlib.PointerInput{URL: u, Title: "words"}); err != nil {
			t.Fatal(err)
		}
	}
	pagesOf, postingsOf := search.New(w.SearchDB()), New(w.SearchDB())
	for _, q := range []string{"site:h.test", "host:h.test", "host:h.test:8080", "site:h.test:8443", "host:www.h.test",
		"site:x.test", "host:h.test:80", "-site:x.test words"} {
		res, err := pagesOf.Search(ctx, search.Request{Query: q, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, r := range res.Results {
			want = append(want, r.URL)
		}
		lib, err := postingsOf.Search(ctx, Request{Query: q, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range lib.Hits {
			got = append(got, h.URL)
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: library %v, pages %v", q, got, want)
		}
	}
}

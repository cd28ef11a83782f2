package search

import (
	"context"
	"errors"
	"fmt"
	"mundaneum/backend/searchtest"
	"slices"
	"strings"
	"testing"

	"mundaneum/backend/store"
)

func searchT(t *testing.T, s *Searcher, q string) Results {
	t.Helper()
	res, err := s.Search(context.Background(), Request{Query: q, Limit: 50})
	if err != nil {
		t.Fatalf("search %q: %v", q, err)
	}
	return res
}

func urls(res Results) []string {
	var out []string
	for _, r := range res.Results {
		out = append(out, strings.TrimPrefix(r.URL, "http://"))
	}
	slices.Sort(out)
	return out
}

// TestQueryLanguage runs every query with the default ranking budget, with none (every
// word too common for bm25: field scores) and with a budget of a few rows (the rarest
// words ranked, the others filtering): the matches must be the same.
func TestQueryLanguage(t *testing.T) {
	st := searchtest.Build(t, searchtest.Corpus)
	searchtest.Shelve(t, st.Store)
	for _, budget := range []int{DefaultWeights.RankBudget, 0, 3} {
		w := DefaultWeights
		w.RankBudget = budget
		t.Run(fmt.Sprintf("budget=%d", budget), func(t *testing.T) {
			testQueryLanguage(t, New(st.SearchDB()).WithWeights(w))
		})
	}
}

// TestQueryLanguageWhileLinksArePacked runs the queries while every link of the workspace
// waits packed for its expansion (the store's linkpack.go): the link filters and the
// citations that rank the hits read the packs too.
func TestQueryLanguageWhileLinksArePacked(t *testing.T) {
	st := searchtest.NewWith(t, store.Options{HoldLinks: true})
	st.Add(searchtest.Corpus...)
	searchtest.Shelve(t, st.Store)
	if err := st.RepackLinks(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n, err := st.PendingLinks(context.Background()); err != nil || n < 5 {
		t.Fatalf("%d pages with packed links, %v", n, err)
	}
	s := New(st.SearchDB())
	testQueryLanguage(t, s)
	scores := func() []string {
		var out []string
		for _, q := range []string{"mundaneum", "classification", "cards"} {
			res, err := s.Search(context.Background(), Request{Query: q, Limit: 50, Explain: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res.Results {
				out = append(out, fmt.Sprintf("%s %s %d %s", q, r.URL, r.Score, r.Explain))
			}
		}
		return out
	}
	packed := scores()
	// Wait expands the packs and waits until the index has taken in what the expansion
	// noted (the rows whose anchor text it changed).
	if err := st.Index.Wait(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if n, err := st.PendingLinks(context.Background()); err != nil || n != 0 {
		t.Fatalf("%d pages with packed links after the expansion, %v", n, err)
	}
	if expanded := scores(); !slices.Equal(packed, expanded) {
		t.Fatalf("ranked while packed:\n%s\nexpanded:\n%s", strings.Join(packed, "\n"), strings.Join(expanded, "\n"))
	}
}

func testQueryLanguage(t *testing.T, s *Searcher) {
	for _, tc := range []struct {
		q    string
		want []string // sorted, without http://
		note string   // a substring of the note, if any
	}{
		{q: "otlet", want: []string{"a.test/", "a.test/otlet"}},
		{q: "paul otlet", want: []string{"a.test/", "a.test/otlet"}},
		{q: `"card index"`, want: []string{"a.test/"}},
		{q: "belgian", want: []string{"a.test/otlet", "www.b.test/", "www.b.test/archive.zip"}},
		{q: "belgian -otlet", want: []string{"www.b.test/", "www.b.test/archive.zip"}},
		{q: "belgian NOT otlet NOT archive", want: []string{"www.b.test/"}},
		{q: "brussels OR mons", want: []string{"a.test/", "www.b.test/"}},
		{q: "(brussels OR author) cards", want: []string{"a.test/otlet", "www.b.test/"}},
		{q: "bibliog*", want: []string{"a.test/"}},
		{q: "NEAR(decimal classification, 2)", want: []string{"c.test/report.pdf", "deep.www.b.test/page.html"}},
		{q: "NEAR(decimal classification, 20)", want: []string{"a.test/near", "c.test/report.pdf", "deep.www.b.test/page.html"}},
		{q: "title:cards", want: []string{"a.test/cards"}},
		{q: "title:(otlet OR libraries)", want: []string{"a.test/otlet", "www.b.test/"}},
		{q: "anchor:mons", want: []string{"a.test/"}},
		{q: "body:mons", want: nil},
		{q: "url:report", want: []string{"c.test/report.pdf"}},
		{q: "site:b.test", want: []string{"deep.www.b.test/page.html", "www.b.test/", "www.b.test/archive.zip"}},
		{q: "site:www.b.test classification", want: []string{"deep.www.b.test/page.html"}},
		{q: "classification -site:b.test", want: []string{"a.test/cards", "a.test/near", "c.test/report.pdf"}},
		{q: "ext:mpg", want: []string{"a.test/film.mpg"}},
		{q: "type:video", want: []string{"a.test/film.mpg"}},
		{q: "type:image", want: []string{"a.test/photo.jpg"}},
		{q: "type:pdf", want: []string{"c.test/report.pdf"}},
		{q: "type:archive archive", want: []string{"www.b.test/archive.zip"}},
		{q: "catalogue", want: []string{"a.test/photo.jpg"}},
		{q: "mundaneum type:video", want: []string{"a.test/film.mpg"}},
		{q: "inlinks:http://www.b.test/", want: []string{"a.test/", "www.b.test/archive.zip"}},
		{q: "inlinks:www.b.test", want: []string{"a.test/", "www.b.test/archive.zip"}},
		{q: "linkto:a.test/otlet", want: []string{"a.test/"}},
		{q: "before:1995 mundaneum", want: []string{"a.test/"}},
		{q: "after:2022-01 otlet", want: []string{"a.test/otlet"}},
		{q: "status:404", want: []string{"a.test/gone"}},
		{q: "status:4xx", want: []string{"a.test/gone", "a.test/slow"}},
		{q: "is:broken", want: []string{"a.test/gone"}},
		{q: "is:redirect", want: []string{"a.test/moved"}},
		{q: "lang:en classification", want: []string{"a.test/near"}},
		{q: "lang:fr", want: []string{"a.test/"}},
		{q: "crawl:1 brussels", want: []string{"www.b.test/"}},
		{q: "crawl:2 brussels", want: nil},
		{q: `url:/b\.test/.*\.html$/`, want: []string{"deep.www.b.test/page.html"}},
		{q: `title:/^index/ classification`, want: []string{"a.test/cards"}},
		{q: `classification -url:/\.pdf$/ -site:b.test`, want: []string{"a.test/cards", "a.test/near"}},
		{q: `brussels OR url:/\.pdf$/`, want: []string{"c.test/report.pdf", "www.b.test/"}},
		{q: "brussels OR site:c.test", want: []string{"c.test/report.pdf", "www.b.test/"}},
		{q: "folder:/Research otlet", want: []string{"a.test/otlet"}},
		{q: "folder:/Research brussels", want: []string{"www.b.test/"}},
		{q: "folder:/Research/Belgium", want: []string{"www.b.test/"}},
		{q: "folder:#2", want: []string{"a.test/otlet", "www.b.test/"}},
		{q: "tag:People", want: []string{"a.test/otlet"}},
		{q: "otlet -tag:people", want: []string{"a.test/"}},
		{q: "otlet OR tag:places", want: []string{"a.test/", "a.test/otlet", "www.b.test/"}},
		{q: "folder:/Nowhere otlet", want: nil, note: "not a library"},
		{q: "foo:otlet", want: nil, note: "no field foo"},
		{q: `"unclosed otlet`, want: nil, note: "quote"},
		{q: `(otlet OR brussels`, want: []string{"a.test/", "a.test/otlet", "www.b.test/"}, note: "parenthesis"},
		{q: "otlet OR", want: []string{"a.test/", "a.test/otlet"}, note: "OR"},
		{q: "connect", want: []string{"a.test/cards", "a.test/otlet"}},
		{q: `"connect"`, want: []string{"a.test/otlet"}, note: "showing results for \"connected\""},
		{q: "host:www.b.test", want: []string{"www.b.test/", "www.b.test/archive.zip"}},
	} {
		res := searchT(t, s, tc.q)
		if got := urls(res); !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %v, want %v (note %q)", tc.q, got, tc.want, res.Note)
		}
		if res.Total != len(res.Results) {
			t.Errorf("%q: total %d, %d results", tc.q, res.Total, len(res.Results))
		}
		if tc.note != "" && !strings.Contains(res.Note, tc.note) {
			t.Errorf("%q: note %q, want it to mention %q", tc.q, res.Note, tc.note)
		}
	}
}

func TestRankingAndPresentation(t *testing.T) {
	st := searchtest.Build(t, searchtest.Corpus)
	s := New(st.SearchDB())
	res := searchT(t, s, "mundaneum")
	if len(res.Results) < 3 || res.Results[0].URL != "http://a.test/" || res.Results[0].Score != 1000 {
		t.Fatalf("best hit %+v: the title match cited by every page should win with 1000", res.Results)
	}
	for i, r := range res.Results {
		if r.Score <= 0 || r.Score > 1000 || (i > 0 && r.Score > res.Results[i-1].Score) {
			t.Errorf("score %d at %d out of order", r.Score, i)
		}
		if r.Host == "" || r.Type == "" {
			t.Errorf("%s: host %q type %q", r.URL, r.Host, r.Type)
		}
		hit := false
		for i, frag := range r.Snippet {
			if i%2 == 1 {
				hit = true
				if !strings.EqualFold(frag, "mundaneum") {
					t.Errorf("%s: highlighted %q", r.URL, frag)
				}
			}
		}
		if !hit {
			t.Errorf("%s: no highlight in %q", r.URL, r.Snippet)
		}
	}
	// Link-only resources are results, with their type.
	film := searchT(t, s, "film")
	if len(film.Results) != 1 || film.Results[0].Type != "video" || film.Results[0].State != "skipped" {
		t.Fatalf("film = %+v", film.Results)
	}
	// Duplicates collapse into one result that counts its copies.
	dup := searchT(t, s, "connections")
	var cards *Result
	for i, r := range dup.Results {
		if strings.HasPrefix(r.URL, "http://a.test/c") {
			if cards != nil {
				t.Fatalf("duplicates not collapsed: %v", urls(dup))
			}
			cards = &dup.Results[i]
		}
	}
	if cards == nil || cards.Copies != 2 {
		t.Fatalf("cards = %+v", cards)
	}
	// Stemming: the exact word ranks first.
	if dup.Results[0].URL != "http://a.test/cards" {
		t.Errorf("connections: exact match should rank first, got %v", urls(dup))
	}
	// Forged markers in a page were dropped at indexing: only the real match is marked.
	forged := searchT(t, s, "forged")
	if len(forged.Results) != 1 || strings.Join(forged.Results[0].Snippet, "|") != "mundaneum fake mark |forged|" {
		t.Fatalf("hostile page snippet = %q", forged.Results[0].Snippet)
	}
	// Where the body does not hold the query's words, the snippet comes from what links
	// say: the anchors of a page, and of a resource known only from links.
	for q, want := range map[string]string{"mons": "Mundaneum in |Mons|", "archive": "the |archive|"} {
		res := searchT(t, s, q)
		if len(res.Results) != 1 || !strings.Contains(strings.Join(res.Results[0].Snippet, "|"), want) {
			t.Errorf("%s: snippet %+v, want %q in it", q, res.Results, want)
		}
	}
	// A result matched by a filter only shows the start of its text.
	site := searchT(t, s, "site:c.test")
	if len(site.Results) != 1 || !strings.HasPrefix(strings.Join(site.Results[0].Snippet, ""), "report on") {
		t.Fatalf("filter-only snippet = %+v", site.Results)
	}
	// Paging keeps scores relative to the best hit of the whole query.
	page2, err := s.Search(context.Background(), Request{Query: "mundaneum", Limit: 1, Offset: 1})
	if err != nil || len(page2.Results) != 1 || page2.Results[0].Score != res.Results[1].Score || page2.Total != res.Total {
		t.Fatalf("page 2 = %+v, %v", page2, err)
	}
	for _, q := range []string{"", "   ", `"`, "*", "-", "AND OR NOT", "()"} {
		res := searchT(t, s, q)
		if len(res.Results) != 0 {
			t.Errorf("query %q: %d results", q, len(res.Results))
		}
	}
	// A query of only exclusions shows everything else, and says so.
	neg := searchT(t, s, "-mundaneum -otlet")
	if len(neg.Results) == 0 || !strings.Contains(neg.Note, "leave out") {
		t.Errorf("only negations: %v, note %q", urls(neg), neg.Note)
	}
	for _, r := range neg.Results {
		if r.URL == "http://a.test/" || r.URL == "http://a.test/otlet" {
			t.Errorf("only negations: %s should be left out", r.URL)
		}
	}
}

func TestFacets(t *testing.T) {
	st := searchtest.Build(t, searchtest.Corpus)
	s := New(st.SearchDB())
	res, err := s.Search(context.Background(), Request{Query: "classification OR cards OR mundaneum", Facets: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.FacetsApprox {
		t.Error("facets approximate on a small index")
	}
	count := func(facet, value string) int {
		for _, f := range res.Facets[facet] {
			if f.Value == value {
				return f.Count
			}
		}
		return 0
	}
	if count("host", "a.test") < 4 || count("host", "c.test") != 1 || count("type", "pdf") != 1 ||
		count("type", "video") != 1 || count("crawl", "1") != res.Total || count("status", "200") == 0 {
		t.Fatalf("facets = %+v", res.Facets)
	}
	for _, fc := range res.Facets["host"] {
		narrowed := searchT(t, s, "(classification OR cards OR mundaneum) "+fc.Refine)
		if narrowed.Total != fc.Count {
			t.Errorf("refine %q: %d results, facet said %d", fc.Refine, narrowed.Total, fc.Count)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	st := searchtest.Build(t, searchtest.Corpus)
	s := New(st.SearchDB())
	res := searchT(t, s, "mundanuem otlet")
	if !res.Corrected || res.DidYouMean != "mundaneum otlet" || len(res.Results) != 1 {
		t.Fatalf("got corrected=%v didYouMean=%q results %v note %q", res.Corrected, res.DidYouMean, urls(res), res.Note)
	}
	res = searchT(t, s, "title:libaries")
	if !res.Corrected || res.DidYouMean != "title:libraries" || len(res.Results) != 1 {
		t.Fatalf("got corrected=%v didYouMean=%q", res.Corrected, res.DidYouMean)
	}
	// Known words are left alone; nothing close means no suggestion.
	res = searchT(t, s, "otlet brussels")
	if res.Corrected || res.DidYouMean != "" || res.Total != 0 {
		t.Fatalf("got %+v", res)
	}
	res = searchT(t, s, "zzzzqqqq")
	if res.DidYouMean != "" {
		t.Fatalf("got %q", res.DidYouMean)
	}
	// A rare word with its first letter wrong, in a small segment of its own.
	res = searchT(t, New(searchtest.Segments(t).SearchDB()), "figures xeugma")
	if !res.Corrected || res.DidYouMean != "figures zeugma" || len(res.Results) != 1 {
		t.Errorf("corrected %v, did you mean %q", res.Corrected, res.DidYouMean)
	}
}

func TestViews(t *testing.T) {
	ctx := context.Background()
	w := searchtest.New(t)
	w.Add(searchtest.Corpus...)
	st := w
	s := New(st.SearchDB())
	if _, _, err := SaveView(ctx, st, "  ", "x", false); err == nil {
		t.Fatal("saved a view without a name")
	}
	v, _, err := SaveView(ctx, st, "classification", "classification", false)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := ListViews(ctx, st)
	if err != nil || len(vs) != 1 || vs[0].Name != "classification" || vs[0].ID != v.ID {
		t.Fatalf("views = %+v, %v", vs, err)
	}
	// The pages were indexed before the view was saved: none is new.
	o, err := s.OpenView(ctx, st, "classification", Request{})
	if err != nil {
		t.Fatal(err)
	}
	if o.Results.Total != 4 || o.New != 0 {
		t.Fatalf("first open: total %d new %d", o.Results.Total, o.New)
	}
	// A page that appears after the last opening is new, once.
	w.Add(searchtest.Page{URL: "http://e.test/", Title: "New classification", Body: "fresh"})
	o, err = s.OpenView(ctx, st, "classification", Request{})
	if err != nil {
		t.Fatal(err)
	}
	if o.Results.Total != 5 || o.New != 1 {
		t.Fatalf("second open: total %d new %d", o.Results.Total, o.New)
	}
	// Each result says whether it is the new one (issue 18: only a count said so).
	for _, r := range o.Results.Results {
		if r.New != (r.URL == "http://e.test/") {
			t.Errorf("%s: new = %v", r.URL, r.New)
		}
	}
	o, _ = s.OpenView(ctx, st, "classification", Request{})
	if o.New != 0 {
		t.Fatalf("third open: new %d", o.New)
	}
	got, _ := st.ViewNamed(ctx, "classification")
	if got.OpenedAt == 0 || got.LastTotal != 5 {
		t.Fatalf("after open: %+v", got)
	}
	// Saving over a view needs replace, and starts its baseline again (issue 18).
	if _, _, err := SaveView(ctx, st, "classification", "index", false); !errors.Is(err, ErrViewExists) ||
		!strings.Contains(err.Error(), "its query: classification") {
		t.Fatalf("saved over a view without replace: %v", err)
	}
	nv, replaced, err := SaveView(ctx, st, "classification", "fresh", true)
	if err != nil || !replaced || nv.Query != "fresh" || nv.OpenedAt != 0 || nv.LastTotal != 0 || nv.ID != v.ID {
		t.Fatalf("replaced view = %+v (replaced %v), %v", nv, replaced, err)
	}
	if err := DeleteView(ctx, st, "classification"); err != nil {
		t.Fatal(err)
	}
	if err := DeleteView(ctx, st, "classification"); err == nil {
		t.Fatal("deleted a view twice")
	}
	if _, err := s.OpenView(ctx, st, "nope", Request{}); err == nil {
		t.Fatal("opened a missing view")
	}
}

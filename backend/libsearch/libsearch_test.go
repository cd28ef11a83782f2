package libsearch

import (
	"context"
	"mundaneum/backend/searchtest"
	"slices"
	"strings"
	"testing"

	vlib "mundaneum/backend/library"
)

func TestLibraryHits(t *testing.T) {
	st := searchtest.Build(t, searchtest.Corpus)
	searchtest.Shelve(t, st.Store)
	s := New(st.SearchDB())
	ctx := context.Background()
	for _, tc := range []struct {
		q    string
		in   int64
		want []string // titles, best first
	}{
		{q: "otlet", want: []string{"Paul Otlet", "Card indexes"}},
		{q: "classification", want: []string{"A report", "Card indexes"}},
		{q: "classifications", want: []string{"A report", "Card indexes"}}, // stems
		{q: "classification", in: 2, want: []string{"Card indexes"}},
		{q: "folder:/Research", want: []string{"Card indexes", "Belgian libraries", "Paul Otlet", "Belgium"}},
		{q: "tag:places", want: []string{"Belgian libraries"}},
		{q: "title:otlet", want: []string{"Paul Otlet"}},
		{q: "otlet -people", want: []string{"Card indexes"}},
		{q: "otlet -tag:people", want: []string{"Card indexes"}},
		{q: "site:b.test", want: []string{"Belgian libraries"}},
		{q: "url:pdf", want: []string{"A report"}},
		{q: "mundaneum OR tag:places", want: []string{"Belgian libraries", "Paul Otlet"}}, // no text to rank by: newest first
		{q: "status:404 otlet", want: nil},                                                // about pages
		{q: "anchor:otlet", want: nil},
		{q: "folder:/Nowhere otlet", want: nil},
	} {
		res, err := s.Search(ctx, Request{Query: tc.q, In: tc.in})
		if err != nil {
			t.Fatalf("%q: %v", tc.q, err)
		}
		var got []string
		for _, h := range res.Hits {
			got = append(got, h.Title)
		}
		if !slices.Equal(got, tc.want) || res.Total != len(tc.want) {
			t.Errorf("%q in #%d: got %v (%d), want %v", tc.q, tc.in, got, res.Total, tc.want)
		}
	}
	res, err := s.Search(ctx, Request{Query: "mundaneum"})
	if err != nil || len(res.Hits) != 1 {
		t.Fatal(res, err)
	}
	h := res.Hits[0]
	if h.Path != "/Research/Paul Otlet" || h.PageID == 0 || h.Status != 200 || !slices.Equal(h.Tags, []string{"people"}) ||
		!strings.Contains(strings.Join(h.Snippet, "|"), "|Mundaneum|") {
		t.Errorf("hit %+v", h)
	}
}

// folder:, tag: and the search scope narrow the text match inside lib_fts (the node path is
// indexed, migration 0020); the SQL condition still decides, and numbers in a query do not
// match the ids of the path.
func TestLibraryFolderAndTagInTheIndex(t *testing.T) {
	st := searchtest.Build(t, searchtest.Corpus)
	searchtest.Shelve(t, st.Store)
	ctx := context.Background()
	l := vlib.New(st.Store)
	elsewhere, err := l.Resolve(ctx, "/Elsewhere")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Point(ctx, elsewhere.ID, vlib.PointerInput{URL: "http://d.test/", Title: "Lab notes 2", Tags: []string{"R&D", "how-to"}}); err != nil {
		t.Fatal(err)
	}
	s := New(st.SearchDB())
	check := func(q string, in int64, want ...string) {
		t.Helper()
		res, err := s.Search(ctx, Request{Query: q, In: in})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		var got []string
		for _, h := range res.Hits {
			got = append(got, h.Title)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q in #%d: got %v, want %v", q, in, got, want)
		}
	}
	check("folder:/Research otlet", 0, "Paul Otlet", "Card indexes")
	check("folder:/Research/Belgium libraries", 0, "Belgian libraries")
	check("folder:/Elsewhere libraries", 0)
	check("libraries", 2, "Belgian libraries")
	check("tag:R&D lab", 0, "Lab notes 2")
	check("tag:how-to lab", 0, "Lab notes 2")
	check("tag:how lab", 0) // the tag is how-to: its words are not the tag
	check("tag:people -folder:/Research/Belgium otlet", 0, "Paul Otlet")
	// 2 is Research's id, in the path of everything below it, and only Lab notes 2 says it.
	check("2", 0, "Lab notes 2")
	check("folder:/Research 2", 0)

	// A move re-indexes the paths of the subtree.
	if err := l.Move(ctx, []int64{3}, elsewhere.ID, 0, ""); err != nil {
		t.Fatal(err)
	}
	check("folder:/Elsewhere libraries", 0, "Belgian libraries")
	check("folder:/Research libraries", 0)
	check("libraries", 2)
	check("libraries", elsewhere.ID, "Belgian libraries")
}

package app

import "testing"

// Issue 28, item 12: a saved view shows the library's postings the same search shows.
func TestSavedViewShowsLibraryHits(t *testing.T) {
	a := openApp(t)
	if _, err := a.LibraryReport(1, LibInput{Title: "Otlet notes", Body: "the cards of the Mundaneum"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SaveView("otlet", "otlet", false); err != nil {
		t.Fatal(err)
	}
	s, err := a.Search(SearchRequest{Query: "otlet", Limit: 10})
	if err != nil || len(s.Library.Hits) != 1 {
		t.Fatalf("search: %+v %v", s.Library, err)
	}
	v, err := a.OpenView("otlet", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Results.Library.Hits) != 1 || v.Results.Library.Hits[0].ID != s.Library.Hits[0].ID || v.Results.Library.Total != s.Library.Total {
		t.Errorf("the view's library hits %+v, the search's %+v", v.Results.Library, s.Library)
	}
}

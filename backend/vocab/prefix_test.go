package vocab

import (
	"context"
	"fmt"
	"testing"

	"mundaneum/backend/query"
	"mundaneum/backend/searchtest"
)

// TestExpandPrefixes checks the terms a prefix longer than the index's prefix index stands
// for: every term with it, found in the index's b-tree; none for a prefix in a phrase.
func TestExpandPrefixes(t *testing.T) {
	st := searchtest.Build(t, searchtest.LongPrefixes())
	ctx := context.Background()
	s := New(st.SearchDB())
	got, err := s.expandPrefixes(ctx, query.Parse("unde* title:under* zebr* undx* \"unde*\" unde*").Root)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"unde":  {"unde", "undee", "undefined", "under", "undergo", "undergoes", "underscore", "understand"},
		"under": {"under", "undergo", "undergoes", "underscore", "understand"},
		"zebr":  {"zebra"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("expandPrefixes = %v\nwant %v", got, want)
	}

}

package search

import (
	"context"
	"path/filepath"
	"testing"

	"mundaneum/backend/store"
)

// index builds a real workspace with the given pages (url -> title, body).
func index(t *testing.T, pages [][3]string) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c, err := st.CreateCrawl(ctx, "k", []string{"http://a.test/"}, "site", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	st.StartRun(ctx, c.ID, []byte(`{}`), true)
	var ts []store.Target
	for _, p := range pages {
		ts = append(ts, store.Target{URL: p[0], Origin: "http://a.test", Kind: "seed", Follow: true})
	}
	if _, err := st.Enqueue(ctx, c.ID, ts); err != nil {
		t.Fatal(err)
	}
	ls, err := st.Lease(ctx, c.ID, len(pages))
	if err != nil {
		t.Fatal(err)
	}
	byURL := map[string]store.Lease{}
	for _, l := range ls {
		byURL[l.URL] = l
	}
	for i, p := range pages {
		l := byURL[p[0]]
		_, err := st.SaveResult(ctx, &store.Result{CrawlID: c.ID, PageID: l.PageID, URL: l.URL, State: store.StateFetched,
			Status: 200, Hash: string(rune('a' + i)), Doc: &store.Doc{Title: p[1], Text: p[2]}})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestSearchRanksAndHighlights(t *testing.T) {
	st := index(t, [][3]string{
		{"http://a.test/body", "A page", "somewhere in the text the mundaneum is mentioned once among many other words"},
		{"http://a.test/title", "The Mundaneum", "Paul Otlet's card index of all knowledge"},
		{"http://a.test/none", "Unrelated", "nothing to see"},
		{"http://a.test/hostile", "Evil \uE000forged\uE001 <script>alert(1)</script>", "mundaneum \uE000 fake mark"},
	})
	s := New(st.ReadDB())
	res, err := s.Search(context.Background(), "mundaneum", 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 3 || len(res.Results) != 3 {
		t.Fatalf("total %d, results %d", res.Total, len(res.Results))
	}
	if res.Results[0].URL != "http://a.test/title" || res.Results[0].Score != 1000 {
		t.Fatalf("best hit %+v: a title match should win with 1000", res.Results[0])
	}
	for _, r := range res.Results[1:] {
		if r.Score <= 0 || r.Score > 1000 {
			t.Errorf("score %d out of range", r.Score)
		}
	}
	for _, r := range res.Results {
		matched := false
		for i, frag := range r.Snippet {
			if i%2 == 1 {
				matched = matched || frag != ""
				if frag != "mundaneum" && frag != "Mundaneum" {
					t.Errorf("%s: highlighted %q", r.URL, frag)
				}
			}
		}
		if !matched {
			t.Errorf("%s: no highlight in %q", r.URL, r.Snippet)
		}
	}
	// The forged markers in the hostile page were dropped at indexing: only the real match is marked.
	res, _ = s.Search(context.Background(), "forged", 10, 0)
	if len(res.Results) != 1 || len(res.Results[0].Snippet) != 3 || res.Results[0].Snippet[1] != "forged" {
		t.Fatalf("hostile page snippet = %+v", res.Results)
	}
	// Paging keeps scores relative to the best hit of the whole query.
	page2, err := s.Search(context.Background(), "mundaneum", 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(page2.Results) != 1 || page2.Results[0].Score == 1000 {
		t.Fatalf("page 2 = %+v", page2.Results)
	}
	for _, q := range []string{"", "   ", "-mundaneum", `"`, "*"} {
		res, err := s.Search(context.Background(), q, 10, 0)
		if err != nil || len(res.Results) != 0 {
			t.Errorf("query %q: %v, %d results", q, err, len(res.Results))
		}
	}
}

package search

import (
	"context"
	"mundaneum/backend/searchtest"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzSearch checks that any input parses without panic, compiles to SQL and FTS5 that
// run without error against a real workspace, and yields sane results.
func FuzzSearch(f *testing.F) {
	// The parser's own cases are backend/query's seeds; these reach compile's branches.
	for _, s := range []string{"otlet", `"card index"*`, "index -card", "cat OR dog fish", "NEAR(a b, 5)",
		"title:(a OR b) c", "site:bücher.de", "type:image", "before:2024", "status:4xx", "is:broken",
		"lang:pt-BR", `url:/\.pdf$/`, "folder:/Computing/Go otlet", "tag:go", "changed:>2026-01-01",
		"mundaneum~1", "otlet~2 title:index~1", "inlinks:http://a.test/x", "linkto:a.test", "problem:any"} {
		f.Add(s)
	}
	for _, s := range []string{"a\"*OR-b", "NEAR(\"a\"* b, -1)", "title:(a OR -b) -(c d) OR e", "{title}: x",
		"x:y:z", "\"\"\"\"", "-site:a.test OR url:/a|b/", "^a", "a + b", "col:\"a\"", "NEAR(", "title:(",
		"url://x", "url:/\\/", "(a OR) AND (OR b)", "é ü 中文 -", "mundanuem", "type:image/* OR ext:zip"} {
		f.Add(s)
	}
	st := searchtest.Build(f, searchtest.Corpus)
	s := New(st.SearchDB())
	f.Fuzz(func(t *testing.T, q string) {
		res, err := s.Search(context.Background(), Request{Query: q, Limit: 5, Facets: true})
		if err != nil {
			t.Fatalf("search %q: %v", q, err)
		}
		if res.Total < len(res.Results) {
			t.Fatalf("search %q: total %d < %d results", q, res.Total, len(res.Results))
		}
		for _, r := range res.Results {
			if r.Score < 0 || r.Score > 1000 {
				t.Fatalf("search %q: score %d", q, r.Score)
			}
			for _, frag := range r.Snippet {
				if strings.ContainsAny(frag, "\uE000\uE001") {
					t.Fatalf("search %q: marker left in snippet %q", q, frag)
				}
			}
		}
		if utf8.ValidString(q) && !utf8.ValidString(res.Note) {
			t.Fatalf("search %q: invalid note %q", q, res.Note)
		}
	})
}

package search

import (
	"mundaneum/backend/querysql"
	"testing"

	"mundaneum/backend/query"
)

func TestCompileFTS(t *testing.T) {
	w := DefaultWeights
	w.Stem = false
	for _, tc := range []struct{ q, match string }{
		{"otlet", `"otlet"`},
		{"paul otlet", `("paul" AND "otlet")`},
		{`"card index"*`, `"card index"*`},
		{"index -card", `("index" NOT "card")`},
		{"a -b -c", `(("a" NOT "b") NOT "c")`},
		{"cat OR dog fish", `(("cat" OR "dog") AND "fish")`},
		{"title:otlet", `{title} : "otlet"`},
		{"body:otlet", `{headings body} : "otlet"`},
		{"anchor:(a OR b)", `({anchors} : "a" OR {anchors} : "b")`},
		{"title:NEAR(a b, 2)", `{title} : NEAR("a" "b", 2)`},
		{"a site:x", `"a"`},
		{"a OR site:x", ``},
	} {
		n := &query.Notes{}
		pl := compile(querysql.Parse(tc.q).Root, w, n)
		if pl.match != tc.match {
			t.Errorf("%q: match %s, want %s", tc.q, pl.match, tc.match)
		}
	}
}

package search

import (
	"strings"
	"testing"
	"time"

	vlib "mundaneum/backend/library"
	"mundaneum/backend/query"
)

// TestParseFolder checks that search's Parse reads folder: paths with the library's parser.
func TestParseFolder(t *testing.T) {
	q := Parse("folder:#x otlet")
	if q.Root == nil || q.Root.String() != "otlet" || !strings.Contains(strings.Join(q.Notes, ";"), "library's path") {
		t.Fatalf("folder:#x otlet = %v %q", q.Root, q.Notes)
	}
	if q := Parse("folder:/Computing/Go"); q.Root == nil || q.Root.String() != `folder:"/Computing/Go"` {
		t.Fatalf("folder:/Computing/Go = %v", q.Root)
	}
	if query.MaxTag != vlib.MaxTag {
		t.Fatalf("query.MaxTag %d, library's %d", query.MaxTag, vlib.MaxTag)
	}
}

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
		pl := compile(Parse(tc.q).Root, w, n)
		if pl.match != tc.match {
			t.Errorf("%q: match %s, want %s", tc.q, pl.match, tc.match)
		}
	}
}

func TestTimeSpan(t *testing.T) {
	for _, c := range []struct {
		v        string
		from, to string
		op       string
	}{
		{">2026-01-01", "2026-01-01", "2026-01-02", ">"},
		{"<=2026-02", "2026-02-01", "2026-03-01", "<="},
		{"2025", "2025-01-01", "2026-01-01", ""},
	} {
		from, to, op := timeSpan(c.v)
		f, _ := time.Parse("2006-01-02", c.from)
		e, _ := time.Parse("2006-01-02", c.to)
		if from != f.UnixMilli() || to != e.UnixMilli() || op != c.op {
			t.Errorf("timeSpan(%q) = %d %d %q", c.v, from, to, op)
		}
	}
}

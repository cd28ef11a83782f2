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

func TestStemForms(t *testing.T) {
	for _, tc := range []struct {
		w    string
		want []string // must be among the forms
		not  []string
	}{
		{"connections", []string{"connect", "connected", "connecting", "connection"}, []string{"connector", "connections"}},
		{"connect", []string{"connects", "connected", "connection", "connections"}, []string{"connectivity", "connect"}},
		{"cat", []string{"cats"}, []string{"catalog", "cat"}},
		{"running", []string{"run", "runs"}, []string{"runner", "running"}},
		{"making", []string{"make", "makes"}, nil},
	} {
		got := " " + strings.Join(stemForms(tc.w, 30), " ") + " "
		for _, v := range tc.want {
			if !strings.Contains(got, " "+v+" ") {
				t.Errorf("stemForms(%q) = %s, want %s among them", tc.w, got, v)
			}
		}
		for _, v := range tc.not {
			if strings.Contains(got, " "+v+" ") {
				t.Errorf("stemForms(%q) = %s, must not hold %s", tc.w, got, v)
			}
		}
	}
	for _, w := range []string{"", "ab", "123", "naïve", strings.Repeat("a", 40)} {
		if v := stemForms(w, 10); v != nil {
			t.Errorf("stemForms(%q) = %v", w, v)
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

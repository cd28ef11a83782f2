package querysql

import (
	"fmt"
	"strings"
	"testing"
	"time"

	vlib "mundaneum/backend/library"
	"mundaneum/backend/query"
)

// TestParseFolder checks that Parse reads folder: paths with the library's parser.
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

// TestPageCount checks pages: with each comparison the parser lets through.
func TestPageCount(t *testing.T) {
	for q, want := range map[string]string{"pages:12": "= 12", "pages:=4": "= 4", "pages:>2": "> 2", "pages:<2": "< 2",
		"pages:>=10": ">= 10", "pages:<=3": "<= 3"} {
		f, ok := query.Parse(q).Root.(*query.Filter)
		if !ok {
			t.Fatalf("%s: %v", q, query.Parse(q).Root)
		}
		c, _ := Page(f)
		op := c.SQL[strings.Index(c.SQL, "num ")+4 : strings.LastIndex(c.SQL, " ?")]
		if got := fmt.Sprintf("%s %v", op, c.Args[0]); got != want {
			t.Errorf("%s: num %s, want num %s", q, got, want)
		}
	}
}

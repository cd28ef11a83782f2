package history

import (
	"strings"
	"testing"
	"time"

	"mundaneum/backend/store"
)

// spell rebuilds both sides of a diff.
func spell(ops []Op) (a, b string) {
	var sa, sb strings.Builder
	for _, o := range ops {
		if o.Kind != Added {
			sa.WriteString(o.Text)
		}
		if o.Kind != Removed {
			sb.WriteString(o.Text)
		}
	}
	return sa.String(), sb.String()
}

func TestDiffWords(t *testing.T) {
	cases := []struct {
		a, b string
		want string // ops as [-x-]{+y+}
	}{
		{"the old wording stays", "the new wording zygomorph arrives", "the [-old-]{+new+} wording [-stays-]{+zygomorph arrives+}"},
		{"", "fresh text", "{+fresh text+}"},
		{"gone", "", "[-gone-]"},
		{"same", "same", "same"},
		{"Price: 10 euros.", "Price: 12 euros.", "Price: [-10-]{+12+} euros."},
		{"café au lait", "café noir", "café [-au lait-]{+noir+}"},
	}
	for _, c := range cases {
		ops := Diff(c.a, c.b)
		if got := render(ops); got != c.want {
			t.Errorf("Diff(%q, %q) = %s, want %s", c.a, c.b, got, c.want)
		}
		if a, b := spell(ops); a != c.a || b != c.b {
			t.Errorf("Diff(%q, %q) spells %q and %q", c.a, c.b, a, b)
		}
	}
	add, rem := Counts(Diff("one two three", "one four five three"))
	if add != 2 || rem != 1 {
		t.Errorf("counts %d added %d removed", add, rem)
	}
}

func render(ops []Op) string {
	var b strings.Builder
	for _, o := range ops {
		switch o.Kind {
		case Added:
			b.WriteString("{+" + o.Text + "+}")
		case Removed:
			b.WriteString("[-" + o.Text + "-]")
		default:
			b.WriteString(o.Text)
		}
	}
	return b.String()
}

// FuzzDiff: a diff always spells both texts, whatever they hold.
func FuzzDiff(f *testing.F) {
	f.Add("the old wording", "the new wording")
	f.Add("\xff\xfe bad utf8", "bad \x00 utf8")
	f.Fuzz(func(t *testing.T, a, b string) {
		ops := Diff(a, b)
		if ga, gb := spell(ops); ga != a || gb != b {
			t.Fatalf("Diff(%q, %q) spells %q, %q", a, b, ga, gb)
		}
	})
}

func TestHunks(t *testing.T) {
	long := strings.Repeat("word ", 50)
	ops := Diff(long+"old"+" "+long, long+"new"+" "+long)
	h := Hunks(ops, 3)
	got := render(h)
	if got != "…word word word [-old-]{+new+} word word word…" {
		t.Errorf("hunks %q", got)
	}
}

func TestDiffOfLargeTexts(t *testing.T) {
	var a, b strings.Builder
	for i := range 200_000 {
		a.WriteString("w")
		a.WriteString(strings.Repeat("x", i%7))
		a.WriteString(" ")
		if i%1000 == 0 {
			b.WriteString("changed ")
		}
		b.WriteString("w")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(" ")
	}
	start := time.Now()
	ops := Diff(a.String(), b.String())
	if sa, sb := spell(ops); sa != a.String() || sb != b.String() {
		t.Fatal("large diff does not spell its texts")
	}
	if add, _ := Counts(ops); add < 100 {
		t.Errorf("large diff found %d added words", add)
	}
	t.Logf("diff of 2x%d bytes in %s", a.Len(), time.Since(start))
}

func TestJudge(t *testing.T) {
	article := Text{Title: "On the migration of eels", Body: strings.Repeat("Eels travel thousands of kilometres to spawn in the Sargasso Sea. ", 40)}
	notFound := Text{Title: "Page not found", Body: "Sorry, the page you requested could not be found. Go back home."}
	parking := Text{Title: "example-research.org", Body: "This domain may be for sale! Related searches: cheap flights, insurance."}
	cases := []struct {
		name string
		e    Evidence
		want string
	}{
		{"an ordinary change", Evidence{Prev: article, New: Text{Title: article.Title, Body: article.Body + " Updated in March."}}, ""},
		{"error wording, no probe", Evidence{Prev: article, New: notFound}, store.FlagSoft404},
		{"like the site's answer to a URL that cannot exist", Evidence{Prev: article,
			New:   Text{Title: "Welcome", Body: "Our site has moved things around. Try the search box above to find what you need."},
			Probe: Text{Title: "Welcome", Body: "Our site has moved things around. Try the search box above to find what you need."}, ProbeStatus: 200}, store.FlagSoft404},
		{"the probe was a real 404", Evidence{Prev: article,
			New:   Text{Title: "Welcome", Body: "Our site has moved things around. Try the search box above to find what you need."},
			Probe: Text{Title: "Welcome", Body: "Our site has moved things around. Try the search box above to find what you need."}, ProbeStatus: 404}, ""},
		{"parked", Evidence{Prev: article, New: parking}, store.FlagParked},
		{"a page about parking stays", Evidence{Prev: parking, New: Text{Title: parking.Title, Body: parking.Body + " More."}}, ""},
		{"a short page that was always an error page", Evidence{Prev: notFound, New: Text{Title: "Page not found", Body: "Nothing here."}}, ""},
		{"a page about 404 errors that grew", Evidence{Prev: Text{Title: "HTTP 404 explained", Body: article.Body}, New: Text{Title: "HTTP 404 explained", Body: article.Body + article.Body}}, ""},
	}
	for _, c := range cases {
		if got := Judge(c.e); got != c.want {
			t.Errorf("%s: Judge = %q, want %q", c.name, got, c.want)
		}
	}
	if !Suspect(article, notFound) || Suspect(article, article) {
		t.Error("Suspect")
	}
}

func TestPick(t *testing.T) {
	day := func(d int) int64 { return time.Date(2026, 3, d, 12, 0, 0, 0, time.UTC).UnixMilli() }
	vs := []store.Version{{ID: 1, FetchedAt: day(1)}, {ID: 2, FetchedAt: day(5)}, {ID: 3, FetchedAt: day(9)}}
	for spec, want := range map[string]int64{"1": 1, "3": 3, "-1": 3, "-2": 2, "2026-03-05": 2, "2026-03-04": 1,
		"2026-03-05T11:00:00Z": 1, "2026-03-20 08:00": 3} {
		v, err := Pick(vs, spec)
		if err != nil || v.ID != want {
			t.Errorf("Pick(%q) = %d, %v; want %d", spec, v.ID, err, want)
		}
	}
	for _, bad := range []string{"0", "4", "2026-02-01", "yesterday"} {
		if _, err := Pick(vs, bad); err == nil {
			t.Errorf("Pick(%q) found a version", bad)
		}
	}
}

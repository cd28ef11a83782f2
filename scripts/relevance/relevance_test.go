package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseQuest(t *testing.T) {
	const out = `Parsed Query: Query((Zjson@1 OR Zpretti@2))
Exactly 2 matches
MSet:
299: [10.3569]
url=/library/json.html
sample=url=/not/this.html 12: [1.0]
caption=json — JSON encoder
type=text/html
283: [9.6169]
url=/library/
caption=pprint
`
	tests := []struct {
		name  string
		out   string
		limit int
		want  []hit
	}{
		{"two matches", out, 10, []hit{{"library/json.html", "json — JSON encoder"}, {"library/index.html", "pprint"}}},
		{"limit", out, 1, []hit{{"library/json.html", "json — JSON encoder"}}},
		{"no mset", "Parsed Query: Query()\n12: [1.0]\nurl=/a.html\n", 10, nil},
		{"empty", "", 10, nil},
		{"not a header", "MSet:\nx: [1]\n12: 3\nurl=/a.html\n", 10, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseQuest([]byte(tt.out), tt.limit)
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("hit %d: got %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestRelPath(t *testing.T) {
	tests := map[string]string{
		"http://127.0.0.1:4000/library/json.html":          "library/json.html",
		"http://127.0.0.1:4000/library/json.html#dump":     "library/json.html",
		"http://127.0.0.1:4000/":                           "index.html",
		"http://127.0.0.1:4000/library/":                   "library/index.html",
		"/whatsnew/3.11.html":                              "whatsnew/3.11.html",
		"http://127.0.0.1:4000/a%20b.html?x=1":             "a b.html",
		"http://127.0.0.1:4000/sql-createindex.html?q#top": "sql-createindex.html",
	}
	for in, want := range tests {
		if got := relPath(in); got != want {
			t.Errorf("relPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMetrics(t *testing.T) {
	hits := []hit{{Path: "a"}, {Path: "b"}, {Path: "c"}}
	if r := rankOf(hits, "b"); r != 2 {
		t.Errorf("rankOf b = %d, want 2", r)
	}
	if r := rankOf(hits, "z"); r != 0 {
		t.Errorf("rankOf z = %d, want 0", r)
	}
	long := make([]hit, 12)
	long[11].Path = "late"
	if r := rankOf(long, "late"); r != 0 {
		t.Errorf("rank beyond the cutoff = %d, want 0", r)
	}
	rs := []result{{Rank: 1}, {Rank: 2}, {Rank: 0}, {Rank: 10}}
	s := summarize(rs, nil)
	if want := (1 + 0.5 + 0 + 0.1) / 4; math.Abs(s.MRR-want) > 1e-12 || s.S1 != 0.25 || s.S10 != 0.75 || s.N != 4 {
		t.Errorf("summarize = %+v, want MRR %.3f S1 0.25 S10 0.75 N 4", s, want)
	}
	if s := summarize(rs, func(i int) bool { return i == 1 }); s.N != 1 || s.MRR != 0.5 {
		t.Errorf("filtered summarize = %+v", s)
	}
	order := worst(rs, []result{{Rank: 1}, {Rank: 1}, {Rank: 0}, {Rank: 1}})
	if want := []int{2, 3, 1, 0}; !equal(order, want) {
		t.Errorf("worst = %v, want %v", order, want)
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestLoadQueries(t *testing.T) {
	tests := []struct {
		name, text, err string
		n               int
	}{
		{"ok", "# c\n\nq one\ta.html\tapi\tev\n\"p q\"\tb.html\tphrase\tev\n", "", 2},
		{"three columns", "q\ta.html\tapi\n", "4 tab-separated", 0},
		{"bad kind", "q\ta.html\tfoo\tev\n", "unknown kind", 0},
		{"empty column", "q\t\tapi\tev\n", "empty column", 0},
		{"repeat", "q\ta.html\tapi\tev\nq\tb.html\tapi\tev\n", "repeats line 1", 0},
		{"no queries", "# only a comment\n", "no queries", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "q.tsv")
			if err := os.WriteFile(file, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			qs, err := loadQueries(file, false)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || len(qs) != tt.n {
				t.Fatalf("got %d queries, err %v; want %d", len(qs), err, tt.n)
			}
		})
	}
}

func TestLoadCorpusQueries(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("c.tsv", "# tuning\nq1\ta.html\tapi\tev\nq2\tb.html\thowto\tev\n")
	write("c.heldout.tsv", "# held out\nq3\tc.html\ttypo\tev\n")
	for split, want := range map[string]string{splitAll: "q1 q2 q3*", splitTune: "q1 q2", splitHeldOut: "q3*"} {
		qs, err := loadCorpusQueries(dir, "c", split)
		if err != nil {
			t.Fatalf("%s: %v", split, err)
		}
		var got []string
		for _, q := range qs {
			s := q.Text
			if q.HeldOut {
				s += "*"
			}
			got = append(got, s)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("split %s: got %v, want %s", split, got, want)
		}
	}
	write("c.heldout.tsv", "q2\tb.html\thowto\tev\n")
	if _, err := loadCorpusQueries(dir, "c", splitAll); err == nil || !strings.Contains(err.Error(), "also in the tuning split (c.tsv:3)") {
		t.Errorf("a query in both splits: err = %v", err)
	}
	if _, err := loadCorpusQueries(dir, "missing", splitAll); err == nil {
		t.Error("a corpus without query files: no error")
	}
}

// TestMarkdown checks the report's figures on a made-up run: per split, pooled, by kind.
func TestMarkdown(t *testing.T) {
	qs := []query{
		{Text: "a", Expected: "a.html", Kind: "api"},
		{Text: "b", Expected: "b.html", Kind: "api", HeldOut: true},
		{Text: "c", Expected: "c.html", Kind: "typo", HeldOut: true},
	}
	run := corpusRun{C: corpus{Name: "t", Title: "T docs", Package: "t-doc"}, Queries: qs, Pages: 3,
		Engines: []engineRun{
			{Name: "Mundaneum", Results: []result{{Rank: 1, Hits: []hit{{Path: "a.html", Title: "A"}}}, {Rank: 2}, {Rank: 0}}},
			{Name: "Xapian", Results: []result{{Rank: 1}, {Rank: 1}, {Rank: 1}}},
		}}
	got := markdown([]corpusRun{run}, "a test", time.Second, map[string]float64{"t": 0.5})
	for _, want := range []string{
		"Mundaneum MRR@10 >= 0.500 on t",
		"| t | held-out | 2 | 0.250 | 1.000 | -0.750 | 0.000 | 1.000 | 0.500 | 1.000 |",
		"| t | tuning | 1 | 1.000 | 1.000 | +0.000 | 1.000 | 1.000 | 1.000 | 1.000 |",
		"| **all corpora** | **held-out** | 2 | 0.250 |",
		"| typo | held-out | 1 | 0.000 | 1.000 | -1.000 |",
		"| `a` | api | a.html | 1 | 1 | a.html “A” |",
		"| `c` | held-out | typo | c.html | – | 1 |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "| `b` | api | b.html |") {
		t.Errorf("the worst list shows a held-out query:\n%s", got)
	}
}

func TestVerifyQueries(t *testing.T) {
	root := t.TempDir()
	page := `<html><head><style>p{}</style><script>var hidden="secret words"</script></head>
<body><p>The <code class="x"><span>os.</span><span>walk</span></code>() function &amp; friends</p>
<h2>Key&nbsp;Functions</h2></body></html>`
	if err := os.WriteFile(filepath.Join(root, "p.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	ok := []query{
		{Text: "a", Expected: "p.html", Evidence: "os.walk() function & friends"},
		{Text: "b", Expected: "p.html", Evidence: "key functions"},
	}
	if err := verifyQueries(root, ok); err != nil {
		t.Errorf("verify: %v", err)
	}
	bad := []query{
		{Text: "c", Expected: "p.html", Evidence: "secret words"},
		{Text: "d", Expected: "missing.html", Evidence: "x"},
	}
	err := verifyQueries(root, bad)
	if err == nil || !strings.Contains(err.Error(), `"secret words"`) || !strings.Contains(err.Error(), "missing.html") {
		t.Errorf("verify bad = %v, want both failures", err)
	}
}

func TestReadFloors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	os.WriteFile(good, []byte("# floors\npython 0.75 # note\n\npostgres 0.5\n"), 0o644)
	f, err := readFloors(good)
	if err != nil || f["python"] != 0.75 || f["postgres"] != 0.5 {
		t.Errorf("readFloors = %v, %v", f, err)
	}
	for _, text := range []string{"python\n", "python x\n", "python 1.5\n", "python 0.5 extra\n"} {
		bad := filepath.Join(dir, "bad")
		os.WriteFile(bad, []byte(text), 0o644)
		if _, err := readFloors(bad); err == nil {
			t.Errorf("readFloors(%q): no error", text)
		}
	}
}

func TestWriteDocs(t *testing.T) {
	file := filepath.Join(t.TempDir(), "r.md")
	doc := "# T\n\nintro\n\n" + beginMarker + "\nold\n" + endMarker + "\n\nafter\n"
	os.WriteFile(file, []byte(doc), 0o644)
	if err := writeDocs(file, "new\n"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	want := "# T\n\nintro\n\n" + beginMarker + "\nnew\n" + endMarker + "\n\nafter\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	fresh := filepath.Join(t.TempDir(), "fresh.md")
	if err := writeDocs(fresh, "x\n"); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(fresh); !strings.Contains(string(got), beginMarker+"\nx\n"+endMarker) {
		t.Errorf("fresh doc = %q", got)
	}
}

package search

import (
	"context"
	"fmt"
	"mundaneum/backend/highlight"
	"mundaneum/backend/querysql"
	"mundaneum/backend/searchtest"
	"strings"
	"testing"
)

func TestIntent(t *testing.T) {
	for _, tt := range []struct{ q, want string }{
		{"how do i ignore changes to a tracked file", "AND(ignore changes tracked file)"},
		{"git log -S pickaxe", "AND(git log S pickaxe)"},
		{"cherry-pick -x", `AND("cherry pick" x)`},
		{"merge -squash", "AND(merge NOT(squash))"}, // a word after "-" stays an exclusion
		{"how to", "AND(how to)"},                   // nothing but filler: as typed
		{`"how to" install`, `AND("how to" install)`},
		{"the*", "the*"},
		{"title:how python", "AND(title:how python)"},
	} {
		q := querysql.Parse(tt.q)
		got, _ := intent(q.Root)
		if got.String() != tt.want {
			t.Errorf("%q: %s, want %s", tt.q, got, tt.want)
		}
	}
}

func TestSignals(t *testing.T) {
	terms := queryTerms(querysql.Parse("git reflog expire").Root, DefaultWeights)
	f := signals(terms, false, "git-reflog(1)", "http://h/docs/git-reflog.html")
	if f.Coverage < 0.66 || f.All || f.Exact || f.List {
		t.Errorf("git-reflog: %+v", f)
	}
	terms = queryTerms(querysql.Parse("vacuum").Root, DefaultWeights)
	if f := signals(terms, false, "VACUUM", "http://h/sql-vacuum.html"); !f.All || !f.Exact {
		t.Errorf("VACUUM: %+v", f)
	}
	if f := signals(terms, false, "Routine Vacuuming", "http://h/routine-vacuuming.html"); f.Exact {
		t.Errorf("Routine Vacuuming is not the query: %+v", f)
	}
	if f := signals(terms, false, "SQLite Release 3.5.4 On 2007-12-14", "http://h/releaselog/3_5_4.html"); !f.List {
		t.Errorf("a release note is a list page: %+v", f)
	}
	if f := signals(terms, asksForList(queryTerms(querysql.Parse("vacuum release notes").Root, DefaultWeights)), "SQLite Release 3.5.4", "http://h/releaselog/3_5_4.html"); f.List {
		t.Errorf("asked for release notes: %+v", f)
	}
}

// The reference page whose title is the query ranks above pages that repeat its words, a
// changelog that mentions the word once ranks below the page about it, and --explain says
// why.
func TestSecondStage(t *testing.T) {
	pages := []searchtest.Page{
		{URL: "http://d.test/maintenance.html", Title: "Routine Maintenance", Body: "Maintenance reclaims space: run vacuum regularly, vacuum often, vacuum a table at a time."},
		{URL: "http://d.test/sql-vacuum.html", Title: "VACUUM", Body: "VACUUM garbage-collect and optionally analyze a database. FULL selects full vacuum "},
		{URL: "http://d.test/release-9.html", Title: "Release 9.0", Body: "Fix vacuum full crash. " + strings.Repeat("fixed bugs in the planner. ", 15)},
	}
	for i := range 30 {
		pages = append(pages, searchtest.Page{URL: fmt.Sprintf("http://d.test/other-%d.html", i), Title: "Other", Body: "unrelated text"})
	}
	st := searchtest.Build(t, pages)
	s := New(st.SearchDB())
	res, err := s.Search(context.Background(), Request{Query: "vacuum", Limit: 10, Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 3 || res.Results[0].URL != "http://d.test/sql-vacuum.html" || res.Results[2].URL != "http://d.test/release-9.html" {
		for _, r := range res.Results {
			t.Log(r.URL, r.Explain)
		}
		t.Fatalf("order wrong")
	}
	if !strings.Contains(res.Results[2].Explain, "changelog") || !strings.Contains(res.Results[0].Explain, "bm25") {
		t.Errorf("explain: %q / %q", res.Results[0].Explain, res.Results[2].Explain)
	}
	if !strings.Contains(res.Results[0].Explain, "title is the query") {
		t.Errorf("explain of the reference: %q", res.Results[0].Explain)
	}
}

func TestTextSignals(t *testing.T) {
	root := querysql.Parse("ignore changes tracked file").Root
	terms, h := queryTerms(root, DefaultWeights), highlight.New(root, DefaultWeights.forms(), nil)
	together := textSignalsOf(terms, h, "Some intro. To ignore changes to a tracked file, use update-index. More text follows here.", "FAQ \nHow do I ignore changes to a tracked file?")
	if together.Near != 1 || !together.Heading {
		t.Errorf("words together, heading with all: %+v", together)
	}
	apart := textSignalsOf(terms, h, "ignore "+strings.Repeat("x ", 40)+"changes "+strings.Repeat("y ", 40)+"tracked file", "Tracking \nFiles")
	if apart.Near != 0.5 || apart.Heading {
		t.Errorf("words apart: %+v", apart)
	}
}

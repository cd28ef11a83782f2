package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"mundaneum/app"
	"mundaneum/backend/store"
)

// TestJSONIsTheWindows: a verb's --json and the window's bound method answer the same
// question with the same object, field for field (one vocabulary, issue 25 item 4).
func TestJSONIsTheWindows(t *testing.T) {
	srv := site(t)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	if code, _, errOut := run(t, "crawl", "--db", db, "--delay", "0", srv.URL+"/"); code != ExitOK {
		t.Fatalf("crawl: %d %s", code, errOut)
	}
	cli := func(into any, args ...string) {
		t.Helper()
		code, out, errOut := run(t, append(args, "--db", db, "--json")...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if err := json.Unmarshal([]byte(out), into); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	var search searchJSON
	cli(&search, "search", "index")
	var history historyJSON
	cli(&history, "history", srv.URL+"/")
	var links app.PageRelations
	cli(&links, "links", srv.URL+"/")
	var pages pagesJSON
	cli(&pages, "pages")
	var tested []app.RulesTest
	cli(&tested, "rules", "test", "+url:*cards*", srv.URL+"/cards")

	ctx := context.Background()
	st, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(st)
	if err != nil {
		t.Fatal(err)
	}
	defer app.Detach(a)
	same := func(what string, cliOut, window any) {
		t.Helper()
		if !reflect.DeepEqual(cliOut, window) {
			t.Errorf("%s: the CLI and the window differ\ncli:    %+v\nwindow: %+v", what, cliOut, window)
		}
	}
	res, err := a.Search(app.SearchRequest{Query: "index", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 {
		t.Fatal("the window finds nothing")
	}
	same("search results", search.Results, res.Results)
	same("search total", search.Total, res.Total)
	same("search library", search.Library, app.LibSearchResults{Hits: res.Library.Hits, Total: res.Library.Total,
		TotalApprox: res.Library.TotalApprox, Note: res.Library.Note, TookMs: search.Library.TookMs})

	vs, err := a.PageVersions(history.PageID)
	if err != nil {
		t.Fatal(err)
	}
	same("history", history.Versions, vs)
	rel, err := a.GraphLinks(history.PageID, 100)
	if err != nil {
		t.Fatal(err)
	}
	same("links", links, rel)
	cp, err := a.CrawlPages(pages.Crawl, "", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	same("pages", pages.CrawlPages, cp)
	rt, err := a.TestRules("+url:*cards*", srv.URL+"/cards")
	if err != nil {
		t.Fatal(err)
	}
	same("rules test", tested, []app.RulesTest{rt})
}

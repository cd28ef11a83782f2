package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"mundaneum/backend/crawl"
	"mundaneum/backend/store"
)

// docSite is a documentation site in small: pages that link to a style sheet, a script, a
// figure and another site, and a page robots.txt forbids.
func docSite(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
			return
		case "/", "/a", "/b":
		default:
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<link rel="stylesheet" href="/style.css"><script src="/app.js"></script><title>manual %s</title>
			<p>the manual</p><img src="/figure.png" alt="figure"><a href="http://elsewhere.test/">elsewhere</a>
			<a href="/a">a</a><a href="/b">b</a><a href="/private">private</a>`, r.URL.Path)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestCountsNamed: the links a crawl records are counted apart from the pages it skipped,
// in the summary, status and its --json, and the search index's rows are named (pages and
// files known from links), as store.Counts defines them (issue 28, items 9 and 10).
func TestCountsNamed(t *testing.T) {
	srv := docSite(t)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	code, out, errOut := run(t, "crawl", "--db", db, "--delay", "0", srv.URL+"/")
	if code != ExitOK {
		t.Fatalf("crawl: %d %s", code, errOut)
	}
	// 3 pages; the style sheet, the script, the figure and the other site recorded; the
	// private page skipped by robots.txt.
	for _, want := range []string{
		"crawl 1 done: 3 fetched, 0 failed, 1 skipped, 0 redirected, 0 queued; 4 links recorded, not pages",
		"links recorded, not pages: 3 not HTML or text (style sheets, scripts, images, files), 1 out of the crawl's scope (other sites)",
		"pages skipped: 1 disallowed by robots.txt",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(errOut, "5 skipped") {
		t.Errorf("the progress counts the links recorded as skipped:\n%s", errOut)
	}
	_, out, _ = run(t, "status", "--db", db)
	for _, want := range []string{
		"pages: 3 fetched, 0 failed, 1 skipped, 0 redirected, 0 queued; 4 links recorded, not pages",
		"search index: 4 of 4 pages searchable (3 pages and 1 file known from links, found by what cites them)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("status does not say %q:\n%s", want, out)
		}
	}
	_, out, _ = run(t, "status", "--db", db, "--json")
	var st statusJSON
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	cr := st.Crawls[0]
	if st.Pages[store.Recorded] != 4 || st.Pages[store.StateSkipped] != 1 || cr.Recorded != 4 || cr.Skipped != 1 ||
		st.Searchable.Pages != 3 || st.Searchable.Files != 1 || st.Index.Searchable != 4 {
		t.Errorf("status --json: %+v, crawl %+v", st, cr)
	}
	_, out, _ = run(t, "pages", "--db", db, "--json", "--state", "recorded")
	var recorded pagesJSON
	if err := json.Unmarshal([]byte(out), &recorded); err != nil || recorded.Total != 4 {
		t.Errorf("pages --state recorded: %s (%v)", out, err)
	}
}

// TestProgressLineNamesRecordedLinks: the live line counts links recorded apart, and says
// "skipped" only of pages skipped.
func TestProgressLineNamesRecordedLinks(t *testing.T) {
	var b bytes.Buffer
	bar := newProgressBar(&b, false)
	p := crawl.Progress{State: store.CrawlDone, Queued: 0, Pages: map[string]int64{store.StateFetched: 1169,
		store.StateSkipped: 0, store.Recorded: 1680}}
	line := bar.line(p)
	if !strings.HasPrefix(line, "1169 fetched · 0 failed · 1680 links recorded, not pages · 0 to visit") {
		t.Errorf("line = %q", line)
	}
	p.Pages[store.StateSkipped] = 2
	if line := bar.line(p); !strings.Contains(line, "· 2 skipped · 1680 links recorded, not pages") {
		t.Errorf("line = %q", line)
	}
}

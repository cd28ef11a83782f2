package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mundaneum/app"
	"mundaneum/backend/crawl"
	"mundaneum/backend/store"
)

// `page URL` shows what the page view shows; `pages` lists a crawl's pages with reasons;
// search --json results carry reason (issue 18, item 11).
func TestPageAndPages(t *testing.T) {
	srv := site(t)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	if code, _, errOut := run(t, "crawl", "--db", db, "--delay", "0", srv.URL+"/"); code != ExitOK {
		t.Fatalf("crawl: %s", errOut)
	}
	code, out, errOut := run(t, "page", "--db", db, "--json", srv.URL+"/gone")
	if code != ExitOK {
		t.Fatalf("page exit %d: %s", code, errOut)
	}
	var p struct {
		State, Reason, ReasonText string
		Status                    int
		LinksIn                   []struct{ URL, Anchor string }
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	if p.State != "failed" || p.Reason != "not-found" || p.Status != 404 || p.ReasonText != "not found" ||
		len(p.LinksIn) != 1 || p.LinksIn[0].Anchor != "gone" {
		t.Errorf("page --json = %+v", p)
	}
	code, out, _ = run(t, "page", "--db", db, strings.TrimPrefix(srv.URL, "http://")+"/")
	if code != ExitOK || !strings.Contains(out, "Otlet's index") || !strings.Contains(out, "links out (2)") ||
		!strings.Contains(out, `"the cards"`) || !strings.Contains(out, "failed 404") {
		t.Errorf("page text (exit %d):\n%s", code, out)
	}
	if code, _, _ := run(t, "page", "--db", db, srv.URL+"/never"); code != ExitError {
		t.Errorf("an unknown page: exit %d", code)
	}

	code, out, _ = run(t, "pages", "--db", db, "--state", "failed")
	if code != ExitOK || !strings.Contains(out, "crawl 1: 1 failed pages") || !strings.Contains(out, "not found") {
		t.Errorf("pages --state failed (exit %d):\n%s", code, out)
	}
	code, out, _ = run(t, "pages", "--db", db, "--json")
	var ps pagesJSON
	if err := json.Unmarshal([]byte(out), &ps); code != ExitOK || err != nil || ps.Total != 3 || len(ps.Pages) != 3 {
		t.Errorf("pages --json: %d pages of %d, %v", len(ps.Pages), ps.Total, err)
	}
	if code, _, _ := run(t, "pages", "--db", db, "--state", "lost"); code != ExitUsage {
		t.Errorf("a bad state: exit %d", code)
	}

	code, out, _ = run(t, "search", "--db", db, "--json", "status:404")
	var res searchJSON
	if err := json.Unmarshal([]byte(out), &res); code != ExitOK || err != nil || len(res.Results) != 1 || res.Results[0].Reason != "not-found" {
		t.Errorf("search --json status:404 = %+v, %v", res.Results, err)
	}
}

// One count of a crawl's pages: the summary, status and the page list agree; a rerun with
// nothing due says so instead of "fetched" (issue 18, item 12).
func TestCountsAgree(t *testing.T) {
	srv := site(t)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	code, out, _ := run(t, "crawl", "--db", db, "--json", "--delay", "0", srv.URL+"/")
	var sum crawlSummary
	if err := json.Unmarshal([]byte(out), &sum); code != ExitOK || err != nil {
		t.Fatal(code, err)
	}
	_, out, _ = run(t, "status", "--db", db, "--json")
	var st statusJSON
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	_, out, _ = run(t, "pages", "--db", db, "--json", "--state", "skipped")
	var skipped pagesJSON
	json.Unmarshal([]byte(out), &skipped)
	cr := st.Crawls[0]
	if sum.Skipped != cr.Skipped || int64(skipped.Total) != sum.Skipped || sum.Fetched != cr.Fetched ||
		st.Pages["failed"] != cr.Failed || sum.Fetched != 2 {
		t.Errorf("summary %+v, status %+v, list of skipped %d", sum, cr, skipped.Total)
	}
	code, out, _ = run(t, "crawl", "--db", db, "--delay", "0", srv.URL+"/")
	if code != ExitOK || !strings.Contains(out, "2 not due for a re-check") || !strings.Contains(out, "crawl 1 done: 2 fetched, 1 failed") {
		t.Errorf("a rerun with nothing due says:\n%s", out)
	}
	var again crawlSummary
	_, out, _ = run(t, "crawl", "--db", db, "--json", "--delay", "0", srv.URL+"/")
	if json.Unmarshal([]byte(out), &again); again.Run.Fetched != 0 || again.Run.NotDue != 2 || again.Fetched != 2 {
		t.Errorf("rerun --json: %+v", again)
	}
}

// The progress line never moves back as the queue grows; a bar and an ETA appear only when
// a limit says what the end is (issue 18, item 14).
func TestProgressNeverMovesBack(t *testing.T) {
	var buf bytes.Buffer
	b := newProgressBar(&buf, true)
	pages := func(f int64) map[string]int64 { return map[string]int64{"fetched": f} }
	for i, q := range []int64{10, 100, 1000, 5000} {
		b.last = time.Time{}
		b.update(crawl.Progress{State: store.CrawlRunning, Fetched: int64(10 * i), Queued: q, Done: -1, Pages: pages(int64(10 * i)),
			Current: "http://example.com/page"})
	}
	if strings.Contains(buf.String(), "%") || strings.Contains(buf.String(), "█") {
		t.Errorf("a percentage without a limit, from a growing queue:\n%q", buf.String())
	}
	if !strings.Contains(buf.String(), "5000 to visit") || !strings.Contains(buf.String(), "http://example.com/page") {
		t.Errorf("the line lacks the queue or the URL being fetched: %q", buf.String())
	}
	buf.Reset()
	b.last = time.Time{}
	b.update(crawl.Progress{State: store.CrawlRunning, Done: 0.25, ETA: 90 * time.Second, Pages: pages(25)})
	if !strings.Contains(buf.String(), " 25% ") || !strings.Contains(buf.String(), "about 1m30s left") {
		t.Errorf("with a limit: %q", buf.String())
	}
}

// Negative limits are refused with exit 2 before the workspace is touched (issue 18, item 17).
func TestNegativeLimitsAreRefused(t *testing.T) {
	dir := t.TempDir()
	for _, flag := range [][]string{{"--max-pages", "-5"}, {"--depth", "-1"}, {"--max-time", "-1s"}, {"--max-bytes", "-1"},
		{"--delay", "-1s"}, {"--max-per-host", "-3"}} {
		db := filepath.Join(dir, strings.TrimLeft(flag[0], "-")+".db")
		code, _, errOut := run(t, append([]string{"crawl", "--db", db}, append(flag, "http://127.0.0.1:1/")...)...)
		if code != ExitUsage || !strings.Contains(errOut, "negative") {
			t.Errorf("%v: exit %d (%s)", flag, code, errOut)
		}
		if _, err := os.Stat(db); err == nil {
			t.Errorf("%v: the workspace was created", flag)
		}
	}
}

// `views save` over a view says so, needs --force and starts the count of what is new
// again; opening a view marks the new results (issue 18, item 18).
func TestViewsSaveAndOpen(t *testing.T) {
	srv := site(t)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	if code, _, errOut := run(t, "views", "save", "--db", db, "cards", "index"); code != ExitOK {
		t.Fatalf("save: %s", errOut)
	}
	code, _, errOut := run(t, "views", "save", "--db", db, "cards", "cards")
	if code != ExitUsage || !strings.Contains(errOut, "exists") || !strings.Contains(errOut, "--force") {
		t.Errorf("saved over a view: exit %d (%s)", code, errOut)
	}
	code, out, _ := run(t, "views", "save", "--db", db, "--force", "cards", "index", "-nothing")
	if code != ExitOK || !strings.Contains(out, "Replaced view") || !strings.Contains(out, "index -nothing") {
		t.Errorf("--force (exit %d): %s", code, out)
	}
	if code, _, errOut := run(t, "crawl", "--db", db, "--delay", "0", srv.URL+"/"); code != ExitOK {
		t.Fatalf("crawl: %s", errOut)
	}
	code, out, _ = run(t, "views", "open", "--db", db, "cards")
	if code != ExitOK || !strings.Contains(out, "[new") {
		t.Errorf("open does not mark new results:\n%s", out)
	}
	code, out, _ = run(t, "views", "open", "--db", db, "--json", "cards")
	var o app.ViewResults
	if err := json.Unmarshal([]byte(out), &o); code != ExitOK || err != nil || len(o.Results.Results) == 0 || o.Results.Results[0].New {
		t.Errorf("open again --json: %+v %v", o.Results.Results, err)
	}
}

// A reading command never writes: status on an empty file leaves it empty (issue 18, item 19).
func TestReadingNeverWrites(t *testing.T) {
	db := filepath.Join(t.TempDir(), "empty.mundaneum")
	if err := os.WriteFile(db, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"status"}, {"search", "x"}, {"pages"}, {"views"}, {"page", "http://x.test/"}} {
		code, _, errOut := run(t, append(args, "--db", db)...)
		if code != ExitNotWorkspace || !strings.Contains(errOut, "empty") {
			t.Errorf("%v on an empty file: exit %d (%s)", args, code, errOut)
		}
		if fi, err := os.Stat(db); err != nil || fi.Size() != 0 {
			t.Fatalf("%v wrote into the empty file", args)
		}
	}
}

// Query words may start with "-"; --version; a mistyped command gets a suggestion (issue 18,
// item 20).
func TestCommandLineManners(t *testing.T) {
	srv := site(t)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	if code, _, errOut := run(t, "crawl", "--db", db, "--delay", "0", srv.URL+"/"); code != ExitOK {
		t.Fatalf("crawl: %s", errOut)
	}
	code, out, errOut := run(t, "search", "--db", db, "-wiped", "index")
	if code != ExitOK || strings.Contains(out, "Cards") || !strings.Contains(out, "Otlet") {
		t.Errorf("search -wiped index (exit %d, %s):\n%s", code, errOut, out)
	}
	code, out, _ = run(t, "search", "index", "--limit", "1", "--db", db, "--json", "-wiped")
	var res searchJSON
	if err := json.Unmarshal([]byte(out), &res); code != ExitOK || err != nil || res.Query != "index -wiped" || len(res.Results) != 1 {
		t.Errorf("flags among the words: %q, %d results, %v", res.Query, len(res.Results), err)
	}
	if code, out, _ := run(t, "search", "--help"); code != ExitOK || !strings.Contains(out, "problem:") {
		t.Errorf("search --help: exit %d", code)
	}
	code, out, _ = run(t, "--version")
	if code != ExitOK || !strings.Contains(out, crawl.Version) {
		t.Errorf("--version: exit %d, %q", code, out)
	}
	code, _, errOut = run(t, "serch", "x")
	if code != ExitUsage || !strings.Contains(errOut, `did you mean "search"`) {
		t.Errorf("serch: exit %d, %q", code, errOut)
	}
}

// Paging past the ranked matches says so instead of printing "0-500 of about ..." (item 13).
func TestPagingPastTheWindow(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		fmt.Fprintf(&b, "<title>page %s</title><p>shared word and %s</p>", r.URL.Path, r.URL.Path)
		if r.URL.Path == "/" {
			for i := range 520 {
				fmt.Fprintf(&b, `<a href="/p%d">p</a>`, i)
			}
		}
		w.Write([]byte(b.String()))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	if code, _, errOut := run(t, "crawl", "--db", db, "--delay", "0", "--per-host", "8", srv.URL+"/"); code != ExitOK {
		t.Fatalf("crawl: %s", errOut)
	}
	code, out, _ := run(t, "search", "--db", db, "--offset", "500", "shared")
	if code != ExitOK || !strings.Contains(out, "only the best 500 are ranked") || strings.Contains(out, "0-500") {
		t.Errorf("--offset 500:\n%s", out)
	}
}

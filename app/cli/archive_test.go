package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"mundaneum/app"
	"mundaneum/backend/archive"
)

// TestHistoryDiffExportImport runs the verbs a researcher uses on a page that changed: history,
// diff, export as WARC and WWWW, and import of the WARC into another workspace.
func TestHistoryDiffExportImport(t *testing.T) {
	var mu sync.Mutex
	a := `<title>A</title>the old wording stays`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.Path {
		case "/":
			w.Write([]byte(`<title>Home</title><a href="a.html">first</a>`))
		case "/a.html":
			w.Write([]byte(a))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	db := filepath.Join(dir, "w.mundaneum")
	if code, _, errOut := run(t, "crawl", "--db", db, "--delay", "0", srv.URL+"/"); code != ExitOK {
		t.Fatalf("crawl: %d %s", code, errOut)
	}
	mu.Lock()
	a = `<title>A</title>the new wording zygomorph arrives`
	mu.Unlock()
	if code, _, errOut := run(t, "crawl", "--db", db, "--delay", "0", "--refresh", srv.URL+"/"); code != ExitOK {
		t.Fatalf("crawl again: %d %s", code, errOut)
	}
	code, out, errOut := run(t, "history", "--db", db, "--json", srv.URL+"/a.html")
	var h historyJSON
	if code != ExitOK || json.Unmarshal([]byte(out), &h) != nil || len(h.Versions) != 2 || !h.Versions[1].Current {
		t.Fatalf("history: %d %q %q", code, out, errOut)
	}
	code, out, _ = run(t, "diff", "--db", db, srv.URL+"/a.html")
	if code != ExitOK || !strings.Contains(out, "the [-old-]{+new+} wording [-stays-]{+zygomorph arrives+}") {
		t.Fatalf("diff: %d %q", code, out)
	}
	code, out, _ = run(t, "diff", "--db", db, "--json", "--from", "1", "--to", "-1", srv.URL+"/a.html")
	var d app.PageDiff
	if code != ExitOK || json.Unmarshal([]byte(out), &d) != nil || d.From == nil || d.From.N != 1 || d.To.N != 2 || d.Added != 3 {
		t.Fatalf("diff --json: %d %q", code, out)
	}
	if code, _, errOut := run(t, "diff", "--db", db, "--from", "zebra", srv.URL+"/a.html"); code != ExitUsage || errOut == "" {
		t.Errorf("diff --from zebra: %d %q", code, errOut)
	}

	file := filepath.Join(dir, "c.warc.gz")
	code, out, errOut = run(t, "export", "--db", db, "--format", "warc", "--json", file)
	var rep archive.ExportReport
	if code != ExitOK || json.Unmarshal([]byte(out), &rep) != nil || rep.Responses != 3 {
		t.Fatalf("export: %d %q %q", code, out, errOut)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".c.warc.gz.*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	code, out, _ = run(t, "export", "--db", db, "--format", "wwww")
	if code != ExitOK || !strings.Contains(out, "T "+srv.URL+"/ Home\n") || !strings.Contains(out, "R "+srv.URL+"/a.html "+srv.URL+"/ first\n") {
		t.Fatalf("export wwww: %d %q", code, out)
	}
	if code, _, _ := run(t, "export", "--db", db, "--format", "arc", file); code != ExitUsage {
		t.Errorf("export --format arc: %d", code)
	}

	other := filepath.Join(dir, "other.mundaneum")
	code, out, errOut = run(t, "import", "--db", other, "--json", file)
	var irep archive.ImportReport
	if code != ExitOK || json.Unmarshal([]byte(out), &irep) != nil || irep.Format != "warc" || irep.Versions != 3 || irep.ProblemCount != 0 {
		t.Fatalf("import: %d %q %q", code, out, errOut)
	}
	code, out, _ = run(t, "diff", "--db", other, srv.URL+"/a.html")
	if code != ExitOK || !strings.Contains(out, "zygomorph") {
		t.Fatalf("diff after import: %d %q", code, out)
	}
	notes := filepath.Join(dir, "notes.txt")
	os.WriteFile(notes, []byte("hello\n"), 0o644)
	if code, _, errOut := run(t, "import", "--db", other, notes); code != ExitUsage || !strings.Contains(errOut, "format") {
		t.Errorf("import of a text file: %d %q", code, errOut)
	}
}

// changingPage serves one page whose body setPage changes between crawls.
func changingPage(t *testing.T, body string) (srv *httptest.Server, setPage func(string)) {
	var mu sync.Mutex
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv, func(b string) {
		mu.Lock()
		body = b
		mu.Unlock()
	}
}

func TestCrawlRetentionVerbs(t *testing.T) {
	srv, setPage := changingPage(t, `<title>A</title>first words`)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	crawlOnce := func(args ...string) {
		t.Helper()
		args = append([]string{"crawl", "--db", db, "--delay", "0", "--refresh", "--scope", "list"}, append(args, srv.URL+"/")...)
		if code, _, errOut := run(t, args...); code != ExitOK {
			t.Fatalf("crawl: %d %s", code, errOut)
		}
	}
	crawlOnce("--retention", "last 2")
	for _, w := range []string{"second", "third"} {
		setPage(`<title>A</title>` + w + ` words`)
		crawlOnce()
	}
	code, out, errOut := run(t, "retention", "--db", db, "--crawl", "1", "--json")
	var got struct {
		Own      bool   `json:"own"`
		Keep     string `json:"keep"`
		Last     int    `json:"last"`
		Versions int    `json:"versions"`
		Bytes    int64  `json:"bytes"`
		Pruned   struct {
			Versions int `json:"versions"`
		} `json:"pruned"`
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &got) != nil || !got.Own || got.Keep != "last" || got.Last != 2 || got.Versions != 2 || got.Bytes <= 0 {
		t.Fatalf("retention --crawl 1: %d %s %s", code, out, errOut)
	}
	code, out, _ = run(t, "retention", "--db", db, "--crawl", "1", "none")
	if code != ExitOK || !strings.Contains(out, "pruned 1 version(s)") || !strings.Contains(out, "crawl 1 keeps no history (each page's content now only) (its own setting)") {
		t.Errorf("retention --crawl 1 none: %d %s", code, out)
	}
	code, out, _ = run(t, "retention", "--db", db, "--crawl", "1", "default")
	if code != ExitOK || !strings.Contains(out, "every version (the workspace's setting)") {
		t.Errorf("retention --crawl 1 default: %d %s", code, out)
	}
	if code, _, _ := run(t, "retention", "--db", db, "--crawl", "7", "all"); code != ExitUsage {
		t.Errorf("retention of no crawl: %d", code)
	}
	if code, _, _ := run(t, "retention", "--db", db, "default"); code != ExitUsage {
		t.Errorf("default without --crawl: %d", code)
	}
	if code, _, _ := run(t, "crawl", "--db", db, "--retention", "some", srv.URL+"/"); code != ExitUsage {
		t.Errorf("crawl --retention some: %d", code)
	}
}

// TestViewWatchesChanges: a saved view opened in the CLI says which results changed (not
// only that they are new) since it was last opened, and how to see what changed: the diff
// from the version in force then, as the window's "see the diff" shows it.
func TestViewWatchesChanges(t *testing.T) {
	srv, setPage := changingPage(t, `<title>A</title>zygomorph first wording`)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	crawl := func(body string) {
		t.Helper()
		setPage(body)
		if code, _, errOut := run(t, "crawl", "--db", db, "--delay", "0", "--refresh", "--scope", "list", srv.URL+"/"); code != ExitOK {
			t.Fatalf("crawl: %d %s", code, errOut)
		}
	}
	crawl(`<title>A</title>zygomorph first wording`)
	if code, _, errOut := run(t, "views", "save", "--db", db, "zyg", "zygomorph"); code != ExitOK {
		t.Fatal(errOut)
	}
	if code, _, errOut := run(t, "views", "open", "--db", db, "zyg"); code != ExitOK {
		t.Fatal(errOut)
	}
	time.Sleep(1100 * time.Millisecond) // a version's time is its fetch's
	crawl(`<title>A</title>zygomorph second wording`)
	crawl(`<title>A</title>zygomorph third wording`)
	code, out, errOut := run(t, "views", "open", "--db", db, "--json", "zyg")
	var o struct {
		Since   string `json:"since"`
		Results struct {
			Results []map[string]any `json:"results"`
		} `json:"results"`
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &o) != nil || len(o.Results.Results) != 1 {
		t.Fatalf("views open --json: %d %s %s", code, out, errOut)
	}
	r := o.Results.Results[0]
	// Changed: new since it was last opened, with more than one version kept.
	if r["new"] != true || r["versions"] != 3.0 || r["changedAt"] == "" || o.Since == "" {
		t.Errorf("the changed result: %v", r)
	}
	// Opened again in text after one more change: the diff since is one command away.
	time.Sleep(1100 * time.Millisecond)
	crawl(`<title>A</title>zygomorph fourth wording`)
	code, out, _ = run(t, "views", "open", "--db", db, "zyg")
	if code != ExitOK || !strings.Contains(out, "[changed]") || !strings.Contains(out, "mundaneum diff "+srv.URL+"/ --from ") {
		t.Fatalf("views open: %d %s", code, out)
	}
	cmd := out[strings.Index(out, "mundaneum diff "):]
	from := strings.Fields(cmd)[4]
	code, out, _ = run(t, "diff", "--db", db, "--from", from, srv.URL+"/")
	if code != ExitOK || !strings.Contains(out, "[-third-]{+fourth+}") || strings.Contains(out, "second") {
		t.Errorf("diff --from %s: %d %s", from, code, out)
	}
	// A change that is a death is called so: the page is now a domain-parking page.
	crawl(`<title>zygomorph.example</title><p>This domain may be for sale. Related searches: loans, zygomorph.</p>`)
	code, out, _ = run(t, "search", "--db", db, "zygomorph")
	if code != ExitOK || !strings.Contains(out, "looks dead: parked") {
		t.Errorf("search after the page died: %d %s", code, out)
	}
	code, out, _ = run(t, "search", "--db", db, "--json", "zygomorph")
	if code != ExitOK || !strings.Contains(out, `"flag": "parked"`) {
		t.Errorf("search --json after the page died: %d %s", code, out)
	}
}

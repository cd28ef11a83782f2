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
	var d diffJSON
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

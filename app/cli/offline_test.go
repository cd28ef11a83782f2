package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mundaneum/backend/archive"
)

// TestCrawlRequisitesAndExportASite: crawl --requisites stores the pages' style sheet and
// image, and export --format html-site writes the pages as files linking to each other,
// with the requisites beside them (a folder, or a zip).
func TestCrawlRequisitesAndExportASite(t *testing.T) {
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Write([]byte(`<title>Home</title><link rel=stylesheet href="/s.css"><h1>Home</h1><a href="docs/a.html">first</a> <img src="/i.png" alt="I">`))
		case "/docs/a.html":
			w.Write([]byte(`<title>A</title><link rel=stylesheet href="/s.css"><p>Back <a href="../">home</a>, <a href="http://127.0.0.1:1/away">away</a></p>`))
		case "/s.css":
			w.Header().Set("Content-Type", "text/css")
			w.Write([]byte(`h1{color:teal}`))
		case "/i.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte(png))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	db := filepath.Join(dir, "w.mundaneum")
	code, out, errOut := run(t, "crawl", "--db", db, "--delay", "0", "--requisites", "--json", srv.URL+"/")
	var sum crawlSummary
	if code != ExitOK || json.Unmarshal([]byte(out), &sum) != nil || sum.Run.Requisites != 2 {
		t.Fatalf("crawl: %d %q %q", code, out, errOut)
	}
	site := filepath.Join(dir, "site")
	code, out, errOut = run(t, "export", "--db", db, "--format", "html-site", "--json", site)
	var rep archive.ExportReport
	if code != ExitOK || json.Unmarshal([]byte(out), &rep) != nil || rep.Responses != 2 || rep.Requisites != 2 {
		t.Fatalf("export: %d %q %q", code, out, errOut)
	}
	host := strings.ReplaceAll(strings.TrimPrefix(srv.URL, "http://"), ":", "_")
	home, err := os.ReadFile(filepath.Join(site, host, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`href="docs/a.html"`, `<link rel="stylesheet" href="../_requisites/`, `src="../_requisites/`} {
		if !strings.Contains(string(home), want) {
			t.Errorf("the home page lacks %q:\n%s", want, home)
		}
	}
	a, _ := os.ReadFile(filepath.Join(site, host, "docs", "a.html"))
	if !strings.Contains(string(a), `href="../index.html"`) || !strings.Contains(string(a), `href="http://127.0.0.1:1/away"`) {
		t.Errorf("a.html:\n%s", a)
	}
	if _, err := os.Stat(filepath.Join(site, "index.html")); err != nil {
		t.Error("no index.html")
	}
	// Again into the same folder: refused, nothing touched.
	if code, _, errOut := run(t, "export", "--db", db, "--format", "html-site", site); code == ExitOK || !strings.Contains(errOut, "exists") {
		t.Errorf("export over an existing folder: %d %q", code, errOut)
	}
	// As a zip.
	zipFile := filepath.Join(dir, "site.zip")
	if code, _, errOut := run(t, "export", "--db", db, "--format", "html-site", zipFile); code != ExitOK {
		t.Fatalf("export zip: %d %q", code, errOut)
	}
	if b, err := os.ReadFile(zipFile); err != nil || !strings.HasPrefix(string(b), "PK") {
		t.Errorf("not a zip: %v", err)
	}
	// It is written, not read.
	if code, _, _ := run(t, "import", "--db", db, zipFile); code == ExitOK {
		t.Error("a zip was imported")
	}
}

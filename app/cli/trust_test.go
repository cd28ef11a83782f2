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

	"github.com/klauspost/compress/gzip"
)

// `page` says in words what is wrong with a file that is not HTML: a gzip cut short is
// flagged, and no problem is shown with empty parentheses (issue 29, item 13).
func TestPageNamesFileProblems(t *testing.T) {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	fmt.Fprint(zw, strings.Repeat("the quagga and the okapi graze together ", 4000))
	zw.Close()
	cut := z.Bytes()[:z.Len()/2]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<title>Files</title><a href="/notes.txt.gz">notes</a> <a href="/broken.pdf">paper</a>`)
		case "/notes.txt.gz":
			w.Header().Set("Content-Type", "application/gzip")
			w.Write(cut)
		case "/broken.pdf":
			w.Header().Set("Content-Type", "application/pdf")
			fmt.Fprint(w, "%PDF-1.4\n1 0 obj << /Type /Catalog ")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	if code, _, errOut := run(t, "crawl", "--db", db, "--delay", "0", "--types", "all", srv.URL+"/"); code != ExitOK {
		t.Fatalf("crawl: %s", errOut)
	}
	for path, want := range map[string]string{"/notes.txt.gz": "incomplete (the file stops before its end",
		"/broken.pdf": "unreadable (the file is broken"} {
		code, out, errOut := run(t, "page", "--db", db, srv.URL+path)
		if code != ExitOK || !strings.Contains(out, want) || strings.Contains(out, "()") {
			t.Errorf("page %s (exit %d, %s): want %q in\n%s", path, code, errOut, want, out)
		}
	}
}

// The maintenance report in words: distinct URLs never outnumber references, a broken link
// not yet dead says until when, the moved pointer names the library that cites it; and
// accepting the new address gives a pointer titled by its URL the new page's title, while a
// title someone gave stays (issue 28, item 11).
func TestMaintenanceReportWordsAndAcceptedTitles(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/old":
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
		case "/old2":
			http.Redirect(w, r, "/new2", http.StatusMovedPermanently)
		case "/new":
			fmt.Fprint(w, "<title>The new page</title>moved here")
		case "/new2":
			fmt.Fprint(w, "<title>Never crawled</title>")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	must := func(args ...string) string {
		t.Helper()
		code, out, errOut := run(t, append(args, "--db", db)...)
		if code != ExitOK && !(args[0] == "check" && code == ExitBroken) {
			t.Fatalf("%q: exit %d %s", args, code, errOut)
		}
		return out
	}
	must("crawl", "--delay", "0", "--max-pages", "1", srv.URL+"/new") // the workspace knows /new's title
	must("library", "mkdir", "-p", "/R/Sub")
	must("library", "add", srv.URL+"/old", "--to", "/R")
	must("library", "add", srv.URL+"/old2", "--to", "/R")
	must("library", "add", srv.URL+"/gone", "--to", "/R")
	must("library", "add", srv.URL+"/old", "--to", "/R/Sub", "--title", "Mine")
	must("task", "add", "lib", "--library", "/R")
	out := must("check", "--delay", "0", "--task", "lib")
	if !strings.Contains(out, "1 broken (1 failing, not dead until") {
		t.Errorf("check's task line does not say the broken link is not dead yet:\n%s", out)
	}
	out = must("report", "lib")
	for _, want := range []string{"2 libraries with 4 pointers to 3 distinct URLs; 3 URLs tested",
		"1 failing, not dead until"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "cited by library:/R, library:/R/Sub") && !strings.Contains(out, "cited by library:/R/Sub, library:/R\n") {
		t.Errorf("the moved pointer is not cited by both its libraries:\n%s", out)
	}
	must("library", "accept-redirect", "/R/"+strings.ReplaceAll(srv.URL, "/", `\/`)+`\/old`)
	must("library", "accept-redirect", "/R/"+strings.ReplaceAll(srv.URL, "/", `\/`)+`\/old2`)
	must("library", "accept-redirect", "/R/Sub/Mine")
	var ls []struct{ Kind, Title, URL string }
	if err := json.Unmarshal([]byte(must("library", "ls", "/R", "--json")), &ls); err != nil {
		t.Fatal(err)
	}
	titles := map[string]string{}
	for _, p := range ls {
		titles[p.URL] = p.Title
	}
	if got := titles[srv.URL+"/new"]; got != "The new page" {
		t.Errorf("the pointer titled by its old URL is titled %q, want the new page's title", got)
	}
	if got := titles[srv.URL+"/new2"]; got != srv.URL+"/new2" {
		t.Errorf("a pointer to a page the workspace has not read is titled %q, want its new URL", got)
	}
	if out := must("library", "ls", "/R/Sub", "--json"); !strings.Contains(out, `"Mine"`) {
		t.Errorf("a title someone gave did not stay:\n%s", out)
	}
}

// A link to a part of a page is named with its fragment; a missing part has a verdict of
// its own, not "broken" (issue 29, item 14).
func TestCheckNamesFragments(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Page</title><h2 id="here">Here</h2>`)
	}))
	t.Cleanup(srv.Close)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	code, out, errOut := run(t, "check", "--db", db, "--json", "--delay", "0", srv.URL+"/p.html#here", srv.URL+"/p.html#gone")
	if code != ExitOK {
		t.Fatalf("check: exit %d, %s", code, errOut)
	}
	var res struct {
		Links []struct{ URL, Verdict string }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Links) != 2 || res.Links[0].URL != srv.URL+"/p.html#here" || res.Links[0].Verdict != "ok" ||
		res.Links[1].URL != srv.URL+"/p.html#gone" || res.Links[1].Verdict != "fragment_missing" {
		t.Errorf("links: %+v", res.Links)
	}
	_, out, _ = run(t, "check", "--db", db, "--delay", "0", srv.URL+"/p.html#gone")
	if !strings.Contains(out, "fragment_missing") || !strings.Contains(out, srv.URL+"/p.html#gone") {
		t.Errorf("text:\n%s", out)
	}
}

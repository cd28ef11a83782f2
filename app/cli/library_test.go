package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mundaneum/app"
	"mundaneum/backend/store"
)

func lsJSON(t *testing.T, db string, args ...string) []app.LibPosting {
	t.Helper()
	code, out, errOut := run(t, append([]string{"library", "ls", "--db", db, "--json"}, args...)...)
	if code != ExitOK {
		t.Fatalf("ls %v: exit %d: %s", args, code, errOut)
	}
	var ps []app.LibPosting
	if err := json.Unmarshal([]byte(out), &ps); err != nil {
		t.Fatalf("ls --json: %v\n%s", err, out)
	}
	return ps
}

func paths(ps []app.LibPosting) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Kind+" "+p.Path)
	}
	return out
}

func TestLibraryVerbs(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	ok := func(args ...string) string {
		t.Helper()
		code, out, errOut := run(t, append(append([]string{"library"}, args[:1]...), append([]string{"--db", db}, args[1:]...)...)...)
		if code != ExitOK {
			t.Fatalf("library %v: exit %d: %s", args, code, errOut)
		}
		return out
	}
	fail := func(want int, args ...string) string {
		t.Helper()
		code, _, errOut := run(t, append(append([]string{"library"}, args[:1]...), append([]string{"--db", db}, args[1:]...)...)...)
		if code != want {
			t.Fatalf("library %v: exit %d, want %d: %s", args, code, want, errOut)
		}
		return errOut
	}
	ok("mkdir", "-p", "/Computing/Go", "--purpose", "The Go language")
	ok("mkdir", `/Computing/TCP\/IP`)
	fail(ExitError, "mkdir", "/Computing/Go")
	fail(ExitError, "mkdir", "/Nowhere/Else")
	ok("add", "https://go.dev/", "--title", "The Go site", "--to", "/Computing/Go", "--tag", "go,lang")
	if msg := fail(ExitError, "add", "https://GO.dev", "--to", "/Computing/Go"); !strings.Contains(msg, "already") {
		t.Errorf("duplicate: %s", msg)
	}
	fail(ExitUsage, "add", "javascript:alert(1)")
	ok("report", "Why Go", "--to", "/Computing/Go", "--text", "See https://go.dev/doc/")
	ok("add", "https://en.wikipedia.org/wiki/TCP/IP", "--to", `/Computing/TCP\/IP`, "--password", "pw")

	got := paths(lsJSON(t, db, "--recursive", "/"))
	want := []string{"library /Computing", "library /Computing/Go", "pointer /Computing/Go/The Go site",
		"report /Computing/Go/Why Go", `library /Computing/TCP\/IP`, `pointer /Computing/TCP\/IP/https:\/\/en.wikipedia.org\/wiki\/TCP\/IP`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ls -R:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	ps := lsJSON(t, db, "/Computing/Go")
	if len(ps) != 2 || ps[0].URL != "https://go.dev/" || strings.Join(ps[0].Tags, ",") != "go,lang" {
		t.Errorf("ls /Computing/Go: %+v", ps)
	}

	// A cycle is refused; a move and its undo.
	fail(ExitError, "mv", "/Computing", "/Computing/Go")
	ok("mkdir", "/Languages")
	ok("mv", "/Computing/Go", "/Languages")
	if got := paths(lsJSON(t, db, "/Languages")); len(got) != 1 || got[0] != "library /Languages/Go" {
		t.Errorf("after mv: %v", got)
	}
	ok("undo")
	if got := paths(lsJSON(t, db, "/Computing")); len(got) != 2 {
		t.Errorf("after undo: %v", got)
	}
	// Passwords: the protected pointer needs its password.
	fail(ExitError, "rm", `/Computing/TCP\/IP/#7`)
	out := ok("rm", "--dry-run", "/Computing")
	if !strings.Contains(out, "Would delete 6") {
		t.Errorf("dry run: %s", out)
	}
	// ...and does not go with its library without it (issue 29).
	if msg := fail(ExitError, "rm", "/Computing"); !strings.Contains(msg, "TCP") {
		t.Errorf("rm of a library holding a protected pointer: %s", msg)
	}
	ok("rm", "/Computing", "--password", "pw")
	if got := lsJSON(t, db, "--recursive"); len(got) != 1 {
		t.Errorf("after rm: %v", paths(got))
	}
	fail(ExitError, "undo")
	ok("undo", "--password", "pw")
	if got := lsJSON(t, db, "--recursive"); len(got) != 7 {
		t.Errorf("after undoing rm: %v", paths(got))
	}
	// What's new, newest first.
	if got := lsJSON(t, db, "--new"); got[0].Path != "/Languages" {
		t.Errorf("--new: %v", paths(got))
	}

	// Import and export.
	fixture := filepath.Join("..", "..", "backend", "formats", "bookmarks", "testdata", "firefox.html")
	ok("mkdir", "/Browser")
	out = ok("import", fixture, "--to", "/Browser", "--json")
	var rep app.LibImport
	// Two left out, and a favicon address, a keyword and a toolbar flag that nothing keeps.
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Pointers != 4 || rep.Skipped != 2 || len(rep.Problems) != 5 {
		t.Errorf("import: %+v %v", rep, err)
	}
	// The window's object, field for field (the CLI's own had "Line", "Reason", "moreProblems").
	if !strings.Contains(out, `"line": `) || !strings.Contains(out, `"reason": `) || !strings.Contains(out, `"more": 0`) {
		t.Errorf("import --json is not the window's LibImport:\n%s", out)
	}
	bad := filepath.Join(t.TempDir(), "bad.html")
	os.WriteFile(bad, []byte("<DL><p>\n<DT><H3>A</H3>\n<DL><p>\n"), 0o644)
	if msg := fail(ExitError, "import", bad); !strings.Contains(msg, "line 3") {
		t.Errorf("a broken file: %s", msg)
	}
	out = ok("export", "/Browser", "--format", "netscape")
	if !strings.Contains(out, `<A HREF="https://support.mozilla.org/products/firefox"`) || !strings.Contains(out, "<H3") {
		t.Errorf("export:\n%s", out)
	}
	site := filepath.Join(t.TempDir(), "site")
	ok("export", "--format", "html", "--out", site)
	if _, err := os.Stat(filepath.Join(site, "index.html")); err != nil {
		t.Error(err)
	}
	out = ok("search", "mozilla", "--json")
	if !strings.Contains(out, `"path": "/Browser/Mozilla Firefox/About Us"`) {
		t.Errorf("library search:\n%s", out)
	}
	if _, out, _ := run(t, "search", "--db", db, "folder:/Browser", "--json"); !strings.Contains(out, `"results": []`) {
		t.Errorf("folder: search over pages:\n%s", out)
	}
}

// The library and views commands work while another process owns the workspace (the
// window or serve); a crawl does not.
func TestLibraryBesideTheOwner(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	owner, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	for _, args := range [][]string{
		{"library", "mkdir", "--db", db, "/A"},
		{"library", "add", "--db", db, "https://a.example/", "--to", "/A"},
		{"views", "save", "--db", db, "v", "query"},
		{"library", "view", "--db", db, "v", "--to", "/A"},
		{"library", "ls", "--db", db, "/A"},
	} {
		if code, _, errOut := run(t, args...); code != ExitOK {
			t.Errorf("%v beside the owner: exit %d: %s", args, code, errOut)
		}
	}
	if code, _, _ := run(t, "crawl", "--db", db, "http://127.0.0.1:1/"); code != ExitLocked {
		t.Errorf("a second crawl: exit %d, want %d", code, ExitLocked)
	}
}

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 28, item 12: an import's summary agrees its nouns with its counts ("1 library", not
// "1 libraries"; "1 is elsewhere", not "1 are").
func TestLibraryImportSummaryPlurals(t *testing.T) {
	c := newLibCLI(t)
	bm := filepath.Join(t.TempDir(), "bookmarks.html")
	os.WriteFile(bm, []byte("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><H3>Go</H3>\n<DL><p>\n<DT><A HREF=\"https://example.org/a\">A</A>\n</DL><p>\n</DL><p>\n"), 0o644)
	c.ok("mkdir", "-p", "/One")
	c.ok("mkdir", "-p", "/Two")
	out := c.ok("import", bm, "--to", "/One")
	if !strings.Contains(out, "Imported 2 postings") || !strings.Contains(out, "1 library, 1 pointer, 0 reports, 0 views") {
		t.Errorf("first import: %q", out)
	}
	out = c.ok("import", bm, "--to", "/One")
	if !strings.Contains(out, "1 library was there already; 1 link was in its library already (left out)") {
		t.Errorf("second import: %q", out)
	}
	out = c.ok("import", bm, "--to", "/Two")
	if !strings.Contains(out, "1 is elsewhere in the library too") {
		t.Errorf("import elsewhere: %q", out)
	}
}

// Issue 28, item 12: `library redo` makes again what `library undo` took back, with --json
// and --show, and needs the password the change was made with.
func TestLibraryRedo(t *testing.T) {
	c := newLibCLI(t)
	c.ok("mkdir", "-p", "/Computing/Go")
	c.ok("rm", "/Computing/Go")
	if code, _, errOut := c.run("redo"); code == ExitOK || !strings.Contains(errOut, "nothing to redo") {
		t.Errorf("redo with nothing undone: %d %s", code, errOut)
	}
	c.ok("undo")
	if got := paths(lsJSON(t, c.db, "--recursive")); len(got) != 2 {
		t.Fatalf("after undo: %v", got)
	}
	if out := c.ok("redo", "--show"); !strings.Contains(out, `Redo would make again: deleted "Go"`) {
		t.Errorf("redo --show: %q", out)
	}
	var r struct {
		Op, Summary string
		Redone      bool
	}
	if err := json.Unmarshal([]byte(c.ok("redo", "--json")), &r); err != nil || r.Op != "deleted" || !r.Redone || !strings.HasPrefix(r.Summary, `deleted "Go"`) {
		t.Errorf("redo --json: %+v %v", r, err)
	}
	if got := paths(lsJSON(t, c.db, "--recursive")); len(got) != 1 {
		t.Errorf("after redo: %v", got)
	}
	// A protected change: redo needs its password.
	c.ok("mkdir", "/Locked", "--password", "pw")
	c.ok("rm", "/Locked", "--password", "pw")
	c.ok("undo", "--password", "pw")
	if code, _, errOut := c.run("redo"); code == ExitOK || !strings.Contains(errOut, "password") {
		t.Errorf("redo of a protected change without its password: %d %s", code, errOut)
	}
	c.ok("redo", "--password", "pw")
	if code, _, _ := c.run("ls", "/Locked"); code == ExitOK {
		t.Errorf("the redone delete left /Locked")
	}
}

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// libCLI runs library verbs on one workspace.
type libCLI struct {
	t  *testing.T
	db string
}

func newLibCLI(t *testing.T) libCLI {
	return libCLI{t: t, db: filepath.Join(t.TempDir(), "w.mundaneum")}
}

func (c libCLI) run(args ...string) (int, string, string) {
	c.t.Helper()
	return run(c.t, append(append([]string{"library"}, args[:1]...), append([]string{"--db", c.db}, args[1:]...)...)...)
}

func (c libCLI) ok(args ...string) string {
	c.t.Helper()
	code, out, errOut := c.run(args...)
	if code != ExitOK {
		c.t.Fatalf("library %v: exit %d: %s", args, code, errOut)
	}
	return out
}

// Issue 28, item 8: the README's and --help's own examples work on a new workspace, and
// what does not points at 'library mkdir -p'.
func TestLibraryExamplesOnANewWorkspace(t *testing.T) {
	c := newLibCLI(t)
	c.ok("mkdir", "-p", "/Computing/Go")
	c.ok("add", "https://go.dev/", "--to", "/Computing/Go")
	// mv to a name that does not exist renames, as a shell's mv does; undo takes it back whole.
	c.ok("mv", "/Computing/Go", "/Languages")
	if got := paths(lsJSON(t, c.db, "--recursive")); strings.Join(got, " ") != "library /Computing library /Languages pointer /Languages/https:\\/\\/go.dev\\/" {
		t.Errorf("after mv to a new name: %v", got)
	}
	c.ok("undo")
	if got := paths(lsJSON(t, c.db, "--recursive")); len(got) != 3 || got[1] != "library /Computing/Go" {
		t.Errorf("after undo: %v", got)
	}
	c.ok("mv", "/Computing/Go", "/Computing/Golang") // a rename in place
	if got := paths(lsJSON(t, c.db, "/Computing")); len(got) != 1 || got[0] != "library /Computing/Golang" {
		t.Errorf("after a rename in place: %v", got)
	}
	// import --to makes the library, as part of the import.
	bm := filepath.Join(t.TempDir(), "bookmarks.html")
	os.WriteFile(bm, []byte("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF=\"https://example.org/a\">A</A>\n</DL><p>\n"), 0o644)
	c.ok("import", bm, "--to", "/Browser/Firefox")
	if got := paths(lsJSON(t, c.db, "/Browser/Firefox")); len(got) != 1 || got[0] != "pointer /Browser/Firefox/A" {
		t.Errorf("after import --to a new library: %v", got)
	}
	c.ok("undo")
	if code, _, _ := c.run("ls", "/Browser"); code == ExitOK {
		t.Errorf("undoing the import left the library it made")
	}
	// Where nothing can be made, the error says how to make it.
	for _, args := range [][]string{
		{"mv", "/Computing/Golang", "/Nowhere/Else"},
		{"add", "https://x.example/", "--to", "/Nowhere"},
		{"cp", "/Computing/Golang", "/Nowhere"},
		{"mv", "/Computing", "/Languages", "/Nowhere"},
	} {
		code, _, errOut := c.run(args...)
		if code == ExitOK || !strings.Contains(errOut, "library mkdir -p /Nowhere") {
			t.Errorf("%v: exit %d: %s", args, code, errOut)
		}
	}
}

package cli

import (
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

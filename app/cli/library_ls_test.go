package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 29, item 16: ls lists everything asked for, and --json says what a limit left out.
func TestLibraryLsHasNoHiddenCap(t *testing.T) {
	c := newLibCLI(t)
	c.ok("mkdir", "/Big")
	var list strings.Builder
	const n = 1234
	for i := range n {
		fmt.Fprintf(&list, "https://example.org/%04d\n", i)
	}
	f := filepath.Join(t.TempDir(), "list.txt")
	os.WriteFile(f, []byte(list.String()), 0o644)
	c.ok("import", f, "--to", "/Big")
	if got := lsJSON(t, c.db, "/Big"); len(got) != n {
		t.Errorf("ls /Big: %d postings, want %d", len(got), n)
	}
	if got := lsJSON(t, c.db, "/Big", "--limit", "1100"); len(got) != 1100+1 || got[1100].Kind != "more" {
		t.Errorf("ls --limit 1100: %d entries", len(got))
	}
	if got := lsJSON(t, c.db, "--recursive"); len(got) != n+1 {
		t.Errorf("ls --recursive: %d entries, want %d", len(got), n+1)
	}
	if got := lsJSON(t, c.db, "--new"); len(got) != n+1 {
		t.Errorf("ls --new: %d entries, want %d", len(got), n+1)
	}
	_, out, _ := c.run("ls", "/Big", "--limit", "10", "--json")
	var raw []map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if last := raw[len(raw)-1]; len(raw) != 11 || last["kind"] != "more" || last["more"] != float64(n-10) || last["path"] != "/Big" {
		t.Errorf("ls --limit 10 --json ends with %v (%d entries)", raw[len(raw)-1], len(raw))
	}
	if out := c.ok("ls", "/Big", "--limit", "10"); !strings.Contains(out, fmt.Sprintf("and %d more", n-10)) {
		t.Errorf("ls --limit 10:\n%s", out)
	}
	if out := c.ok("ls", "/Big"); strings.Count(out, "[not in the workspace]") != n || strings.Contains(out, "more") {
		t.Errorf("ls lists %d of %d", strings.Count(out, "[not in the workspace]"), n)
	}
}

// A reader that leaves early (`ls --json | grep -q URL`, `| head`) ends ls quietly with
// success: under `set -o pipefail` a script's grep for the first entry failed because ls,
// writing the later entries, saw its pipe closed.
func TestLibraryLsReaderGone(t *testing.T) {
	c := newLibCLI(t)
	c.ok("mkdir", "/Big")
	var list strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&list, "https://example.org/%04d\n", i)
	}
	f := filepath.Join(t.TempDir(), "list.txt")
	os.WriteFile(f, []byte(list.String()), 0o644)
	c.ok("import", f, "--to", "/Big")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	defer w.Close()
	var stderr strings.Builder
	if code := Main([]string{"library", "ls", "--db", c.db, "--json", "--recursive", "/"}, w, &stderr, nil); code != ExitOK || stderr.Len() != 0 {
		t.Errorf("ls into a closed pipe: exit %d, %q", code, stderr.String())
	}
}

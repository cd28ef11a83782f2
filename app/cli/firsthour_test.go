package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A mistyped flag gets a suggestion from the command's own flags, and the usage line
// names the command whose help to read (issue 28, item 14).
func TestFlagTypoSuggestsAndNamesTheCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	for _, tc := range []struct {
		args       []string
		want, help string
	}{
		{[]string{"crawl", "--db", db, "--depht", "3", "http://127.0.0.1:1/"}, `did you mean --depth?`, "mundaneum crawl --help"},
		{[]string{"crawl", "--db", db, "--dep", "3", "http://127.0.0.1:1/"}, `did you mean --depth?`, "mundaneum crawl --help"},
		{[]string{"crawl", "--jsno", "http://127.0.0.1:1/"}, `did you mean --json?`, "mundaneum crawl --help"}, // an inherited flag
		{[]string{"library", "mkdir", "--db", db, "--parnets", "/A"}, `did you mean --parents?`, "mundaneum library mkdir --help"},
		{[]string{"--dbb", db}, `did you mean --db?`, "'mundaneum --help'"},
		{[]string{"serch", "otlet"}, `did you mean "search"?`, "'mundaneum --help'"},
	} {
		code, _, errOut := run(t, tc.args...)
		if code != ExitUsage || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "Run '"+strings.Trim(tc.help, "'")+"") {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant %q and %q", tc.args, code, errOut, tc.want, tc.help)
		}
	}
	// Nothing close: no suggestion at all.
	if _, _, errOut := run(t, "crawl", "--x", "http://127.0.0.1:1/"); strings.Contains(errOut, "did you mean") {
		t.Errorf("--x got a suggestion:\n%s", errOut)
	}
}

func TestLevenshtein(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"depth", "depth", 0}, {"depht", "depth", 1}, {"dpeth", "depth", 1},
		{"dept", "depth", 1}, {"db", "delay", 4}, {"kitten", "sitting", 3}, {"é", "e", 1},
	} {
		if got := levenshtein(tc.a, tc.b); got != tc.want {
			t.Errorf("levenshtein(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// --db in a directory that does not exist is refused with what to do, for writing and
// reading commands alike, and nothing is created (issue 28, item 14).
func TestDBInMissingDirectoryIsRefused(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "reserch", "w.mundaneum")
	for _, args := range [][]string{
		{"crawl", "--db", missing, "http://127.0.0.1:1/"},
		{"status", "--db", missing},
		{"library", "mkdir", "--db", missing, "/A"},
		{missing}, // the window, given the path as a file manager does
	} {
		code, _, errOut := run(t, args...)
		if code != ExitError || !strings.Contains(errOut, "no directory "+filepath.Dir(missing)) || !strings.Contains(errOut, "mkdir -p") {
			t.Errorf("%v: exit %d, stderr:\n%s", args, code, errOut)
		}
	}
	if _, err := os.Stat(filepath.Dir(missing)); !os.IsNotExist(err) {
		t.Errorf("the missing directory was made: %v", err)
	}
}

// The window takes a workspace's path as its one argument (a file manager's double-click)
// and as --db, but not both; a bare unknown word is still an unknown command.
func TestWorkspaceArgument(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	var opened []string
	desktop := func(path string) error { opened = append(opened, path); return nil }
	main := func(args ...string) int { return Main(args, new(strings.Builder), new(strings.Builder), desktop) }
	if code := main(db); code != ExitOK {
		t.Fatalf("mundaneum %s: exit %d", db, code)
	}
	if code := main("--db", db); code != ExitOK {
		t.Fatalf("mundaneum --db %s: exit %d", db, code)
	}
	if code := main("--db", db, db); code != ExitUsage {
		t.Errorf("both --db and an argument: exit %d", code)
	}
	if code := main("frobnicate"); code != ExitUsage {
		t.Errorf("an unknown command: exit %d", code)
	}
	if len(opened) != 2 || opened[0] != db || opened[1] != db {
		t.Errorf("opened %q", opened)
	}
}

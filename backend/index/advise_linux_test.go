package index

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mundaneum/backend/store"
)

// TestSearchMapsReadAtRandom checks that every search connection's maps of the workspace
// and the index are marked for random reads (see adviseRandom), so that a query on a cold
// file reads the pages it touches and not megabytes around each.
func TestSearchMapsReadAtRandom(t *testing.T) {
	ctx := context.Background()
	old := watchEvery
	watchEvery = 0 // the pool looks at its files at every checkout: no test of timing
	defer func() { watchEvery = old }()
	f := newFixture(t)
	var pages []page
	for i := range 50 {
		pages = append(pages, page{url: fmt.Sprintf("http://a.test/p%d", i), title: "page", body: fmt.Sprintf("words of page %d", i)})
	}
	f.visit(pages...)
	f.wait()
	f.close()
	// Read-only, as benchsearch and `mundaneum search` open it: no writer remaps the files.
	st, err := store.Open(ctx, f.path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	idx, err := Open(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	db := idx.SearchDB()
	// Three connections at once, each reading both files.
	useThree := func() func() {
		var conns []interface{ Close() error }
		for range 3 {
			c, err := db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
			var n int
			if err := c.QueryRowContext(ctx, `SELECT count(*) FROM page_fts JOIN pages p ON p.id = page_fts.rowid WHERE page_fts MATCH 'words'`).Scan(&n); err != nil || n < 50 {
				t.Fatalf("match: %d rows, %v", n, err)
			}
		}
		return func() {
			for _, c := range conns {
				c.Close()
			}
		}
	}
	checkAdvised := func(when string) {
		t.Helper()
		for _, file := range []string{f.path, Path(f.path)} {
			maps := sharedMaps(t, file)
			if len(maps) < 3 {
				t.Errorf("%s: %s: %d shared maps, want one per connection (3): %q", when, filepath.Base(file), len(maps), maps)
			}
			for _, flags := range maps {
				if !strings.Contains(" "+flags+" ", " rr ") {
					t.Errorf("%s: %s: a map without the random-read advice (VmFlags %q)", when, filepath.Base(file), flags)
				}
			}
		}
	}
	release := useThree()
	checkAdvised("opened")
	release()

	// Another process writes both files (a crawl, its index): each connection's next read
	// sees the change, and SQLite drops its maps and maps the files again. The new maps
	// are advised too.
	f.open()
	var more []page
	for i := range 50 {
		more = append(more, page{url: fmt.Sprintf("http://a.test/q%d", i), title: "page", body: fmt.Sprintf("more words of page %d", i)})
	}
	f.visit(more...)
	f.wait()
	f.close()
	// Checkpointed (as the writers do as they go): the pages are read from the files again,
	// not from the WALs.
	for _, file := range []string{f.path, Path(f.path)} {
		w, err := sql.Open("sqlite", file)
		if err != nil {
			t.Fatal(err)
		}
		var busy, logged, moved int
		if err := w.QueryRow(`PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logged, &moved); err != nil || busy != 0 {
			t.Fatalf("checkpoint %s: busy %d, %v", filepath.Base(file), busy, err)
		}
		w.Close()
	}
	release = useThree()
	defer release()
	checkAdvised("after another connection's writes")
}

// sharedMaps returns the VmFlags of the process's shared maps of the file at path.
func sharedMaps(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps")
	}
	abs, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		fields := strings.Fields(line)
		if len(fields) >= 5 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			in = len(fields) >= 6 && strings.Join(fields[5:], " ") == abs
			continue
		}
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok && in && strings.Contains(flags, " sh") {
			out = append(out, strings.TrimSpace(flags))
		}
	}
	return out
}

package index

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestIndexFollowsTheWorkspace stores pages as a crawl does and checks what the index
// finds once it has caught up: text, anchor text (also anchors added after a page was
// indexed), resources by what cites them, and no row for gone, duplicate or noindex pages.
// The index built along the way must equal one rebuilt from the stored pages.
func TestIndexFollowsTheWorkspace(t *testing.T) {
	f := newFixture(t)
	f.visit(
		page{url: "http://a.test/", title: "Otlet's Mundaneum", body: "a card index of all knowledge",
			links: []link{{to: "http://a.test/about", anchor: "about the index"}, {to: "http://a.test/logo.png", anchor: "logo", kind: "img"}}},
		page{url: "http://a.test/about", title: "About", body: "paul otlet and henri la fontaine"},
		page{url: "http://a.test/copy", title: "Otlet's Mundaneum", body: "a card index of all knowledge", dupOf: "http://a.test/"},
		page{url: "http://a.test/secret", title: "Secret", body: "zeppelin", noindex: true},
	)
	f.wait()
	for expr, want := range map[string][]string{
		"knowledge":                 {"/"},
		`anchors:"about the index"`: {"/about"},
		"fontaine":                  {"/about"},
		`anchors:logo AND headings:otlet AND url:png`: {"/logo.png"},
		"zeppelin": nil,
	} {
		if got := f.match(expr); !reflect.DeepEqual(got, want) {
			t.Errorf("MATCH %s = %v, want %v", expr, got, want)
		}
	}
	if p := f.idx.Progress(context.Background()); !p.Current() || p.Indexed != 3 {
		t.Errorf("progress = %+v", p)
	}

	// A later page cites /about: its anchor text reaches /about's row, once the log is
	// quiet or someone waits; a 404 takes / out.
	f.visit(page{url: "http://a.test/later", title: "Later", body: "more cards",
		links: []link{{to: "http://a.test/about", anchor: "world encyclopaedia"}}})
	f.visit(page{url: "http://a.test/", status: 404})
	f.wait()
	for expr, want := range map[string][]string{
		"anchors:encyclopaedia":     {"/about"},
		`anchors:"about the index"`: {"/about"},
		"knowledge":                 nil,
		"cards":                     {"/later"},
	} {
		if got := f.match(expr); !reflect.DeepEqual(got, want) {
			t.Errorf("after changes: MATCH %s = %v, want %v", expr, got, want)
		}
	}
	built := snapshot(t, f.path)
	if p := f.idx.Progress(context.Background()); !p.Current() {
		t.Fatalf("before the rebuild: progress = %+v", p)
	}
	// Once asked for, the rebuild shows at once: nothing says "current" from before it.
	if err := f.idx.StartRebuild(); err != nil {
		t.Fatal(err)
	}
	if p := f.idx.Progress(context.Background()); p.Current() || !p.Rebuilding {
		t.Errorf("right after StartRebuild: progress = %+v", p)
	}
	if err := f.idx.Rebuild(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if p := f.idx.Progress(context.Background()); !p.Current() {
		t.Errorf("after the rebuild: progress = %+v", p)
	}
	sameSnapshots(t, "followed vs rebuilt", built, snapshot(t, f.path))
	if v, err := f.st.IntegrityCheck(context.Background()); err != nil || v != "ok" {
		t.Fatalf("workspace integrity: %q %v", v, err)
	}
	checkIndexIntegrity(t, f)
}

func checkIndexIntegrity(t *testing.T, f *fixture) {
	t.Helper()
	var v string
	if err := f.idx.SearchDB().QueryRow(`PRAGMA ` + IndexSchema + `.integrity_check`).Scan(&v); err != nil || v != "ok" {
		t.Fatalf("index integrity: %q %v", v, err)
	}
	for _, tbl := range []string{"page_fts", "page_pairs"} {
		if _, err := f.idx.SearchDB().Exec(`INSERT INTO ` + tbl + `(` + tbl + `, rank) VALUES ('integrity-check', 1)`); err != nil {
			// The search pool is query-only: check on the index's own writer instead.
			if _, err := f.idx.db.Exec(`INSERT INTO ` + tbl + `(` + tbl + `, rank) VALUES ('integrity-check', 1)`); err != nil {
				t.Fatalf("%s integrity-check: %v", tbl, err)
			}
		}
	}
}

// TestAnchorsWaitForAQuietLog checks that new anchor text of an indexed page does not
// rewrite its row while the log is busy, and does once it is quiet.
func TestAnchorsWaitForAQuietLog(t *testing.T) {
	f := newFixture(t)
	f.visit(page{url: "http://a.test/", title: "Home", body: "start"})
	f.wait()
	f.visit(page{url: "http://a.test/b", title: "B", body: "bee", links: []link{{to: "http://a.test/", anchor: "homepage"}}})
	if err := f.st.Writer().Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Until the stage applies /b and defers the anchor, then a quiet log rewrites /.
	deadline := time.Now().Add(30 * time.Second)
	sawDeferred := false
	for time.Now().Before(deadline) {
		p := f.idx.Progress(context.Background())
		if p.Updating > 0 && p.Indexed == 2 {
			sawDeferred = true
		}
		if len(f.match("anchors:homepage")) == 1 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := f.match("anchors:homepage"); len(got) != 1 {
		t.Fatalf("the anchor text never reached its page: %v", got)
	}
	if !sawDeferred {
		t.Log("the anchor was rewritten before progress showed it waiting (fast machine)")
	}
}

// TestStaleIndexIsRebuilt checks that an index file that does not match its workspace is
// rebuilt when the workspace is opened: another workspace's, one older than the
// workspace's log, a garbage file, and one of another format.
func TestStaleIndexIsRebuilt(t *testing.T) {
	f := newFixture(t)
	f.visit(page{url: "http://a.test/", title: "Home", body: "original words"})
	f.wait()
	want := f.match("original")
	old, err := os.ReadFile(Path(f.path))
	if err != nil {
		t.Fatal(err)
	}
	f.visit(page{url: "http://a.test/n", title: "New", body: "fresh words"})
	f.wait()
	f.close()

	// An index from before the last changes (a backup of the index alone): its applied
	// note was trimmed from the log, so it is rebuilt.
	os.Remove(Path(f.path) + "-wal")
	os.Remove(Path(f.path) + "-shm")
	if err := os.WriteFile(Path(f.path), old, 0o644); err != nil {
		t.Fatal(err)
	}
	f.open()
	f.wait()
	if got := f.match("fresh OR original"); !reflect.DeepEqual(got, sorted("/", "/n")) {
		t.Fatalf("after restoring an old index: %v (before %v)", got, want)
	}

	// Garbage where the index should be.
	f.close()
	os.Remove(Path(f.path) + "-wal")
	os.Remove(Path(f.path) + "-shm")
	if err := os.WriteFile(Path(f.path), []byte("this is not an index, it is a very long line of text that SQLite will not like at all, no"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.open()
	f.wait()
	if got := f.match("fresh OR original"); len(got) != 2 {
		t.Fatalf("after garbage: %v", got)
	}

	// Another format.
	if _, err := f.idx.db.Exec(`PRAGMA user_version = 999`); err != nil {
		t.Fatal(err)
	}
	f.reopen()
	if p := f.idx.Progress(context.Background()); !p.Rebuilding && p.Indexed == 2 && !p.Current() {
		t.Fatalf("progress right after reopening an index of another format: %+v", p)
	}
	f.wait()
	if got := f.match("fresh OR original"); len(got) != 2 {
		t.Fatalf("after a format change: %v", got)
	}

	// Another workspace's index.
	g := newFixture(t)
	g.visit(page{url: "http://a.test/", title: "Other", body: "unrelated"})
	g.wait()
	g.close()
	f.close()
	for _, s := range []string{"", "-wal", "-shm"} {
		os.Remove(Path(f.path) + s)
	}
	b, err := os.ReadFile(Path(g.path))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(Path(f.path), b, 0o644); err != nil {
		t.Fatal(err)
	}
	f.open()
	f.wait()
	if got := f.match("fresh OR original OR unrelated"); !reflect.DeepEqual(got, sorted("/", "/n")) {
		t.Fatalf("after another workspace's index: %v", got)
	}
}

// TestReadOnlyIndex checks what a read-only process sees: no index before a writer built
// one, then the writer's index and how far behind it is.
func TestReadOnlyIndex(t *testing.T) {
	f := newFixture(t)
	f.visit(page{url: "http://a.test/", title: "Home", body: "words"})
	f.close()
	os.Remove(Path(f.path))
	os.Remove(Path(f.path) + "-wal")
	os.Remove(Path(f.path) + "-shm")

	ctx := context.Background()
	ro := openReadOnly(t, f.path)
	if p := ro.Progress(ctx); !p.Missing || p.Current() {
		t.Fatalf("read-only progress without an index = %+v", p)
	}
	if err := ro.Wait(ctx, nil); err != ErrReadOnly {
		t.Fatalf("Wait read-only = %v", err)
	}
	ro.Close()
	f.open()
	f.wait()
	ro = openReadOnly(t, f.path)
	defer ro.Close()
	if p := ro.Progress(ctx); !p.Current() || p.Indexed != 1 {
		t.Fatalf("read-only progress = %+v", p)
	}
	var n int
	if err := ro.SearchDB().QueryRow(`SELECT count(*) FROM page_fts WHERE page_fts MATCH 'words'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("read-only search: %d %v", n, err)
	}
}

// TestCatchUpInBatches stores more pages than a batch holds, with links between them, and
// checks that the index that catches up with them (reading the next batch beside each
// batch's writing) is the one a rebuild makes.
func TestCatchUpInBatches(t *testing.T) {
	f := newFixture(t)
	var ps []page
	for i := range 3*batchPages + 17 {
		p := page{url: fmt.Sprintf("http://a.test/p%d", i), title: fmt.Sprintf("page %d", i), body: fmt.Sprintf("body of page %d words w%d", i, i%13)}
		for _, j := range []int{(i * 7) % 300, (i * 13) % 800} {
			p.links = append(p.links, link{to: fmt.Sprintf("http://a.test/p%d", j), anchor: fmt.Sprintf("anchor a%d", i%5)})
		}
		ps = append(ps, p)
	}
	f.visit(ps...)
	f.wait()
	if p := f.idx.Progress(context.Background()); !p.Current() || p.Indexed != int64(len(ps)) {
		t.Fatalf("progress = %+v", p)
	}
	followed := snapshot(t, f.path)
	if err := f.idx.Rebuild(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	sameSnapshots(t, "followed vs rebuilt", followed, snapshot(t, f.path))
}

// TestCatchUpInSmallTransactions: when a batch's transaction leaves more in the log than
// txTarget (FTS5's merges inside it grow with the index), the stage takes fewer pages a
// batch, down to minBatch, and the index it makes is still the one a rebuild makes.
func TestCatchUpInSmallTransactions(t *testing.T) {
	old := txTarget
	txTarget = 32 << 10 // every batch of this test writes more
	t.Cleanup(func() { txTarget = old })
	f := newFixture(t)
	var ps []page
	for i := range 2*batchPages + 9 {
		p := page{url: fmt.Sprintf("http://a.test/p%d", i), title: fmt.Sprintf("page %d", i), body: fmt.Sprintf("body of page %d words w%d %s", i, i%13, strings.Repeat(fmt.Sprintf("t%d ", i), 50))}
		p.links = append(p.links, link{to: fmt.Sprintf("http://a.test/p%d", (i*7)%300), anchor: fmt.Sprintf("anchor a%d", i%5)})
		ps = append(ps, p)
	}
	f.visit(ps...)
	f.wait()
	if got := f.idx.st.pages(); got >= batchPages {
		t.Errorf("batch = %d pages after transactions past txTarget, want fewer than %d", got, batchPages)
	}
	if p := f.idx.Progress(context.Background()); !p.Current() || p.Indexed != int64(len(ps)) {
		t.Fatalf("progress = %+v", p)
	}
	followed := snapshot(t, f.path)
	if err := f.idx.Rebuild(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	sameSnapshots(t, "followed in small batches vs rebuilt", followed, snapshot(t, f.path))
}

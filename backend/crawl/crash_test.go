package crawl

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mundaneum/backend/index"
	"mundaneum/backend/store"
	"mundaneum/backend/store/dbtest"
)

const crashPages = 400

// TestMain lets the crash test run a crawl, or a rebuild of the index, in a child process
// (this test binary) that it can kill at any moment.
func TestMain(m *testing.M) {
	if db := os.Getenv("MUNDANEUM_CRASH_DB"); db != "" {
		crashChild(db, os.Getenv("MUNDANEUM_CRASH_SEED"), os.Getenv("MUNDANEUM_CRASH_MODE"))
		return
	}
	os.Exit(m.Run())
}

func crashChild(db, seed, mode string) {
	ctx := context.Background()
	st, err := store.Open(ctx, db, store.Options{BatchDelay: 50 * time.Millisecond})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	idx, err := index.Open(ctx, st)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	switch mode {
	case "reindex":
		for { // until killed
			if err := idx.Rebuild(ctx, nil); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
	default:
		cfg := crashConfig(seed)
		if mode == "render" {
			cfg = renderCrashConfig(seed)
		}
		cr, err := Open(ctx, st, idx, cfg)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		cr.Run(ctx, nil)
	}
	idx.Close()
	st.Close()
}

// startChild starts the crash child on the workspace db.
func startChild(t *testing.T, db, seed, mode string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MUNDANEUM_CRASH_DB="+db, "MUNDANEUM_CRASH_SEED="+seed, "MUNDANEUM_CRASH_MODE="+mode)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// reopen opens the workspace and its index after a kill and checks both files.
func reopen(t *testing.T, db string) *ws {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatalf("reopen after kill: %v", err)
	}
	if v, err := st.IntegrityCheck(ctx); err != nil || v != "ok" {
		t.Fatalf("workspace integrity after kill: %q %v", v, err)
	}
	idx, err := index.Open(ctx, st)
	if err != nil {
		t.Fatalf("reopen the index after kill: %v", err)
	}
	var v string
	if err := idx.SearchDB().QueryRowContext(ctx, `PRAGMA `+index.IndexSchema+`.integrity_check`).Scan(&v); err != nil || v != "ok" {
		t.Fatalf("index integrity after kill: %q %v", v, err)
	}
	return &ws{Store: st, idx: idx}
}

func (w *ws) close() {
	w.idx.Close()
	w.Store.Close()
}

// indexSnapshot is every row of the index, term by term (fts5vocab 'instance').
func indexSnapshot(t *testing.T, db string) string {
	t.Helper()
	c, err := sql.Open("sqlite", "file:"+index.Path(db))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetMaxOpenConns(1)
	if _, err := c.Exec(`CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, page_fts, instance)`); err != nil {
		t.Fatal(err)
	}
	rows, err := c.Query(`SELECT term, doc, col, offset FROM temp.v ORDER BY 1, 2, 3, 4`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	n := 0
	for rows.Next() {
		var term, col string
		var doc, off int64
		if err := rows.Scan(&term, &doc, &col, &off); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %d %s %d\n", term, doc, col, off)
		n++
	}
	if n < crashPages {
		t.Fatalf("the index holds %d terms", n)
	}
	// bm25's row and token counts (see backend/index/totals.go)
	var avg string
	if err := c.QueryRow(`SELECT hex(block) FROM page_fts_data WHERE id = 1`).Scan(&avg); err != nil {
		t.Fatal(err)
	}
	return b.String() + "averages " + avg
}

func crashConfig(seed string) Config {
	return Config{Seeds: []string{seed}, Scope: ScopeSite, PerHost: 4, Agents: 4}
}

// treeSite serves pages 0..n-1; page i links to 3i+1..3i+3 and back to 0. Each answer
// takes a moment so that a kill lands mid-crawl.
type treeSite struct {
	mu   sync.Mutex
	hits map[int]int
}

func (s *treeSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/robots.txt" {
		http.NotFound(w, r)
		return
	}
	i, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/p/"))
	if err != nil || i < 0 || i >= crashPages {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	s.hits[i]++
	s.mu.Unlock()
	time.Sleep(2 * time.Millisecond)
	var b strings.Builder
	fmt.Fprintf(&b, "<title>Page %d</title><p>card number%d of the index</p><a href=\"/p/0\">top</a>", i, i)
	for c := 3*i + 1; c <= 3*i+3 && c < crashPages; c++ {
		fmt.Fprintf(&b, "<a href=\"/p/%d\">child %d</a>", c, c)
	}
	w.Write([]byte(b.String()))
}

func TestCrashAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	site := &treeSite{hits: map[int]int{}}
	srv := httptest.NewServer(site)
	defer srv.Close()
	seed := srv.URL + "/p/0"
	db := filepath.Join(t.TempDir(), "w.mundaneum")

	cmd := startChild(t, db, seed, "crawl")
	// Kill it without warning once part of the crawl is committed (its index follows
	// behind, so the kill lands in the middle of indexing too).
	ctx := context.Background()
	deadline := time.Now().Add(30 * time.Second)
	committed := map[string]bool{}
	for time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		ro, err := store.Open(ctx, db, store.Options{ReadOnly: true})
		if err != nil {
			continue
		}
		var n int
		dbtest.Scan(t, ro.ReadDB().QueryRow(`SELECT count(*) FROM pages WHERE state='fetched'`), &n)
		ro.Close()
		if n >= crashPages/3 {
			break
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	st := reopen(t, db)
	rows, err := st.ReadDB().Query(`SELECT url FROM pages WHERE state='fetched'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var u string
		if err := rows.Scan(&u); err != nil {
			t.Fatal(err)
		}
		committed[u] = true
	}
	rows.Close()
	if len(committed) == 0 || len(committed) == crashPages {
		t.Fatalf("kill landed at %d committed pages: not mid-crawl", len(committed))
	}
	if err := st.MarkInterrupted(ctx); err != nil {
		t.Fatal(err)
	}
	cr, err := Open(ctx, st.Store, st.idx, crashConfig(seed))
	if err != nil {
		t.Fatal(err)
	}
	p, err := cr.Run(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.State != store.CrawlDone || !p.Index.Current() {
		t.Fatalf("resumed crawl ended %s, index %+v", p.State, p.Index)
	}
	var fetched, rowsIndexed int
	dbtest.Scan(t, st.ReadDB().QueryRow(`SELECT count(*) FROM pages WHERE state='fetched'`), &fetched)
	dbtest.Scan(t, st.idx.SearchDB().QueryRow(`SELECT count(*) FROM page_fts_docsize`), &rowsIndexed)
	if fetched != crashPages || rowsIndexed != crashPages {
		t.Fatalf("after resume: %d fetched, %d indexed, want %d", fetched, rowsIndexed, crashPages)
	}
	if n := matches(t, st, "number"+fmt.Sprint(crashPages-1)); n != 1 {
		t.Fatalf("the last page is not searchable: %d", n)
	}
	// Nothing committed before the kill was fetched again; nothing at all more than twice.
	site.mu.Lock()
	for i := 0; i < crashPages; i++ {
		u := fmt.Sprintf("%s/p/%d", srv.URL, i)
		if committed[u] && site.hits[i] != 1 {
			t.Errorf("%s committed before the kill but fetched %d times", u, site.hits[i])
		}
		if site.hits[i] < 1 || site.hits[i] > 2 {
			t.Errorf("%s fetched %d times", u, site.hits[i])
		}
	}
	site.mu.Unlock()
	if v, err := st.IntegrityCheck(ctx); err != nil || v != "ok" {
		t.Fatalf("integrity after resume: %q %v", v, err)
	}
	// The index that followed the crawl through a kill is the one rebuilt from the pages.
	followed := indexSnapshot(t, db)
	if err := st.idx.Rebuild(ctx, nil); err != nil {
		t.Fatal(err)
	}
	rebuilt := indexSnapshot(t, db)
	if followed != rebuilt {
		t.Fatalf("the index that followed the crawl differs from a rebuilt one (%d vs %d bytes)", len(followed), len(rebuilt))
	}
	st.close()
	t.Logf("killed at %d of %d committed pages; resumed to the end", len(committed), crashPages)

	// Kill rebuilds of the index at random moments: each time, the next open catches up
	// to the same index.
	for i, after := range []time.Duration{15 * time.Millisecond, 60 * time.Millisecond, 150 * time.Millisecond} {
		cmd := startChild(t, db, seed, "reindex")
		time.Sleep(after)
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		st := reopen(t, db)
		if err := st.idx.Wait(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if got := indexSnapshot(t, db); got != rebuilt {
			t.Fatalf("kill %d (after %s) of a rebuild: the index caught up to another index (%d vs %d bytes)", i+1, after, len(got), len(rebuilt))
		}
		st.close()
	}
}

// TestPerHostCapCountsPages checks that the per-host cap counts pages fetched: not link
// occurrences (every tree page links back to the top page), not 404s, not redirects (issue
// 18: a 100,000-page site was cut short by its 404s and redirects), and that the run says
// when the cap cut it short.
func TestPerHostCapCountsPages(t *testing.T) {
	tree := &treeSite{hits: map[int]int{}}
	mux := http.NewServeMux()
	mux.Handle("/p/", tree)
	mux.HandleFunc("/wrap/", func(w http.ResponseWriter, r *http.Request) {
		// Each page here links to a broken link and a redirect before its tree page.
		i, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/wrap/"))
		fmt.Fprintf(w, `<title>w%d</title><a href="/gone/%d">gone</a> <a href="/moved/%d">moved</a> <a href="/wrap/%d">next</a> <a href="/p/%d">p</a>`,
			i, i, i, i+1, i)
	})
	mux.HandleFunc("/moved/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/p/"+strings.TrimPrefix(r.URL.Path, "/moved/"), http.StatusMovedPermanently)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	st := openStore(t)
	const cap = 60
	cfg := Config{Seeds: []string{srv.URL + "/wrap/0"}, Scope: ScopeSite, Agents: 4, PerHost: 2, MaxPerHost: cap}
	p := run(t, st, cfg)
	var fetched, failed, redirected, capped int
	dbtest.Scan(t, st.ReadDB().QueryRow(`SELECT count(*) FILTER (WHERE state = 'fetched'), count(*) FILTER (WHERE state = 'failed'),
		count(*) FILTER (WHERE state = 'redirected'), count(*) FILTER (WHERE reason = ?) FROM pages`, ReasonHostLimit), &fetched, &failed, &redirected, &capped)
	if fetched != cap {
		t.Errorf("fetched %d pages with a cap of %d (and %d 404s, %d redirects that must not count)", fetched, cap, failed, redirected)
	}
	if failed == 0 || redirected == 0 || capped == 0 {
		t.Errorf("%d 404s, %d redirects, %d pages skipped by the cap: the test site did not test the cap", failed, redirected, capped)
	}
	if !strings.Contains(p.Note, "per-host cap of 60 pages") || !strings.Contains(p.Note, "--max-per-host") {
		t.Errorf("the run does not say that the cap cut it short: %q", p.Note)
	}
	if rec, _ := st.Crawl(context.Background(), p.CrawlID); rec.Note != p.Note {
		t.Errorf("the crawl's record says %q, the run %q", rec.Note, p.Note)
	}
}

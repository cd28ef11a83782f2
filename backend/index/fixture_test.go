package index

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"mundaneum/backend/store"
	"mundaneum/backend/store/dbtest"
	"mundaneum/backend/urlnorm"
)

// fixture is a real workspace, written through the store's API as a crawl writes it, with
// its index open.
type fixture struct {
	t     testing.TB
	path  string
	st    *store.Store
	idx   *Index
	crawl int64
	n     int
}

// page is one visit of a page: fetched with a title and body, or failed with a status.
type page struct {
	url, title, body string
	status           int    // 0: 200
	dupOf            string // "": unique content
	noindex          bool
	links            []link
}

type link struct{ to, anchor, kind string } // kind "" is "a"; "img" makes a resource

func newFixture(t testing.TB) *fixture {
	t.Helper()
	f := &fixture{t: t, path: filepath.Join(t.TempDir(), "w.mundaneum")}
	f.open()
	c, err := f.st.CreateCrawl(context.Background(), "k", []string{"http://a.test/"}, "site", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.st.StartRun(context.Background(), c.ID, []byte(`{}`), true); err != nil {
		t.Fatal(err)
	}
	f.crawl = c.ID
	return f
}

func (f *fixture) open() {
	f.t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, f.path, store.Options{BatchDelay: 20 * time.Millisecond})
	if err != nil {
		f.t.Fatal(err)
	}
	idx, err := Open(ctx, st)
	if err != nil {
		st.Close()
		f.t.Fatal(err)
	}
	f.st, f.idx = st, idx
	f.t.Cleanup(f.close)
}

func (f *fixture) close() {
	if f.idx != nil {
		f.idx.Close()
		f.st.Close()
		f.idx, f.st = nil, nil
	}
}

func (f *fixture) reopen() {
	f.t.Helper()
	f.close()
	f.open()
}

func target(t testing.TB, raw string) store.Target {
	u, err := urlnorm.Parse(raw)
	if err != nil {
		t.Fatalf("parse %s: %v", raw, err)
	}
	return store.Target{URL: u.String(), Origin: urlnorm.Origin(u), Kind: "seed"}
}

// visit stores one visit of each page, as a crawl would.
func (f *fixture) visit(pages ...page) {
	t, st, ctx := f.t, f.st, context.Background()
	t.Helper()
	var ts []store.Target
	for _, p := range pages {
		tg := target(t, p.url)
		tg.Follow = true
		ts = append(ts, tg)
	}
	if _, err := st.Enqueue(ctx, f.crawl, ts); err != nil {
		t.Fatal(err)
	}
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	// A page visited before is not queued again in the same run: look it up instead.
	for _, p := range pages {
		f.n++
		id, err := st.PageID(ctx, target(t, p.url).URL)
		if err != nil {
			t.Fatal(err)
		}
		r := &store.Result{CrawlID: f.crawl, PageID: id, URL: target(t, p.url).URL, State: store.StateFetched,
			Status: 200, ContentType: "text/html", Hash: fmt.Sprintf("h%d", f.n), ReplaceLinks: p.status < 400,
			Doc: &store.Doc{Title: p.title, Text: p.body, NoIndex: p.noindex}}
		if p.dupOf != "" {
			st.Writer().Flush(ctx)
			var hash string
			dbtest.Scan(t, st.ReadDB().QueryRow(`SELECT hash FROM pages WHERE url = ?`, target(t, p.dupOf).URL), &hash)
			r.Hash = hash
		}
		if p.status >= 400 {
			r.State, r.Status, r.Reason, r.Doc, r.Hash = store.StateFailed, p.status, "not-found", nil, ""
		}
		for _, l := range p.links {
			tg := target(t, l.to)
			tg.Kind, tg.Anchor = "a", l.anchor
			if l.kind == "img" {
				tg.Kind, tg.Skip, tg.Resource = "img", store.ReasonType, true
			}
			r.Links = append(r.Links, tg)
		}
		if _, err := st.SaveResult(ctx, r); err != nil {
			t.Fatal(err)
		}
		if p.dupOf != "" {
			if err := st.Writer().Flush(ctx); err != nil { // later pages may be its duplicates
				t.Fatal(err)
			}
		}
	}
}

// wait brings the index up to date.
func (f *fixture) wait() {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := f.idx.Wait(ctx, nil); err != nil {
		f.t.Fatal(err)
	}
}

// match returns the URLs of the pages the index finds for an FTS5 expression.
func (f *fixture) match(expr string) []string {
	f.t.Helper()
	rows, err := f.idx.SearchDB().Query(`SELECT p.url FROM page_fts JOIN pages p ON p.id = page_fts.rowid
		WHERE page_fts MATCH ? ORDER BY p.url`, expr)
	if err != nil {
		f.t.Fatalf("match %q: %v", expr, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var u string
		if err := rows.Scan(&u); err != nil {
			f.t.Fatal(err)
		}
		out = append(out, strings.TrimPrefix(u, "http://a.test"))
	}
	return out
}

// snapshot is the whole content of the word and pair indexes: every term's every
// occurrence (fts5vocab 'instance'), and the rows' column sizes.
func snapshot(t testing.TB, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(Path(path))+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	var parts []string
	for _, q := range []string{
		`CREATE VIRTUAL TABLE temp.vi USING fts5vocab(main, page_fts, instance)`,
		`CREATE VIRTUAL TABLE temp.vp USING fts5vocab(main, page_pairs, instance)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{
		`SELECT term, doc, col, offset FROM temp.vi ORDER BY 1, 2, 3, 4`,
		`SELECT term, doc, col, offset FROM temp.vp ORDER BY 1, 2, 3, 4`,
		`SELECT id, hex(sz) FROM page_fts_docsize ORDER BY id`,
		`SELECT rows FROM index_state`,
		// bm25's row and token counts (see totals.go)
		`SELECT 'fts averages', hex(block) FROM page_fts_data WHERE id = 1`,
		`SELECT 'pairs averages', hex(block) FROM page_pairs_data WHERE id = 1`,
	} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			parts = append(parts, fmt.Sprint(vals...))
		}
		rows.Close()
	}
	return strings.Join(parts, "\n")
}

func sameSnapshots(t testing.TB, what, a, b string) {
	t.Helper()
	if a == b {
		return
	}
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			t.Fatalf("%s: indexes differ at line %d: %q vs %q (%d and %d lines)", what, i, al[i], bl[i], len(al), len(bl))
		}
	}
	t.Fatalf("%s: indexes differ in length: %d vs %d lines", what, len(al), len(bl))
}

func sorted(s ...string) []string { slices.Sort(s); return s }

// roIndex is a workspace and its index opened read-only, as `mundaneum search` opens them
// while another process crawls.
type roIndex struct {
	*Index
	st *store.Store
}

func openReadOnly(t testing.TB, path string) *roIndex {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	idx, err := Open(ctx, st)
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	return &roIndex{Index: idx, st: st}
}

func (r *roIndex) Close() error {
	r.Index.Close()
	return r.st.Close()
}

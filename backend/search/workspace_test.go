package search

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"mundaneum/backend/index"
	"mundaneum/backend/store"
	"mundaneum/backend/urlnorm"
)

// page is one page of a test workspace.
type page struct {
	url, title, body string
	state            string // default fetched
	reason           string
	status           int // default 200 for fetched pages
	ctype            string
	lang             string
	lastMod          string
	hash             string // default: unique per page
	problems         []string
	links            []link
}

// link is an outgoing link; a target not among the workspace's pages is recorded as a
// non-HTML resource known only from links.
type link struct{ to, anchor string }

// workspace builds a real workspace with the store API: the pages are enqueued, leased and
// saved in order, with their links, then its index catches up.
func workspace(t testing.TB, pages []page) *indexed {
	t.Helper()
	w := newWorkspace(t)
	w.add(pages...)
	return w.st
}

// indexed is a workspace with its index.
type indexed struct {
	*store.Store
	idx *index.Index
}

// SearchDB is the pool searches read through.
func (w *indexed) SearchDB() *sql.DB { return w.idx.SearchDB() }

func openIndexed(t testing.TB, path string, opt store.Options) *indexed {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, path, opt)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := index.Open(ctx, st)
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close(); st.Close() })
	return &indexed{Store: st, idx: idx}
}

// testWorkspace is a workspace that pages can be added to.
type testWorkspace struct {
	t     testing.TB
	st    *indexed
	crawl int64
	n     int
	known map[string]bool // the pages added so far
}

func newWorkspace(t testing.TB) *testWorkspace {
	t.Helper()
	return newWorkspaceWith(t, store.Options{})
}

func newWorkspaceWith(t testing.TB, opt store.Options) *testWorkspace {
	t.Helper()
	ctx := context.Background()
	st := openIndexed(t, filepath.Join(t.TempDir(), "w.mundaneum"), opt)
	c, err := st.CreateCrawl(ctx, "k", []string{"http://a.test/"}, "site", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.StartRun(ctx, c.ID, []byte(`{}`), true); err != nil {
		t.Fatal(err)
	}
	return &testWorkspace{t: t, st: st, crawl: c.ID, known: map[string]bool{}}
}

func (w *testWorkspace) add(pages ...page) {
	t, st, ctx := w.t, w.st, context.Background()
	t.Helper()
	known := w.known
	var ts []store.Target
	for _, p := range pages {
		known[p.url] = true
		tg := target(t, p.url)
		tg.Follow = true
		ts = append(ts, tg)
	}
	if _, err := st.Enqueue(ctx, w.crawl, ts); err != nil {
		t.Fatal(err)
	}
	ls, err := st.Lease(ctx, w.crawl, len(pages))
	if err != nil {
		t.Fatal(err)
	}
	byURL := map[string]store.Lease{}
	for _, l := range ls {
		byURL[l.URL] = l
	}
	for _, p := range pages {
		w.n++
		l, ok := byURL[target(t, p.url).URL]
		if !ok {
			t.Fatalf("page %s was not leased", p.url)
		}
		r := &store.Result{CrawlID: w.crawl, PageID: l.PageID, URL: l.URL, State: p.state, Reason: p.reason,
			Status: p.status, ContentType: p.ctype, LastModified: p.lastMod, Hash: p.hash, ReplaceLinks: true}
		if r.State == "" {
			r.State = store.StateFetched
		}
		if r.State == store.StateFetched {
			if r.Status == 0 {
				r.Status = 200
			}
			if r.ContentType == "" {
				r.ContentType = "text/html; charset=utf-8"
			}
			if r.Hash == "" {
				r.Hash = fmt.Sprintf("hash-%d", w.n)
			}
			r.Doc = &store.Doc{Title: p.title, Text: p.body, Lang: p.lang, Problems: p.problems}
		}
		for _, lk := range p.links {
			tg := target(t, lk.to)
			tg.Kind, tg.Anchor = "a", lk.anchor
			if !known[lk.to] {
				tg.Skip, tg.Resource = "type", true
			}
			r.Links = append(r.Links, tg)
		}
		if _, err := st.SaveResult(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.idx.Wait(ctx, nil); err != nil {
		t.Fatal(err)
	}
}

func target(t testing.TB, raw string) store.Target {
	u, err := urlnorm.Parse(raw)
	if err != nil {
		t.Fatalf("parse %s: %v", raw, err)
	}
	return store.Target{URL: u.String(), Origin: urlnorm.Origin(u), Kind: "seed", Follow: false}
}

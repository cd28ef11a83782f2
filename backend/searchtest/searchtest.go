// Package searchtest builds real workspaces, with their search index, for the tests of the
// search packages (backend/search, backend/vocab, backend/libsearch): pages are saved
// through the store's API as a crawl saves them, and the index catches up before a test
// reads it. It also holds the small workspace most of their tests search (Corpus) and the
// library filed over it (Shelve).
package searchtest

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"mundaneum/backend/index"
	vlib "mundaneum/backend/library"
	"mundaneum/backend/store"
	"mundaneum/backend/urlnorm"
)

// Page is one page of a test workspace.
type Page struct {
	URL, Title, Body string
	State            string // default fetched
	Reason           string
	Status           int // default 200 for fetched pages
	CType            string
	Lang             string
	LastMod          string
	Hash             string // default: unique per page
	Problems         []string
	Links            []Link
}

// Link is an outgoing link; a target not among the workspace's pages is recorded as a
// non-HTML resource known only from links.
type Link struct{ To, Anchor string }

// Workspace is a real workspace with its search index, that pages can be added to.
type Workspace struct {
	*store.Store
	Index *index.Index

	t     testing.TB
	crawl int64
	n     int
	known map[string]bool // the pages added so far
}

// Build builds a real workspace of pages (see Add).
func Build(t testing.TB, pages []Page) *Workspace {
	t.Helper()
	w := New(t)
	w.Add(pages...)
	return w
}

// SearchDB is the pool searches read through.
func (w *Workspace) SearchDB() *sql.DB { return w.Index.SearchDB() }

// Open opens the workspace at path with its index, closed when the test ends.
func Open(t testing.TB, path string, opt store.Options) *Workspace {
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
	return &Workspace{Store: st, Index: idx, t: t, known: map[string]bool{}}
}

// New creates an empty workspace in the test's temporary directory, with a crawl the pages
// added are saved by.
func New(t testing.TB) *Workspace {
	t.Helper()
	return NewWith(t, store.Options{})
}

// NewWith is New with the store opened with opt.
func NewWith(t testing.TB, opt store.Options) *Workspace {
	t.Helper()
	ctx := context.Background()
	w := Open(t, filepath.Join(t.TempDir(), "w.mundaneum"), opt)
	c, err := w.CreateCrawl(ctx, "k", []string{"http://a.test/"}, "site", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.StartRun(ctx, c.ID, []byte(`{}`), true); err != nil {
		t.Fatal(err)
	}
	w.crawl = c.ID
	return w
}

// Add saves pages with the store API, as a crawl does: they are enqueued, leased and saved
// in order, with their links; then the index catches up.
func (w *Workspace) Add(pages ...Page) {
	t, st, ctx := w.t, w, context.Background()
	t.Helper()
	known := w.known
	var ts []store.Target
	for _, p := range pages {
		known[p.URL] = true
		tg := target(t, p.URL)
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
		l, ok := byURL[target(t, p.URL).URL]
		if !ok {
			t.Fatalf("page %s was not leased", p.URL)
		}
		r := &store.Result{CrawlID: w.crawl, PageID: l.PageID, URL: l.URL, State: p.State, Reason: p.Reason,
			Status: p.Status, ContentType: p.CType, LastModified: p.LastMod, Hash: p.Hash, ReplaceLinks: true}
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
			r.Doc = &store.Doc{Title: p.Title, Text: p.Body, Lang: p.Lang, Problems: p.Problems}
		}
		for _, lk := range p.Links {
			tg := target(t, lk.To)
			tg.Kind, tg.Anchor = "a", lk.Anchor
			if !known[lk.To] {
				tg.Skip, tg.Resource = "type", true
			}
			r.Links = append(r.Links, tg)
		}
		if _, err := st.SaveResult(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Index.Wait(ctx, nil); err != nil {
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

// Corpus is a small workspace exercising every part of the query language.
var Corpus = []Page{
	{URL: "http://a.test/", Title: "The Mundaneum", Body: "Paul Otlet's card index of all knowledge, the universal bibliographic repertory",
		Lang: "fr", LastMod: "Tue, 15 Nov 1994 08:12:31 GMT",
		Links: []Link{{"http://a.test/otlet", "Paul Otlet"}, {"http://a.test/cards", "index cards"},
			{"http://a.test/film.mpg", "a film of the Mundaneum"}, {"http://www.b.test/", "the b site"},
			{"http://a.test/photo.jpg", "photograph of the card catalogue"}}},
	{URL: "http://a.test/otlet", Title: "Paul Otlet", Body: "Otlet was a Belgian author and connected the documents with cards",
		LastMod: "Mon, 03 Jan 2022 10:00:00 GMT", Links: []Link{{"http://a.test/", "Mundaneum home"}}},
	{URL: "http://a.test/cards", Title: "Index cards", Body: "the connections between cards were recorded by the classification",
		Hash: "same", Links: []Link{{"http://a.test/", "the Mundaneum"}}},
	{URL: "http://a.test/copy", Title: "Index cards", Body: "the connections between cards were recorded by the classification",
		Hash: "same", Links: []Link{{"http://a.test/", "Mundaneum"}}},
	{URL: "http://a.test/copy2", Title: "Index cards", Body: "the connections between cards were recorded by the classification",
		Hash: "same"},
	{URL: "http://a.test/near", Title: "Near words", Body: "decimal one two three four five six seven eight nine classification",
		Lang: "en-GB", Links: []Link{{"http://a.test/", "Mundaneum"}}},
	{URL: "http://www.b.test/", Title: "Belgian libraries", Body: "a library of cards in Brussels",
		Links: []Link{{"http://a.test/", "Mundaneum in Mons"}, {"http://www.b.test/archive.zip", "the archive"}}},
	{URL: "http://deep.www.b.test/page.html", Title: "Deep page", Body: "deep in the subdomain of b, a universal decimal classification"},
	{URL: "http://c.test/report.pdf", Title: "Annual report", Body: "report on the universal decimal classification", CType: "application/pdf"},
	{URL: "http://a.test/gone", State: "failed", Reason: "not-found", Status: 404},
	{URL: "http://a.test/moved", State: "redirected", Reason: "redirect", Status: 301},
	{URL: "http://a.test/slow", State: "failed", Reason: "rate-limited", Status: 429},
	{URL: "http://a.test/hostile", Title: "Evil \uE000forged\uE001 <script>alert(1)</script>", Body: "mundaneum \uE000 fake mark forged"},
}

// Shelve files some of the Corpus pages in a small library:
//
//	/Research (#2)         -> a.test/otlet, tagged people; a report
//	/Research/Belgium (#3) -> www.b.test/, tagged places
//	/Elsewhere (#6)        -> c.test/report.pdf
func Shelve(t testing.TB, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	l := vlib.New(st)
	mk := func(parent int64, title string) int64 {
		n, err := l.Create(ctx, parent, vlib.LibraryInput{Title: title})
		if err != nil {
			t.Fatal(err)
		}
		return n.ID
	}
	point := func(parent int64, url, title, notes string, tags ...string) {
		if _, err := l.Point(ctx, parent, vlib.PointerInput{URL: url, Title: title, Notes: notes, Tags: tags}); err != nil {
			t.Fatal(err)
		}
	}
	research := mk(vlib.RootID, "Research")
	belgium := mk(research, "Belgium")
	point(research, "http://a.test/otlet", "Paul Otlet", "the man behind the Mundaneum", "people")
	point(belgium, "http://www.b.test/", "Belgian libraries", "", "places")
	if _, err := l.Input(ctx, research, vlib.ReportInput{Title: "Card indexes", Body: "Otlet's cards, a universal **classification**."}); err != nil {
		t.Fatal(err)
	}
	point(mk(vlib.RootID, "Elsewhere"), "http://c.test/report.pdf", "A report", "pdf classification")
}

// Segments builds a workspace whose index has a large segment (300 pages, many leaf
// pages) and two one-page segments holding rare words.
func Segments(t testing.TB) *Workspace {
	t.Helper()
	w := New(t)
	var big []Page
	for i := range 300 {
		body := fmt.Sprintf("catalogue classification universal decimal repertory knowledge document n%d m%d", i, i*7919)
		if i%3 == 0 {
			body += " cart"
		}
		if i%50 == 0 {
			body += " card"
		}
		if i%10 == 0 {
			body += " librarian unit"
		}
		if i%2 == 0 {
			body += " until"
		}
		big = append(big, Page{URL: fmt.Sprintf("http://big.test/%d", i), Title: "Page", Body: body})
	}
	w.Add(big...)
	w.Add(Page{URL: "http://rare.test/1", Title: "Figures", Body: "a zeugma"})
	w.Add(Page{URL: "http://rare.test/2", Title: "Windmills", Body: "quixotic"})
	return w
}

// LongPrefixes are pages whose words share prefixes longer than the index's prefix index.
func LongPrefixes() []Page {
	words := []string{"under", "Understand", "undergo", "underscore", "undefined", "Undeé", "und", "unde", "zebra", "undergoes"}
	var pages []Page
	for i, w := range words {
		pages = append(pages, Page{URL: fmt.Sprintf("http://a.test/%d", i), Title: "page " + w, Body: "some text with " + w})
	}
	return append(pages, Page{URL: "http://a.test/both", Title: "two", Body: "undergo and zebra"})
}

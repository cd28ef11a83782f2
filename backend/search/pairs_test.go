package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"mundaneum/backend/query"
	"mundaneum/backend/querysql"
	"mundaneum/backend/searchtest"
	"slices"
	"strings"
	"testing"
	"time"

	"mundaneum/backend/index"
)

// TestPhrasesFromPairs checks that a phrase of frequent words asked of the pair index finds
// exactly the pages the word index finds, in any column, in one column and with filters,
// for pages indexed before the pair index was built, after it (their pairs rows left to
// the idle index while the log is busy: phrases are then asked of the word index, with the
// same results), and whose incoming anchor text changed since.
func TestPhrasesFromPairs(t *testing.T) {
	old, oldDelay := index.PairsMinRows, index.MaintainDelay
	// The index is never idle long enough for its idle work: only Settle fills the pairs
	// rows left out while it followed the pages added.
	index.PairsMinRows, index.MaintainDelay = 100, time.Hour
	t.Cleanup(func() { index.PairsMinRows, index.MaintainDelay = old, oldDelay })
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 8))
	vocab := strings.Fields("state of the art open source search engine web crawler Café naïve RÉSUMÉ index page link text")
	seps := []string{" ", " ", " ", ", ", ". ", "-", " — ", "'", " (", ") ", "_", "\n"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			if r.IntN(5) == 0 { // a word too rare to pair: phrases must not match across it
				for range 7 {
					b.WriteByte(byte('a' + r.IntN(26)))
				}
			} else {
				b.WriteString(vocab[r.IntN(len(vocab))])
			}
			b.WriteString(seps[r.IntN(len(seps))])
		}
		return b.String()
	}
	host := func(i int) string { return []string{"a.test", "b.test", "c.example"}[i%3] }
	mkPages := func(from, n int) []searchtest.Page {
		var ps []searchtest.Page
		for i := from; i < from+n; i++ {
			p := searchtest.Page{URL: fmt.Sprintf("http://%s/p%d", host(i), i), Title: text(2 + r.IntN(5)), Body: text(10 + r.IntN(50))}
			for range r.IntN(3) {
				j := r.IntN(from + n)
				p.Links = append(p.Links, searchtest.Link{To: fmt.Sprintf("http://%s/p%d", host(j), j), Anchor: text(1 + r.IntN(4))})
			}
			ps = append(ps, p)
		}
		return ps
	}
	w := searchtest.New(t)
	w.Add(mkPages(0, 250)...)
	if err := w.Index.Settle(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if pp := w.Index.Progress(ctx).Pairs; !pp.Complete || pp.Words < 8 {
		t.Fatalf("pair index: %+v", pp)
	}
	with := New(w.SearchDB())
	wt := DefaultWeights
	wt.Pairs = false
	without := New(w.SearchDB()).WithWeights(wt)

	queries := func() []string {
		words := strings.Fields("state of the art open source search engine web crawler cafe naive resume index page link text")
		var qs []string
		for range 150 {
			n := 2 + r.IntN(3)
			ws := make([]string, n)
			for i := range ws {
				ws[i] = words[r.IntN(len(words))]
			}
			q := `"` + strings.Join(ws, " ") + `"`
			switch r.IntN(6) {
			case 0:
				q = "title:" + q
			case 1:
				q = "anchor:" + q
			case 2:
				q += " site:a.test"
			case 3:
				q = strings.Join(ws, "-") + " -site:b.test"
			}
			qs = append(qs, q)
		}
		return append(qs, `"state of the art"`, `"Café naïve"`, `"the open source"`)
	}
	check := func(stage string, pairs bool) {
		t.Helper()
		found := 0
		for _, q := range queries() {
			pl, err := with.compile(ctx, querysql.Parse(q).Root, &query.Notes{})
			if err != nil {
				t.Fatal(err)
			}
			if asked := pl.pairs != ""; asked != pairs {
				t.Errorf("%s: %s asked of the pair index: %v", stage, q, asked)
			}
			a, err := with.Search(ctx, Request{Query: q, Limit: 1000})
			if err != nil {
				t.Fatal(err)
			}
			b, err := without.Search(ctx, Request{Query: q, Limit: 1000})
			if err != nil {
				t.Fatal(err)
			}
			ua, ub := urls(a), urls(b)
			slices.Sort(ua)
			slices.Sort(ub)
			if a.Total != b.Total || !slices.Equal(ua, ub) || a.DidYouMean != b.DidYouMean {
				t.Errorf("%s: %s: pairs find %d %v, words %d %v", stage, q, a.Total, ua, b.Total, ub)
			}
			found += a.Total
		}
		if found < 100 {
			t.Errorf("%s: %d matches in all: the test text is too thin", stage, found)
		}
	}
	check("built", true)
	// Pages indexed after the build, while the log is busy, get their pairs rows when the
	// index is idle; new links change the anchor text of pages indexed before.
	w.Add(mkPages(250, 120)...)
	if pp := w.Index.Progress(ctx).Pairs; pp.Complete || pp.Missing == 0 {
		t.Fatalf("pair index after more pages: %+v", pp)
	}
	check("after more pages, pairs missing", false)
	if err := w.Index.Settle(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if pp := w.Index.Progress(ctx).Pairs; !pp.Complete || pp.Missing != 0 {
		t.Fatalf("pair index after more pages, settled: %+v", pp)
	}
	check("after more pages", true)
	// A new link gives a page indexed before the build new anchor text.
	w.Add(searchtest.Page{URL: "http://a.test/late", Title: "late", Body: "late", Links: []searchtest.Link{{To: "http://a.test/p0", Anchor: "crawler crawler crawler engine engine"}}})
	for _, sr := range []*Searcher{with, without} {
		res, err := sr.Search(ctx, Request{Query: `anchor:"crawler crawler crawler engine engine"`})
		if err != nil {
			t.Fatal(err)
		}
		if got := urls(res); !slices.Contains(got, "a.test/p0") {
			t.Errorf("pairs %v: new anchor text not found: %v", sr.w.Pairs, got)
		}
	}
	if err := w.Index.Settle(ctx, nil); err != nil {
		t.Fatalf("merge: %v", err)
	}
	check("merged", true)
	if v, err := w.IntegrityCheck(ctx); err != nil || v != "ok" {
		t.Fatalf("integrity: %q %v", v, err)
	}
}

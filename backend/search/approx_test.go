package search

import (
	"context"
	"fmt"
	"mundaneum/backend/searchtest"
	"slices"
	"testing"
)

// TestApproximate checks word~N against a real index: the terms within N edits match, the
// others do not, fields still apply, and the snippet marks the approximate words.
func TestApproximate(t *testing.T) {
	st := searchtest.Build(t, searchtest.Corpus)
	s := New(st.SearchDB())
	ctx := context.Background()
	urls := func(q string) []string {
		t.Helper()
		res, err := s.Search(ctx, Request{Query: q, Limit: 20})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if res.Corrected {
			t.Fatalf("%q was corrected to %q: an approximate word needs no did-you-mean", q, res.DidYouMean)
		}
		var out []string
		for _, r := range res.Results {
			out = append(out, r.URL)
		}
		return out
	}
	for _, tc := range []struct {
		q         string
		has, hasn []string
	}{
		{"otlett~1", []string{"http://a.test/otlet"}, nil},                                   // one letter added
		{"otelt~1", []string{"http://a.test/otlet"}, nil},                                    // two letters swapped
		{"clasificaton~2", []string{"http://a.test/near", "http://c.test/report.pdf"}, nil},  // two left out
		{"title:belgain~1", []string{"http://www.b.test/"}, []string{"http://a.test/otlet"}}, // title only
		{"xotlet~1", []string{"http://a.test/otlet"}, nil},                                   // an edit at the first letter
	} {
		got := urls(tc.q)
		for _, u := range tc.has {
			if !slices.Contains(got, u) {
				t.Errorf("%q = %v, want %s among them", tc.q, got, u)
			}
		}
		for _, u := range tc.hasn {
			if slices.Contains(got, u) {
				t.Errorf("%q = %v, must not hold %s", tc.q, got, u)
			}
		}
	}
}

func TestApproxTerms(t *testing.T) {
	st := searchtest.Build(t, searchtest.Corpus)
	s := New(st.SearchDB())
	for _, tc := range []struct {
		w    string
		d    int
		want []string
	}{
		{"clasificaton", 1, nil},
		{"clasificaton", 2, []string{"classification"}},
		{"cardz", 1, []string{"card", "cards"}},
		{"xyzzy", 2, nil},
	} {
		got, err := s.approxTerms(context.Background(), tc.w, tc.d)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("approxTerms(%q, %d) = %v %v, want %v", tc.w, tc.d, got, err, tc.want)
		}
	}
}

func TestApproximateHighlight(t *testing.T) {
	// Without the terms the query was asked with: every token within the distance.
	h := newHighlighter(Parse("otlett~1 card").Root, DefaultWeights, nil)
	for tok, want := range map[string]bool{"otlet": true, "otlett": true, "otto": false, "card": true, "outlet": false} {
		if got := h.match(tok); got != want {
			t.Errorf("match(%q) = %v, want %v", tok, got, want)
		}
	}
	// With them: those terms (what the query matched), and no edit distance is computed.
	h = newHighlighter(Parse("Otlett~1 card").Root, DefaultWeights, map[string][]string{"otlett~1": {"otlet"}})
	for tok, want := range map[string]bool{"otlet": true, "otlett": true, "otlets": false, "card": true, "outlet": false} {
		if got := h.match(tok); got != want {
			t.Errorf("with terms: match(%q) = %v, want %v", tok, got, want)
		}
	}
	if len(h.approx) != 0 {
		t.Errorf("with terms: %d approximate words compared by distance", len(h.approx))
	}
}

// approxBoth returns approxTerms of each word~d by the index's b-tree and by the vocabulary
// in memory, sorted (the two order ties by different frequency estimates).
func approxBoth(t *testing.T, db *Searcher, words []string, d int) (btree, vocab [][]string) {
	t.Helper()
	ctx := context.Background()
	plain := New(db.db.DB) // a searcher that was never asked to keep a vocabulary
	for _, w := range words {
		a, err := plain.approxTerms(ctx, w, d)
		if err != nil {
			t.Fatal(err)
		}
		if used, err := db.vocab.use(ctx, db.db.DB, func(*vocabulary) {}); err != nil || !used {
			t.Fatalf("the vocabulary is not current (%v)", err)
		}
		b, err := db.approxTerms(ctx, w, d)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(a)
		slices.Sort(b)
		btree, vocab = append(btree, a), append(vocab, b)
	}
	return btree, vocab
}

// TestApproxVocabulary checks that the vocabulary in memory finds the same terms as the
// index's b-tree, and stays so as pages with new words are indexed (new segments, merges).
func TestApproxVocabulary(t *testing.T) {
	w := searchtest.New(t)
	w.Add(searchtest.Corpus...)
	s := New(w.SearchDB())
	ctx := context.Background()
	s.PrepareVocabulary(ctx)
	if _, err := s.WaitVocabulary(ctx); err != nil {
		t.Fatal(err)
	}
	words := []string{"otlett", "otelt", "clasificaton", "belgain", "xotlet", "cardz", "xyzzy", "quoxilatd", "zorblewick", "zorblewik"}
	check := func(when string, want map[string]string) {
		t.Helper()
		for d := 1; d <= 2; d++ {
			btree, vocab := approxBoth(t, s, words, d)
			for i, w := range words {
				// word~1 finds every term one edit away either way. The b-tree reads whole
				// leaf pages around the word's prefix, so in a small index word~2 may also
				// find there a term whose two edits are not both after the shared prefix.
				for _, term := range btree[i] {
					if !slices.Contains(vocab[i], term) && (d == 1 || commonPrefix([]rune(w), term) >= 2) {
						t.Errorf("%s: %s~%d: b-tree %v, vocabulary %v", when, w, d, btree[i], vocab[i])
					}
				}
				for _, term := range vocab[i] {
					if !slices.Contains(btree[i], term) {
						t.Errorf("%s: %s~%d: b-tree %v, vocabulary %v", when, w, d, btree[i], vocab[i])
					}
				}
				if term, ok := want[w]; ok && d == 2 && !slices.Contains(vocab[i], term) {
					t.Errorf("%s: %s~%d = %v, want %s among them", when, w, d, vocab[i], term)
				}
			}
		}
	}
	check("built", map[string]string{"otlett": "otlet", "cardz": "card"})
	// New words arrive in batches: each is a new segment, read when a query first sees it.
	for i, word := range []string{"quoxilated", "zorblewicks", "zorblewickian"} {
		w.Add(searchtest.Page{URL: fmt.Sprintf("http://new.test/%d", i), Title: "New " + word, Body: "a page about " + word})
	}
	check("grown", map[string]string{"quoxilatd": "quoxilated", "zorblewick": "zorblewicks", "zorblewik": "zorblewicks"})
	if s.vocab.building || !s.vocab.ready {
		t.Errorf("the vocabulary was read again instead of brought up to date")
	}
}

func TestParseStructure(t *testing.T) {
	w := searchtest.New(t)
	w.Add(searchtest.Corpus...)
	var rec []byte
	if err := w.SearchDB().QueryRow(`SELECT block FROM page_fts_data WHERE id = 10`).Scan(&rec); err != nil {
		t.Fatal(err)
	}
	segs, ok := parseStructure(rec)
	if !ok || len(segs) == 0 {
		t.Fatalf("parseStructure = %v, %v", segs, ok)
	}
	for i := range len(rec) {
		parseStructure(rec[:i]) // never panics on a cut record
	}
	spans := []originSpan(nil)
	for _, s := range segs {
		spans = addSpan(spans, s)
	}
	for _, s := range segs {
		if !covers(spans, s) {
			t.Errorf("segment %+v not covered by %v", s, spans)
		}
	}
	if covers(spans, ftsSegment{origin1: segs[0].origin1, origin2: 1 << 40}) {
		t.Errorf("a segment beyond the origins read is covered")
	}
}

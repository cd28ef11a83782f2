package vocab

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"mundaneum/backend/searchtest"
)

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

// approxBoth returns approxTerms of each word~d by the index's b-tree and by the vocabulary
// in memory, sorted (the two order ties by different frequency estimates).
func approxBoth(t *testing.T, db *Vocabulary, words []string, d int) (btree, mem [][]string) {
	t.Helper()
	ctx := context.Background()
	plain := New(db.db) // a vocabulary that was never asked to keep its terms in memory
	for _, w := range words {
		a, err := plain.approxTerms(ctx, w, d)
		if err != nil {
			t.Fatal(err)
		}
		if used, err := db.mem.use(ctx, db.db, func(*inMemory) {}); err != nil || !used {
			t.Fatalf("the vocabulary is not current (%v)", err)
		}
		b, err := db.approxTerms(ctx, w, d)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(a)
		slices.Sort(b)
		btree, mem = append(btree, a), append(mem, b)
	}
	return btree, mem
}

// TestApproxVocabulary checks that the vocabulary in memory finds the same terms as the
// index's b-tree, and stays so as pages with new words are indexed (new segments, merges).
func TestApproxVocabulary(t *testing.T) {
	w := searchtest.New(t)
	w.Add(searchtest.Corpus...)
	s := New(w.SearchDB())
	ctx := context.Background()
	s.Prepare(ctx)
	if _, err := s.Wait(ctx); err != nil {
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
	if s.mem.building || !s.mem.ready {
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

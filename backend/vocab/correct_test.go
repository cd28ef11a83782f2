package vocab

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"maps"
	"mundaneum/backend/searchtest"
	"slices"
	"strings"
	"testing"
)

func TestNearest(t *testing.T) {
	w := searchtest.Segments(t)
	s := New(w.SearchDB())
	if _, n, err := s.largestSegment(context.Background()); err != nil || n < 3 {
		t.Fatalf("largest segment: %d segments, %v", n, err)
	}
	for _, tc := range []struct{ typo, want string }{
		{"catalgoue", "catalogue"},  // transposition
		{"cataloguee", "catalogue"}, // insertion at the end
		{"clasification", "classification"},
		{"univrsal", "universal"},
		{"tatalogue", "catalogue"},          // replacement of the first letter
		{"xcatalogue", "catalogue"},         // insertion before it
		{"atalogue", "catalogue"},           // its deletion
		{"actalogue", "catalogue"},          // first two letters swapped
		{"ctalogue", "catalogue"},           // second letter deleted
		{"dcimal", "decimal"},               // short prefix, in the probes
		{"classifcaiton", "classification"}, // distance 2
		{"carz", "cart"},                    // cart is in more pages than card
		{"crd", "card"},                     // short words: distance 1 only
		{"zeugam", "zeugma"},                // rare word, in a small segment
		{"xeugma", "zeugma"},                // ... with its first letter wrong
		{"quixotc", "quixotic"},
		{"zzzzqqqq", ""},
		{"librarain", "librarian"},
		{"unitl", "until"}, // unit is one edit away too, in fewer pages
	} {
		got, err := s.nearest(context.Background(), tc.typo)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("nearest(%q) = %q, want %q", tc.typo, got, tc.want)
		}
	}
	// Without reading the b-tree, by MATCH alone, at distance 1.
	for _, typo := range []string{"catalgoue", "tatalogue", "xeugma", "zeugam", "cataloguee", "univrsal"} {
		want, err := s.nearest(context.Background(), typo)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := s.nearestByMatch(context.Background(), []rune(typo)); got != want || err != nil {
			t.Errorf("nearestByMatch(%q) = %q, %v; want %q", typo, got, err, want)
		}
	}
}

// vocabTerms returns the index's terms, from fts5vocab.
func vocabTerms(t testing.TB, db interface {
	Query(string, ...any) (*sql.Rows, error)
}) map[string]bool {
	t.Helper()
	rows, err := db.Query(`SELECT term FROM page_vocab`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	v := map[string]bool{}
	for rows.Next() {
		var term string
		if err := rows.Scan(&term); err != nil {
			t.Fatal(err)
		}
		v[term] = true
	}
	return v
}

// typos returns w with one letter deleted, swapped with the next, replaced or inserted, at
// every position.
func typos(w string) []string {
	var out []string
	rw := []rune(w)
	for j := 0; j <= len(rw); j++ {
		if j < len(rw) {
			out = append(out, string(slices.Delete(slices.Clone(rw), j, j+1)))
			t := slices.Clone(rw)
			t[j] = 'q'
			if rw[j] == 'q' {
				t[j] = 'z'
			}
			out = append(out, string(t))
		}
		if j+1 < len(rw) {
			t := slices.Clone(rw)
			t[j], t[j+1] = t[j+1], t[j]
			out = append(out, string(t))
		}
		out = append(out, string(slices.Insert(slices.Clone(rw), j, 'x')))
	}
	return out
}

// Every typo of every word of the index is corrected to a word one edit away, and to the
// word itself when no other is that close.
func TestNearestEveryTypo(t *testing.T) {
	for _, lib := range []struct {
		name string
		ws   func(testing.TB) *searchtest.Workspace
	}{
		{"library", func(t testing.TB) *searchtest.Workspace {
			w := searchtest.New(t)
			w.Add(searchtest.Corpus...)
			return w
		}},
		{"segments", searchtest.Segments},
	} {
		t.Run(lib.name, func(t *testing.T) {
			ctx := context.Background()
			db := lib.ws(t).SearchDB()
			s := New(db)
			vocab := vocabTerms(t, db)
			checked := 0
			for _, word := range slices.Sorted(maps.Keys(vocab)) {
				if !correctable(word) || len([]rune(word)) < 4 {
					continue
				}
				for _, typo := range typos(word) {
					if vocab[typo] || typo == word || !correctable(typo) {
						continue
					}
					var near []string
					for v := range vocab {
						if correctable(v) && Distance([]rune(typo), []rune(v), 1) == 1 {
							near = append(near, v)
						}
					}
					got, err := s.nearest(ctx, typo)
					if err != nil {
						t.Fatal(err)
					}
					checked++
					if !slices.Contains(near, got) || len(near) == 1 && got != word {
						t.Errorf("nearest(%q) = %q, want one of %v", typo, got, near)
					}
				}
			}
			if checked < 200 {
				t.Fatalf("only %d typos checked", checked)
			}
		})
	}
}

// inTx is a transaction as a vocabulary's DB (reads only).
type inTx struct{ *sql.Tx }

func (inTx) BeginTx(context.Context, *sql.TxOptions) (*sql.Tx, error) {
	return nil, errors.New("a vocabulary over a transaction reads only")
}

// The terms read from the b-tree are fts5vocab's, in the whole index and segment by
// segment, plus only terms whose rows were all deleted.
func TestPrefixTerms(t *testing.T) {
	ctx := context.Background()
	w := searchtest.Segments(t)
	w.Add(searchtest.Corpus...) // pages whose anchors change are deleted and indexed again
	// The index merges its segments when idle: everything is read in one transaction, so
	// from one state of the index.
	tx, err := w.SearchDB().BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	s := New(inTx{tx})
	vocab := vocabTerms(t, tx)
	var segs []int64
	rows, err := tx.Query(`SELECT DISTINCT segid FROM page_fts_idx`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		segs = append(segs, id)
	}
	rows.Close()
	if len(segs) < 3 {
		t.Fatalf("%d segments", len(segs))
	}
	prefixes := map[string]bool{}
	for v := range vocab {
		if r := []rune(v); len(r) >= 2 {
			prefixes[string(r[:2])] = true
		}
	}
	for p := range prefixes {
		all, union := map[string]bool{}, map[string]bool{}
		collect := func(seg int64, into map[string]bool) {
			err := s.prefixTerms(ctx, seg, p, 10000, func(term string) {
				if strings.HasPrefix(term, p) {
					into[term] = true
				}
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		collect(0, all)
		for _, seg := range segs {
			collect(seg, union)
		}
		if !maps.Equal(all, union) {
			t.Fatalf("prefix %q: all segments %v, each segment %v", p, all, union)
		}
		for v := range vocab {
			if strings.HasPrefix(v, p) && !all[v] {
				t.Errorf("prefix %q: %q missing", p, v)
			}
		}
		for term := range all {
			if ok, err := s.known(ctx, term); !vocab[term] && (ok || err != nil) {
				t.Errorf("prefix %q: %q is not in fts5vocab", p, term)
			}
		}
	}
}

func TestProbes(t *testing.T) {
	ctx := context.Background()
	w := searchtest.Segments(t)
	s := New(w.SearchDB())
	seg, _, err := s.largestSegment(ctx)
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"catalogue", "zeugma", "cart", "nothing", "catalog", "cataloguez", "a"}
	for _, tc := range []struct {
		name  string
		probe func(context.Context, []string) (map[string]bool, error)
		want  []string
	}{
		{"match", s.matching, []string{"a", "cart", "catalogue", "zeugma"}},
		{"largest segment", func(ctx context.Context, ws []string) (map[string]bool, error) { return s.inSegment(ctx, seg, ws) },
			[]string{"cart", "catalogue"}},
	} {
		found, err := tc.probe(ctx, words)
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Sorted(maps.Keys(found)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: found %v, want %v", tc.name, got, tc.want)
		}
	}
	// Probing position by position stops at the first that yields a word.
	cands := map[string]candidate{}
	found, err := s.probeEdits(ctx, []rune("tatalogue"), 10, cands, s.matching, true)
	if err != nil || !found || len(cands) != 1 || cands["catalogue"].dist != 1 {
		t.Fatalf("probeEdits: %v %v %v", found, cands, err)
	}
}

func TestEditsAt(t *testing.T) {
	w := []rune("cab")
	for _, tc := range []struct {
		j    int
		n    int      // strings
		some []string // among them
	}{
		{0, 1 + 1 + 25 + 26, []string{"ab", "acb", "zab", "xcab"}},
		{1, 1 + 1 + 25 + 26, []string{"cb", "cba", "czb", "cxab"}},
		{2, 1 + 25 + 26, []string{"ca", "caz", "caxb"}},
		{3, 26, []string{"cabs"}},
		{4, 0, nil},
		{-1, 0, nil},
	} {
		got := editsAt(w, tc.j)
		if len(got) != tc.n {
			t.Errorf("editsAt(cab, %d): %d strings, want %d", tc.j, len(got), tc.n)
		}
		for _, s := range tc.some {
			if !slices.Contains(got, s) {
				t.Errorf("editsAt(cab, %d) lacks %q", tc.j, s)
			}
		}
		if slices.Contains(got, "cab") {
			t.Errorf("editsAt(cab, %d) has cab", tc.j)
		}
	}
}

// leafPage encodes terms (in order) as an FTS5 leaf page, each followed by a doclist.
func leafPage(terms ...string) []byte {
	body := []byte{0, 0, 0, 0}
	var offsets []int
	prev := ""
	for i, t := range terms {
		offsets = append(offsets, len(body))
		keep := 0
		if i > 0 {
			for keep < len(prev) && keep < len(t) && prev[keep] == t[keep] {
				keep++
			}
			body = appendVarint(body, uint64(keep))
		}
		body = appendVarint(body, uint64(len(t)-keep))
		body = append(body, t[keep:]...)
		body = append(body, 0x02, 0x04, 0x00) // a rowid and positions
		prev = t
	}
	binary.BigEndian.PutUint16(body[2:], uint16(len(body)))
	last := 0
	for _, o := range offsets {
		body = appendVarint(body, uint64(o-last))
		last = o
	}
	return body
}

// appendVarint appends v as an SQLite varint.
func appendVarint(b []byte, v uint64) []byte {
	if v > 1<<56-1 {
		var buf [9]byte
		buf[8] = byte(v)
		v >>= 8
		for i := 7; i >= 0; i-- {
			buf[i] = byte(v&0x7f) | 0x80
			v >>= 7
		}
		return append(b, buf[:]...)
	}
	var buf []byte
	for {
		buf = append([]byte{byte(v&0x7f) | 0x80}, buf...)
		if v >>= 7; v == 0 {
			break
		}
	}
	buf[len(buf)-1] &^= 0x80
	return append(b, buf...)
}

func TestLeafTerms(t *testing.T) {
	long := strings.Repeat("x", 300) // a two-byte length
	for _, tc := range []struct {
		name string
		page []byte
		want []string
		ok   bool
	}{
		{"terms", leafPage("0cab", "0cabs", "0card", "0dog"), []string{"0cab", "0cabs", "0card", "0dog"}, true},
		{"long", leafPage("0a", "0a"+long), []string{"0a", "0a" + long}, true},
		{"doclist only", []byte{0, 4, 0, 7, 1, 2, 3}, nil, true},
		{"empty", nil, nil, false},
		{"footer beyond the page", []byte{0, 0, 0, 9, 1}, nil, false},
		{"footer in the header", []byte{0, 0, 0, 2, 1}, nil, false},
		{"term offset in the header", []byte{0, 0, 0, 6, 1, 1, 2}, nil, false},
		{"term beyond the body", []byte{0, 0, 0, 7, 9, 'a', 'b', 4}, nil, false},
		{"kept prefix too long", append(leafPage("0ab")[:8], 5, 1, 'c', 4, 4), []string{"0ab"}, false},
		{"varint cut", []byte{0, 0, 0, 5, 1, 0x80}, nil, false},
		{"huge offset", append([]byte{0, 0, 0, 5, 1}, appendVarint(nil, 1<<62)...), nil, false},
		{"same term twice", []byte{0, 0, 0, 7, 1, 'a', 9, 4, 0}, []string{"a"}, false},
		{"overlapping terms", []byte{0, 0, 0, 11, 2, 'a', 'b', 0, 1, 1, 'c', 4, 1}, []string{"ab"}, false},
		{"next term", []byte{0, 0, 0, 11, 2, 'a', 'b', 0, 1, 1, 'c', 4, 4}, []string{"ab", "ac"}, true},
	} {
		var got []string
		ok := leafTerms(tc.page, func(t []byte) { got = append(got, string(t)) })
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("%s: leafTerms = %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestFTSVarint(t *testing.T) {
	for _, v := range []uint64{0, 1, 127, 128, 300, 16383, 16384, 1<<56 - 1, 1 << 56, 1<<64 - 1} {
		b := appendVarint(nil, v)
		got, n := ftsVarint(append(b, 0xff))
		if got != v || n != len(b) {
			t.Errorf("ftsVarint(%x) = %d, %d; want %d, %d", b, got, n, v, len(b))
		}
		if _, n := ftsVarint(b[:len(b)-1]); n != 0 {
			t.Errorf("ftsVarint(%x) read a cut varint", b[:len(b)-1])
		}
	}
}

func FuzzLeafTerms(f *testing.F) {
	f.Add(leafPage("0cab", "0cabs", "0card", "1ca", "2cab"))
	f.Add(leafPage("0" + strings.Repeat("é", 100)))
	f.Add([]byte{0, 4, 0, 7, 1, 2, 3})
	f.Add([]byte{0, 0, 0, 5, 1, 0x80})
	f.Fuzz(func(t *testing.T, page []byte) {
		n := 0
		leafTerms(page, func(term []byte) {
			n++
			if len(term) > len(page) {
				t.Fatalf("term of %d bytes from a page of %d", len(term), len(page))
			}
		})
		if n > len(page) {
			t.Fatalf("%d terms from a page of %d bytes", n, len(page))
		}
		// A page made of the terms found parses back to them.
		var terms []string
		size := 0
		if leafTerms(page, func(term []byte) { terms = append(terms, string(term)); size += len(term) + 8 }) && size < 60000 {
			var got []string
			if !leafTerms(leafPage(terms...), func(term []byte) { got = append(got, string(term)) }) || !slices.Equal(got, terms) {
				t.Fatalf("round trip: %q, then %q", terms, got)
			}
		}
	})
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{
		{"kitten", "sitting", 3}, {"ca", "ac", 1}, {"abc", "abc", 0}, {"", "abc", 3},
		{"mundaneum", "mundanuem", 1}, {"classification", "clasification", 1}, {"ab", "", 2},
	} {
		if got := Distance([]rune(tc.a), []rune(tc.b), 5); got != tc.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
	if got := Distance([]rune("abcdef"), []rune("uvwxyz"), 2); got != 3 {
		t.Errorf("bounded distance = %d, want 3", got)
	}
}

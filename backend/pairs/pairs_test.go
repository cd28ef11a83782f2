package pairs

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"mundaneum/backend/tokenize"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	_ "modernc.org/sqlite"
)

func TestText(t *testing.T) {
	w := NewWords([]string{"the", "cat", "sat", "on", "mat", "cafe"})
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"the", ""},
		{"the cat", "the0cat"},
		{"The CAT sat", "the0cat cat0sat"},
		{"the cat, sat. on-the mat!", "the0cat cat0sat sat0on on0the the0mat"},
		{"the dog sat on the mat", "sat0on on0the the0mat"},
		{"the cat dog the cat sat", "the0cat 0 the0cat cat0sat"},
		{"the cat 42 sat on", "the0cat 0 sat0on"},
		{"Café the", "cafe0the"},
		{"café\u0301 the", "cafe0the"},               // a combining accent after a precomposed one
		{"the_cat", "the0cat"},                       // the underscore separates, as in unicode61
		{"the\u00a0cat\u2014sat", "the0cat cat0sat"}, // no-break space, em dash
		{"thecat the x cat", ""},
		{"the0cat the", ""}, // digits join words into one token that is not frequent
		{"dog cat sat dog the mat", "cat0sat 0 the0mat"},
	} {
		if got := w.Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := (*Words)(nil).Text("the cat"); got != "" {
		t.Errorf("nil Words: %q", got)
	}
}

func TestPhrase(t *testing.T) {
	w := NewWords([]string{"the", "cat", "sat", "Bad", "x1"})
	for _, c := range []struct {
		words []string
		want  string
		ok    bool
	}{
		{[]string{"the", "cat"}, `"the0cat"`, true},
		{[]string{"The", "cat", "SAT"}, `"the0cat cat0sat"`, true},
		{[]string{"the"}, "", false},
		{[]string{"the", "dog"}, "", false},
		{[]string{"bad", "the"}, "", false}, // not a candidate word: never in the set
		{[]string{"x1", "the"}, "", false},
		{nil, "", false},
	} {
		got, ok := w.Phrase(c.words)
		if got != c.want || ok != c.ok {
			t.Errorf("Phrase(%q) = %q, %v; want %q, %v", c.words, got, ok, c.want, c.ok)
		}
	}
	if w.Len() != 3 || !slices.Equal(w.List(), []string{"cat", "sat", "the"}) {
		t.Errorf("words: %v", w.List())
	}
}

func TestCounter(t *testing.T) {
	c := NewCounter()
	for i := range 3000 {
		text := "common words here"
		if i%50 == 0 {
			text += " onepercentish"
		}
		if i%1000 == 0 {
			text += " rare"
		}
		c.Add(text, "Common again", "r\u00e9sum\u00e9 x42")
	}
	got := c.Frequent()
	want := []string{"again", "common", "here", "resume", "words", "onepercentish"}
	if !slices.Equal(got, want) {
		t.Errorf("Frequent() = %v, want %v", got, want)
	}
	if c.Pages() != 3000 {
		t.Errorf("Pages() = %d", c.Pages())
	}
}

// memDB opens an in-memory database (one connection) and runs stmts in it.
func memDB(stmts ...string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			db.Close()
			return nil, fmt.Errorf("%s: %w", q, err)
		}
	}
	return db, nil
}

// fts opens an in-memory database with a word index and a pair index like the workspace's.
func fts(t testing.TB) *sql.DB {
	t.Helper()
	db, err := memDB(
		`CREATE VIRTUAL TABLE words USING fts5(a, b, tokenize = 'unicode61 remove_diacritics 2')`,
		`CREATE VIRTUAL TABLE pairs USING fts5(a, b, content='', contentless_delete=1, tokenize = 'unicode61 remove_diacritics 2')`,
	)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func ids(t testing.TB, db *sql.DB, q, match string) []int64 {
	t.Helper()
	rows, err := db.Query(q, match)
	if err != nil {
		t.Fatalf("%s %s: %v", q, match, err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestExact checks the claim of the package: on text with punctuation, case, diacritics,
// numbers and other scripts, the pair phrase finds exactly the pages FTS5's phrase finds,
// in any column and in one column.
func TestExact(t *testing.T) {
	db := fts(t)
	r := rand.New(rand.NewPCG(1, 2))
	vocab := []string{"the", "cat", "sat", "on", "mat", "dog", "ran", "far", "café", "Über", "x9", "日本", "naïve", "THE"}
	seps := []string{" ", " ", " ", ", ", ". ", "-", " — ", "\u00a0", "'", " (", ") ", "_", "\n"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(vocab[r.IntN(len(vocab))])
			b.WriteString(seps[r.IntN(len(seps))])
		}
		return b.String()
	}
	w := NewWords([]string{"the", "cat", "sat", "on", "mat", "cafe", "uber", "naive"})
	for id := 1; id <= 600; id++ {
		a, b := text(r.IntN(30)), text(r.IntN(8))
		if _, err := db.Exec(`INSERT INTO words(rowid, a, b) VALUES (?, ?, ?)`, id, a, b); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO pairs(rowid, a, b) VALUES (?, ?, ?)`, id, w.Text(a), w.Text(b)); err != nil {
			t.Fatal(err)
		}
	}
	freq := w.List()
	checked, found := 0, 0
	for range 400 {
		n := 2 + r.IntN(3)
		phrase := make([]string, n)
		for i := range phrase {
			phrase[i] = freq[r.IntN(len(freq))]
		}
		p, ok := w.Phrase(phrase)
		if !ok {
			t.Fatalf("no pair phrase for %q", phrase)
		}
		for _, col := range []string{"", "b : "} {
			want := ids(t, db, `SELECT rowid FROM words WHERE words MATCH ? ORDER BY rowid`, col+`"`+strings.Join(phrase, " ")+`"`)
			got := ids(t, db, `SELECT rowid FROM pairs WHERE pairs MATCH ? ORDER BY rowid`, col+p)
			if !slices.Equal(got, want) {
				t.Errorf("%s%q: pairs find %v, words %v", col, phrase, got, want)
			}
			checked++
			found += len(want)
		}
	}
	if found < checked {
		t.Errorf("only %d matches over %d phrases: the test text is too thin", found, checked)
	}
}

var fuzzDB struct {
	once sync.Once
	db   *sql.DB
	err  error
}

// FuzzTokens checks that this package splits and folds text as FTS5's unicode61 tokenizer
// does, by asking FTS5 for the tokens it indexed. Characters Unicode assigned after the
// tables SQLite was built with may differ; the seeds cover the scripts a crawl meets.
func FuzzTokens(f *testing.F) {
	for _, s := range []string{
		"the cat sat", "Café naïve ÜBER straße", "日本語のテキスト", "a_b-c.d,e", "x\u0301y", "ﬁne ligature",
		"Ⅻ roman ½ ²", "\u00a0nbsp\u2009thin", "emoji 😀 here", "اللغة العربية", "Ελληνικά Κείμενο", "İstanbul",
		"", "   ", "\xff\xfe broken utf8",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 || !utf8.ValidString(s) {
			return // the store indexes valid UTF-8 only (see store.indexable)
		}
		fuzzDB.once.Do(func() {
			fuzzDB.db, fuzzDB.err = memDB(
				`CREATE VIRTUAL TABLE words USING fts5(a, tokenize = 'unicode61 remove_diacritics 2')`,
				`CREATE VIRTUAL TABLE words_inst USING fts5vocab(words, 'instance')`,
			)
		})
		db := fuzzDB.db
		if fuzzDB.err != nil {
			t.Fatal(fuzzDB.err)
		}
		if _, err := db.Exec(`DELETE FROM words; INSERT INTO words(rowid, a) VALUES (1, ?)`, s); err != nil {
			t.Fatal(err)
		}
		rows, err := db.Query(`SELECT term FROM words_inst ORDER BY offset`)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for rows.Next() {
			var term string
			if err := rows.Scan(&term); err != nil {
				t.Fatal(err)
			}
			want = append(want, term)
		}
		rows.Close()
		var got []string
		tokenize.Tokens(s, func(tok string) { got = append(got, tok) })
		// Only tokens that are, or are next to, a candidate word matter to pairs.
		if !agree(got, want) {
			t.Errorf("tokens of %q:\n go     %q\n sqlite %q", s, got, want)
		}
		w := NewWords(got)
		if out := w.Text(s); strings.Count(out, " ") > 2*len(got) {
			t.Errorf("Text(%q) = %q: longer than its tokens allow", s, out)
		}
	})
}

// agree reports whether two token lists agree on every candidate word and on where the
// others are (a non-candidate token may be folded differently; that changes no pair).
func agree(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if (IsCandidate(a[i]) || IsCandidate(b[i])) && a[i] != b[i] {
			return false
		}
	}
	return true
}

func ExampleWords_Text() {
	w := NewWords([]string{"the", "of", "state", "art"})
	fmt.Println(w.Text("The state of the art, and the state of Art."))
	p, _ := w.Phrase([]string{"state", "of", "the", "art"})
	fmt.Println(p)
	// Output:
	// the0state state0of of0the the0art 0 the0state state0of of0art
	// "state0of of0the the0art"
}

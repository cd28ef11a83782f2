package search

import (
	"database/sql"
	"strings"
	"testing"
	"unicode/utf8"

	_ "modernc.org/sqlite"
)

func TestMatchExpr(t *testing.T) {
	for _, tc := range []struct{ q, want string }{
		{"otlet", `"otlet"`},
		{"paul otlet", `"paul" AND "otlet"`},
		{`"card index"`, `"card index"`},
		{"mund*", `"mund"*`},
		{"index -card", `("index") NOT "card"`},
		{"cat OR dog", `("cat" OR "dog")`},
		{"cat OR dog fish", `("cat" OR "dog") AND "fish"`},
		{"OR cat", `"cat"`},
		{"cat OR", `"cat"`},
		{`"unclosed phrase`, `"unclosed phrase"`},
		{`NEAR(a b) AND x:y`, `"NEAR a" AND "b" AND "AND" AND "x y"`},
		{`o'reilly`, `"o reilly"`},
		{`"" -"" * -`, ``},
		{`café`, `"café"`},
	} {
		got, ok := matchExpr(parse(tc.q))
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("matchExpr(%q) = %q, %v; want %q", tc.q, got, ok, tc.want)
		}
	}
}

func TestSplitSnippet(t *testing.T) {
	got := splitSnippet("a " + markOpen + "hit" + markClose + " b " + markOpen + "two" + markClose)
	want := []string{"a ", "hit", " b ", "two", ""}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q", got)
	}
	if got := splitSnippet("plain"); len(got) != 1 || got[0] != "plain" {
		t.Fatalf("got %q", got)
	}
	if got := splitSnippet("bad " + markOpen + "open"); len(got) != 1 || got[0] != "bad open" {
		t.Fatalf("got %q", got)
	}
}

// FuzzQuery checks that any input yields an expression FTS5 accepts (never a syntax error
// reaching the user) and never panics.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{"a b", `"x y"`, "a OR b", "-x", "x*", `a"b`, "NEAR(a b, 5)", "((", "title:x",
		"\x00", "AND OR NOT", `"""`, "*", "-", "a - b", "é ü 中文", "a\"*OR-b"} {
		f.Add(s)
	}
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		f.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE VIRTUAL TABLE t USING fts5(a, b, tokenize='unicode61 remove_diacritics 2', prefix='2 3');
		INSERT INTO t VALUES ('paul otlet card index', 'mundaneum');`); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, q string) {
		expr, ok := matchExpr(parse(q))
		if !ok {
			return
		}
		if !utf8.ValidString(expr) && utf8.ValidString(q) {
			t.Fatalf("invalid UTF-8 expression %q from %q", expr, q)
		}
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM t WHERE t MATCH ?`, expr).Scan(&n); err != nil {
			t.Fatalf("query %q -> %q: %v", q, expr, err)
		}
	})
}

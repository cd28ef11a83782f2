package query

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"mundaneum/backend/tokenize"
)

// parseCases are queries with their syntax trees (canonical String form, "" for none) and
// a substring of the notes ("" when the query should parse without any note).
var parseCases = []struct{ q, want, note string }{
	// words, phrases, operators
	{"otlet", "otlet", ""},
	{"paul otlet", "AND(paul otlet)", ""},
	{`"card index"`, `"card index"`, ""},
	{`"card index"*`, `"card index"*`, ""},
	{"mund*", "mund*", ""},
	{"index -card", "AND(index NOT(card))", ""},
	{"index NOT card", "AND(index NOT(card))", ""},
	{"index AND card", "AND(index card)", ""},
	{"cat OR dog", "OR(cat dog)", ""},
	{"cat | dog", "OR(cat dog)", ""},
	{"cat OR dog fish", "AND(OR(cat dog) fish)", ""},
	{"a OR b OR c", "OR(a b c)", ""},
	{"cat or dog", "AND(cat or dog)", ""},
	{"(a OR b) c", "AND(OR(a b) c)", ""},
	{"a (b OR (c d))", "AND(a OR(b AND(c d)))", ""},
	{"-(a b)", "NOT(AND(a b))", ""},
	{"--a", "a", ""},
	{"-a OR b", "OR(NOT(a) b)", ""},
	{`-"a b"`, `NOT("a b")`, ""},
	{"NEAR(a b, 5)", "NEAR(a b, 5)", ""},
	{"NEAR(a b,3)", "NEAR(a b, 3)", ""},
	{`NEAR(a "b c" de*)`, `NEAR(a "b c" de*, 10)`, ""},
	{"NEAR(a b, 500)", "NEAR(a b, 100)", ""},
	{"near(a b)", "AND(near a b)", ""},
	// approximate words
	{"otlet~1", "otlet~1", ""},
	{"mundaneum~2", "mundaneum~2", ""},
	{"otlet~", "otlet~1", ""},
	{"otlet~0", "otlet", ""},
	{"otlet~7", "otlet~2", "two edits"},
	{"card~2", "card~1", "within one"},
	{"ab~1", "ab", "three letters"},
	{"otlet*~1", "otlet~1", "both a prefix"},
	{"otlet~1*", "otlet~1", "both a prefix"},
	{"e-mail~1", `"e mail"`, "splits"},
	{`"card index"~1`, `"card index"`, "phrase cannot be approximate"},
	{"title:otlet~1", "title:otlet~1", ""},
	{"-otlet~1", "NOT(otlet~1)", ""},
	{"NEAR(otlet~1 card)", "NEAR(otlet card, 10)", "exact words"},
	{"a~b", `"a b"`, ""},
	// fields
	{"title:otlet", "title:otlet", ""},
	{"TITLE:otlet", "title:otlet", ""},
	{"intitle:otlet", "title:otlet", ""},
	{`title:"card index"`, `title:"card index"`, ""},
	{"title:(a OR b) c", "AND(OR(title:a title:b) c)", ""},
	{"title: otlet", "title:otlet", ""},
	{"title:NEAR(a b, 2)", "title:NEAR(a b, 2)", ""},
	{"anchor:otlet body:index heading:x url:example", "AND(anchor:otlet body:index heading:x url:example)", ""},
	{"url:example.com", `url:"example com"`, ""},
	{"site:Example.COM", `site:"example.com"`, ""},
	{"site:http://www.example.com/path?q", `site:"www.example.com"`, ""},
	{"site:.fi", `site:"fi"`, ""},
	{"site:*.fi", `site:"fi"`, ""},
	{"site:127.0.0.1:8080", `site:"127.0.0.1:8080"`, ""},
	{"site:bücher.de", `site:"xn--bcher-kva.de"`, ""},
	{"host:www.example.com", `host:"www.example.com"`, ""},
	{"(site:a.test)", `site:"a.test"`, ""},
	{"site:fi ext:mpg", `AND(site:"fi" ext:"mpg")`, ""},
	{"ext:.MPG", `ext:"mpg"`, ""},
	{"filetype:pdf", `ext:"pdf"`, ""},
	{"type:image", `type:"image"`, ""},
	{"type:Video", `type:"video"`, ""},
	{"type:mpg", `ext:"mpg"`, ""},
	{"type:application/pdf", `type:"application/pdf"`, ""},
	{"inlinks:http://a.test/x_(1)", `inlinks:"http://a.test/x_(1)"`, ""},
	{"(inlinks:http://a.test/x)", `inlinks:"http://a.test/x"`, ""},
	{"linkto:a.test", `linkto:"a.test"`, ""},
	{"before:2024", `before:"2024-01-01"`, ""},
	{"after:2024-03", `after:"2024-03-01"`, ""},
	{"after:2024-03-15", `after:"2024-03-15"`, ""},
	{"status:404", `status:"404"`, ""},
	{"status:4XX", `status:"4xx"`, ""},
	{"status:broken", `is:"broken"`, ""},
	{"is:broken", `is:"broken"`, ""},
	{"is:redirected", `is:"redirect"`, ""},
	{"lang:EN", `lang:"en"`, ""},
	{"lang:pt-BR", `lang:"pt-br"`, ""},
	{"author:otlet", `author:"otlet"`, ""},
	{`by:"Paul  Otlet"`, `author:"Paul Otlet"`, ""},
	{"pages:>10", `pages:">10"`, ""},
	{"pages:=12", `pages:"12"`, ""},
	{"pages:<=3 card", `AND(pages:"<=3" card)`, ""},
	{"pages:many", "", "number of pages"},
	{"pages:>>3", "", "number of pages"},
	{"crawl:3", `crawl:"3"`, ""},
	{`url:/\.pdf$/`, `url:/\.pdf$/`, ""},
	{`title:/^the (a|b) c/ x`, `AND(title:/^the (a|b) c/ x)`, ""},
	{`-url:/x/`, `NOT(url:/x/)`, ""},
	{"site:\"a.test\"", `site:"a.test"`, ""},
	{"folder:/Computing/Go otlet", `AND(folder:"/Computing/Go" otlet)`, ""},
	{`folder:"/A b/C" tag:go`, `AND(folder:"/A b/C" tag:"go")`, ""},
	// repaired input
	{"tag:a,b otlet", "otlet", "tag of the library"},
	{"before:yesterday otlet", "otlet", "YYYY"},
	{"status:teapot", "", "HTTP status"},
	{"is:cool", "", "broken, redirect"},
	{"crawl:x", "", "crawl number"},
	{"lang:english!", "", "language code"},
	{"site:", "", "needs a value"},
	{"site:a/b", `site:"a"`, ""},
	{"ext:", "", "needs a value"},
	{"site:\"\"", "", "host name"},
	{"foo:bar", `"foo bar"`, "no field foo"},
	{"http://example.com/x", `"http example com x"`, ""},
	{`url:/a(b/`, `url:"a b"`, "regular expression"},
	{`url:/` + strings.Repeat("a", 400) + `/`, `url:"` + strings.Repeat("a", 400) + `"`, "too long"},
	{`"unclosed phrase`, `"unclosed phrase"`, "quote"},
	{"(a b", "AND(a b)", "not closed"},
	{"a b)", "AND(a b)", "no opening"},
	{"a OR", "a", "OR needs"},
	{"OR a", "a", "OR needs"},
	{"a OR OR b", "OR(a b)", "OR needs"},
	{"a AND", "a", "AND needs"},
	{"a -", "a", ""},
	{"a - b", "AND(a b)", ""},
	{"NOT", "", "nothing followed"},
	{"a NOT", "a", "nothing followed"},
	{"NEAR(a)", "a", "two words"},
	{"NEAR(a b", "NEAR(a b, 10)", "not closed"},
	{"NEAR(a OR b)", "NEAR(a b, 10)", "NEAR"},
	{"a*", "a", "two letters"},
	{"o'reilly", `"o reilly"`, ""},
	{"café", "café", ""},
	{"中文 検索", "AND(中文 検索)", ""},
	{"", "", ""},
	{"   ", "", ""},
	{`"" -"" * -`, "", ""},
	{"AND OR NOT", "", "needs"},
	{"()", "", ""},
	{"((((((((((((((((((((((((a))))))))))))))))))))))))", "a", "nested"},
	{"title:site:x", `site:"x"`, "needs a value"},
	{"\x00a\x00b", "AND(a b)", ""},
	{"a\"b", `AND(a "b")`, "quote"},
}

func TestParse(t *testing.T) {
	for _, tc := range parseCases {
		q := Parse(tc.q)
		got := ""
		if q.Root != nil {
			got = q.Root.String()
		}
		if got != tc.want {
			t.Errorf("Parse(%q) = %s, want %s (notes %q)", tc.q, got, tc.want, q.Notes)
		}
		notes := strings.Join(q.Notes, "; ")
		if tc.note == "" && notes != "" {
			t.Errorf("Parse(%q): unexpected notes %q", tc.q, notes)
		}
		if tc.note != "" && !strings.Contains(notes, tc.note) {
			t.Errorf("Parse(%q): notes %q, want %q", tc.q, notes, tc.note)
		}
	}
}

func TestParseLimits(t *testing.T) {
	q := Parse(strings.Repeat("word ", 100))
	if a, ok := q.Root.(*And); !ok || len(a.Nodes) != maxLeaves || !strings.Contains(strings.Join(q.Notes, ";"), "40 terms") {
		t.Fatalf("100 words: %v", q.Notes)
	}
	q = Parse(strings.Repeat("(", 90) + "a" + strings.Repeat(")", 90))
	if q.Root == nil || q.Root.String() != "a" {
		t.Fatalf("deep nesting: %v", q.Root)
	}
	q = Parse(strings.Repeat("x", 10000))
	if len(q.Notes) == 0 {
		t.Fatal("a huge query should be cut with a note")
	}
}

func TestTimeFilters(t *testing.T) {
	for _, c := range []struct{ q, want, note string }{
		{"changed:>2026-01-01", `changed:">2026-01-01"`, ""},
		{"fetched:<2026-03 otlet", `AND(fetched:"<2026-03" otlet)`, ""},
		{"changed:2025", `changed:"2025"`, ""},
		{`changed:">2026-01-01"`, `changed:">2026-01-01"`, ""},
		{"changed:>=2026-02-30", "", "comparison"},
		{"fetched:soon", "", "comparison"},
	} {
		q := Parse(c.q)
		got := ""
		if q.Root != nil {
			got = q.Root.String()
		}
		if got != c.want || (c.note != "") != (len(q.Notes) > 0) || (c.note != "" && !strings.Contains(strings.Join(q.Notes, " "), c.note)) {
			t.Errorf("Parse(%q) = %q %v, want %q with a note about %q", c.q, got, q.Notes, c.want, c.note)
		}
	}
}

// A query cut twice (to 200 tokens, then to 40 terms) says so once, in the terms a user
// counts; one cut only by the tokens (operators and brackets, few terms) says that
// (issue 28, item 14).
func TestLongQueryIsCutWithOneNote(t *testing.T) {
	var words []string
	for i := range 300 {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	cuts := func(notes []string) (n int, all string) {
		for _, s := range notes {
			if strings.Contains(s, "cut") {
				n++
			}
		}
		return n, strings.Join(notes, "; ")
	}
	if n, all := cuts(Parse(strings.Join(words, " ")).Notes); n != 1 || !strings.Contains(all, "its first 40 terms") {
		t.Errorf("300 words: %d notes of a cut: %q", n, all)
	}
	ops := strings.Repeat("( ", 150) + "a b" + strings.Repeat(" )", 150)
	if n, all := cuts(Parse(ops).Notes); n != 1 || !strings.Contains(all, "first 200 words, operators and brackets") {
		t.Errorf("150 brackets around two words: %d notes of a cut: %q", n, all)
	}
}

// The query's words are the index's tokens: folded, they are what backend/tokenize (the
// index's own tables) makes of the same text, combining marks and all.
func TestTokensAreTheIndexTokens(t *testing.T) {
	for _, s := range []string{
		"Zu\u0308rich", "Zürich café", "e\u0301te\u0301 ÉTÉ", "\u0301 alone", "東京 タワー", "ﬁle ﬂow",
		"x²+y³", "naïve-résumé", "Ωmega ωmega", "a\u200bb", "½ ⅓", "foo_bar baz.qux", "١٢٣ ۴۵۶",
		"\U000F0000private", "dé\u0332ja\u0300 vu",
	} {
		var got []string
		for _, w := range Tokens(s) {
			got = append(got, tokenize.Fold(w))
		}
		if want := tokenize.List(s); !slices.Equal(got, want) {
			t.Errorf("Tokens(%q) folded = %q, the index's tokens %q", s, got, want)
		}
	}
}

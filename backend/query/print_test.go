package query

import (
	"testing"
	"unicode/utf8"
)

func TestPrint(t *testing.T) {
	for _, tc := range parseCases {
		q := Parse(tc.q)
		if q.Root == nil {
			continue
		}
		p := Print(q.Root)
		if got := Parse(p); got.Root == nil || got.Root.String() != q.Root.String() {
			t.Errorf("Print(Parse(%q)) = %q, which parses as %v, not %s", tc.q, p, got.Root, q.Root)
		}
	}
	for _, tc := range []struct{ q, want string }{
		{"cat | dog fish", "((cat OR dog) fish)"},
		{"otlet~1 title:mundaneum~2", "(otlet~1 title:mundaneum~2)"},
		{`-(a OR b) "OR" !AND`, `(-(a OR b) "OR" AND~0)`},
		{"tag:\"two words\"", `tag:"two words"`},
	} {
		if got := Print(Parse(tc.q).Root); got != tc.want {
			t.Errorf("Print(Parse(%q)) = %q, want %q", tc.q, got, tc.want)
		}
	}
}

// FuzzParsePrint checks that printing a parsed query and parsing it again gives the same
// tree: parse(print(parse(x))) == parse(x).
func FuzzParsePrint(f *testing.F) {
	for _, tc := range parseCases {
		f.Add(tc.q)
	}
	for _, s := range []string{"a~1*", "ab~1", "otlet~9", `"a b"~1 c`, "NEAR(otlet~1 b)", "e-mail~1", "x~", "~1",
		"title:(a~2 OR -b*) url:/a b/", "tag:a\"b", "inlinks:a)", "site:bücher.de~1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		first := Parse(q)
		if first.Root == nil {
			return
		}
		p := Print(first.Root)
		if utf8.RuneCountInString(p) > MaxQueryRunes {
			return // the printed form is cut like any long query
		}
		second := Parse(p)
		if second.Root == nil || second.Root.String() != first.Root.String() {
			t.Fatalf("Parse(%q) = %s\nprinted %q\nparses as %v", q, first.Root, p, second.Root)
		}
	})
}

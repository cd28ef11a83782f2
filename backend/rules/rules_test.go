package rules

import (
	"errors"
	"strings"
	"testing"
)

// The paper's own examples of globs (II.A).
func TestPaperGlobs(t *testing.T) {
	cases := []struct {
		pat, url string
		want     bool
	}{
		{"*.mit.edu", "http://web.mit.edu/", false}, // the final * is not present
		{"*.mit.edu/*", "http://web.mit.edu/", true},
		{"*.mit.edu/*", "http://web.mit.edu/people/", true},
		{"*.mit.edu/*", "ftp://www.mit.edu/pub/", true},
		{"*.mit.edu/*", "http://web.mit.edu/manoli/www/", true},
		{"*.mit.edu/*", "http://manoland.mit.edu/", true},
		{"*.mit.edu/*", "http://web.mit.edu.ca/", false},
		{"*.edu*", "http://www.sfu.edu.co/", true},
		{"*.edu*", "ftp://www.mit.edu.ca/pub/bin/", true},
		{"*.edu*", "http://example.com/", false},
	}
	for _, c := range cases {
		s := MustParse("+url:" + c.pat)
		e := &Element{URL: c.url}
		got := s.Decide(e, 0).Value == Next
		if got != c.want {
			t.Errorf("%s on %s: got %v, want %v", c.pat, c.url, got, c.want)
		}
	}
}

func TestGlob(t *testing.T) {
	cases := []struct {
		pat, s string
		want   bool
	}{
		{"", "", true},
		{"", "a", false},
		{"*", "", true},
		{"*", "anything at all", true},
		{"a", "a", true},
		{"a", "A", true}, // case-insensitive
		{"ABC*", "abcdef", true},
		{"?", "é", true}, // one character, not one byte
		{"?", "", false},
		{"??", "a", false},
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"*b?d*", "xxbxdyy", true},
		{"*b?d", "bxdbyd", true},
		{"*b?d", "bxdbyx", false},
		{"a*a*a", "aaa", true},
		{"a*a*a", "aa", false},
		{"*x*y*z*", "..x..y..z..", true},
		{"*x*y*z*", "..x..z..y..", false},
		{`a\*b`, "a*b", true},
		{`a\*b`, "axb", false},
		{`a\?`, "a?", true},
		{`a\?`, "ab", false},
		{`\\`, `\`, true},
		{"*.html", "index.html", true},
		{"*.html", "index.htm", false},
		{"*?", "", false},
		{"?*", "x", true},
		{"a*?", "ab", true},
		{"a*?", "a", false},
		{"*ab?", "xabyab", false},
		{"*ab?", "xabyabz", true},
	}
	for _, c := range cases {
		g, err := compileGlob(c.pat)
		if err != nil {
			t.Fatalf("%q: %v", c.pat, err)
		}
		if got := g.match(strings.ToLower(c.s)); got != c.want {
			t.Errorf("glob %q on %q: got %v, want %v", c.pat, c.s, got, c.want)
		}
	}
}

func TestParsePrint(t *testing.T) {
	cases := []struct{ in, want string }{
		{"+url:*.mit.edu/*", "+url:*.mit.edu/*"},
		{"  + URL :*.mit.edu/*  ", "+url:*.mit.edu/*"},
		{"{NOT {AND +url:*.mit.edu/* -url:*.mit.edu/personnal/* {OR -body:*badword* +head:*goodcontext*}}}",
			"{NOT {AND +url:*.mit.edu/* -url:*.mit.edu/personnal/* {OR -body:*badword* +head:*goodcontext*}}}"},
		{"{and\n  +url:a\n  -url:b}  # a comment", "{AND +url:a -url:b}"},
		{`+title:"Annual report*"`, `+title:"Annual report*"`},
		{`+title:""`, `+title:""`},
		{`+path:/docs/*`, `+path:/docs/*`},
		{`+path:"/docs/"`, `+path:"/docs/"`}, // a glob, not the regex /docs/
		{`+path:/^\/docs\/(a|b)\//`, `+path:/^\/docs\/(a|b)\//`},
		{`+url:/a b/`, `+url:/a b/`},
		{`-depth:>3`, `-depth:>3`},
		{`+status:<=299`, `+status:<=299`},
		{`+status:2??`, `+status:2??`},
		{`+status:"<3"`, `+status:"<3"`},
		{`+title:a\"b`, `+title:a\"b`},
		{`+title:a"b`, `+title:a"b`},
		{`+title:"a b\"c"`, `+title:"a b\"c"`},
		{"*url:x ?url:y", "*url:x\n?url:y"},
		{"{LOCAL url:http://a/docs/* +anchor:*api* -path:*old*} +url:http://a/*",
			"+url:http://a/*\n{LOCAL url:http://a/docs/* +anchor:*api* -path:*old*}"},
	}
	for _, c := range cases {
		s, err := Parse(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := s.String(); got != c.want {
			t.Errorf("%q printed as %q, want %q", c.in, got, c.want)
		}
		again, err := Parse(s.String())
		if err != nil || again.String() != s.String() {
			t.Errorf("%q does not read back: %v %q", s.String(), err, again)
		}
	}
}

func TestPatternKinds(t *testing.T) {
	s := MustParse(`+path:/docs/ +path:"/docs/" +path:/docs/* +depth:<3 +depth:"<3" +title:/(?i)REPORT/`)
	kinds := []PatternKind{Regex, Glob, Glob, Compare, Glob, Regex}
	for i, n := range s.Rules {
		if k := n.(*Atom).Pat.Kind; k != kinds[i] {
			t.Errorf("rule %d %s: kind %d, want %d", i, n, k, kinds[i])
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		in   string
		line int
		col  int
		msg  string
	}{
		{"{AND +url:*.mit.edu/* {OR -body:", 1, 33, "expected a pattern"},
		{"{AND +url:a", 1, 12, "missing '}'"},
		{"+url", 1, 5, "expected ':'"},
		{"+bdy:x", 1, 2, `unknown field "bdy"`},
		{"url:x", 1, 1, "expected a rule"},
		{"+url:a\n  {XOR +url:b}", 2, 4, `unknown combination "XOR"`},
		{"{NOT +url:a +url:b +url:c}", 1, 20, "takes one or two rules"},
		{"{AND}", 1, 5, "needs at least one rule"},
		{"+url:/a(/", 1, 6, "bad regular expression"},
		{`+title:"abc`, 1, 8, "unterminated"},
		{`+title:abc\`, 1, 8, "lone backslash"},
		{"}", 1, 1, "unexpected '}'"},
		{"{AND {LOCAL url:a +url:b}}", 1, 7, "only at the top level"},
		{"{LOCAL title:a +url:b}", 1, 8, "known before the fetch"},
		{"{LOCAL +url:a +url:b}", 1, 8, "no category"},
		{"+url:a\n\n   +title: x", 3, 11, "expected a pattern"},
		{"+url:\xff", 1, 1, "UTF-8"},
		{strings.Repeat("{AND ", 100) + "+url:a" + strings.Repeat("}", 100), 1, 321, "nested"},
	}
	for _, c := range cases {
		_, err := Parse(c.in)
		var pe *Error
		if !errors.As(err, &pe) || !errors.Is(err, ErrSyntax) {
			t.Errorf("%q: error %v, want a syntax error", c.in, err)
			continue
		}
		if pe.Pos.Line != c.line || pe.Pos.Col != c.col || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("%q: %v, want %d:%d ...%s...", c.in, err, c.line, c.col, c.msg)
		}
	}
}

func TestHighlight(t *testing.T) {
	text := "{NOT +url:*.mit.edu/* -body:/bad(word)?/} # c\n?depth:<3 +title:\"a b\""
	spans, _, err := Highlight(text)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range spans {
		got = append(got, string(s.Kind)+"="+text[s.Start:s.End])
	}
	want := []string{"punct={", "keyword=NOT", "category=+", "field=url", "punct=:", "glob=*.mit.edu/*",
		"category=-", "field=body", "punct=:", "regex=/bad(word)?/", "punct=}", "comment=# c",
		"category=?", "field=depth", "punct=:", "compare=<3", "category=+", "field=title", "punct=:", `glob="a b"`}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("spans\n got %v\nwant %v", got, want)
	}
	spans, _, err = Highlight("+url:a\n  +bdy:x y\n+url:b")
	if err == nil {
		t.Fatal("no error")
	}
	last := spans[len(spans)-1]
	if last.Kind != SpanError || last.Start != 10 || last.End != 17 {
		t.Errorf("error span %+v", last)
	}
	// The atom's offsets cover its text.
	s := MustParse("  +url:x   -title:\"y z\"")
	if a := s.Rules[1].(*Atom); a.Start != 11 || a.End != 23 {
		t.Errorf("atom offsets %d %d", a.Start, a.End)
	}
}

func TestHighlightErrorAtEnd(t *testing.T) {
	spans, _, err := Highlight("{AND +url:a {OR -body:")
	last := spans[len(spans)-1]
	if err == nil || last.Kind != SpanError || last.Start != 21 || last.End != 22 {
		t.Errorf("%v %+v", err, last)
	}
}

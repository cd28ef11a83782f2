package rules

import (
	"fmt"
	"slices"
	"testing"
)

// paperWeb is a small list of fetched elements for the paper's example rule.
func paperWeb() []*Element {
	mk := func(u, head, body string) *Element {
		return &Element{URL: u, Head: head, Body: body, Fetched: true, Status: 200, Type: "text/html"}
	}
	return []*Element{
		mk("http://web.mit.edu/", "MIT", "welcome"),                                    // 0: mit, clean
		mk("http://web.mit.edu/personnal/bob/", "Bob", "my page"),                      // 1: mit, personnal
		mk("http://www.mit.edu/news/", "news", "a badword here"),                       // 2: mit, badword, no goodcontext
		mk("http://www.mit.edu/ethics/", "goodcontext ethics", "the badword, studied"), // 3: mit, badword but goodcontext
		mk("http://www.w3.org/", "W3C", "the web"),                                     // 4: not mit
		mk("http://web.mit.edu.ca/", "not MIT", "elsewhere"),                           // 5: not mit (the paper's counter-example)
	}
}

func urls(l []*Element) []string {
	var out []string
	for _, e := range l {
		out = append(out, e.URL)
	}
	return out
}

// The paper's example rule, applied to a list of elements as section II.C defines it.
func TestPaperExample(t *testing.T) {
	web := paperWeb()
	s := MustParse(`{NOT {AND +url:*.mit.edu/* -url:*.mit.edu/personnal/* {OR -body:*badword* +head:*goodcontext*}}}`)
	not := s.Rules[0].(*Op)
	and := not.Args[0]
	// The AND returns the MIT pages outside personnal/ that either lack the bad word or
	// have the good context in their head: 0 and 3.
	if got, want := urls(Apply(and, web)), urls([]*Element{web[0], web[3]}); !slices.Equal(got, want) {
		t.Errorf("AND: %v, want %v", got, want)
	}
	// NOT with one rule negates relative to the list: everything else.
	want := urls([]*Element{web[1], web[2], web[4], web[5]})
	if got := urls(Apply(not, web)); !slices.Equal(got, want) {
		t.Errorf("NOT: %v, want %v", got, want)
	}
	// Decide, element by element, agrees with the list semantics.
	for i, e := range web {
		d := s.Decide(e, 0)
		in := slices.Contains(want, e.URL)
		if d.Value.Followed() != in {
			t.Errorf("element %d %s: %v (%s), list says %v", i, e.URL, d.Value, d.Reason(), in)
		}
	}
}

func TestListOperators(t *testing.T) {
	a, b, c, d := &Element{URL: "a"}, &Element{URL: "b"}, &Element{URL: "c"}, &Element{URL: "d"}
	all := []*Element{a, b, c, d}
	l1, l2 := []*Element{a, b, c}, []*Element{c, b, d}
	if got := urls(ListAnd(all, l1, l2)); !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("and: %v", got)
	}
	if got := urls(ListOr(all, l1, l2)); !slices.Equal(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("or: %v", got)
	}
	if got := urls(ListNot(l1, l2)); !slices.Equal(got, []string{"a"}) {
		t.Errorf("not: %v", got)
	}
	if got := urls(ListAnd(all)); !slices.Equal(got, urls(all)) {
		t.Errorf("and of nothing: %v", got)
	}
}

func TestAtomLists(t *testing.T) {
	web := paperWeb()
	cases := []struct {
		rule string
		want []int
	}{
		{"+url:*.mit.edu/*", []int{0, 1, 2, 3}},
		{"*url:*.mit.edu/*", []int{0, 1, 2, 3}},
		{"?url:*.mit.edu/*", []int{0, 1, 2, 3}},
		{"-url:*.mit.edu/*", []int{4, 5}},
		{"{OR +url:*w3.org* +url:*.ca/}", []int{4, 5}},
		{"{AND +url:*.mit.edu/* -body:*badword*}", []int{0, 1}},
		{"{NOT +url:*.mit.edu/* +head:*good*}", []int{0, 1, 2}},
		{"{NOT +url:*.mit.edu/*}", []int{4, 5}},
		{"{NOT -url:*.mit.edu/*}", []int{0, 1, 2, 3}},
		{"+status:200", []int{0, 1, 2, 3, 4, 5}},
		{"+status:2??", []int{0, 1, 2, 3, 4, 5}},
		{"+status:>=300", nil},
		{"+host:web.mit.edu", []int{0, 1}},
		{"+path:/news/", []int{2}}, // a regex: "news" anywhere... with slashes
		{"+path:\"/\"", []int{0, 4, 5}},
		{"+body:/bad(word)?\\b/", []int{2, 3}},
	}
	for _, c := range cases {
		s := MustParse(c.rule)
		var want []*Element
		for _, i := range c.want {
			want = append(want, web[i])
		}
		if got := Apply(s.Rules[0], web); !slices.Equal(urls(got), urls(want)) {
			t.Errorf("%s: %v, want %v", c.rule, urls(got), urls(want))
		}
		// One rule decides each element as its list does.
		for _, e := range web {
			in := slices.Contains(want, e)
			if d := s.Decide(e, 0); d.Value.Followed() != in {
				t.Errorf("%s on %s: decided %v (%s), list says %v", c.rule, e.URL, d.Value, d.Reason(), in)
			}
		}
	}
}

// Several rules decide as the paper's rule atoms: imperative first and always, rejection
// over directional, last resort last.
func TestSetCategories(t *testing.T) {
	set := MustParse(`
		*url:*/must/*
		+url:http://a.org/*
		-url:*/private/*
		?url:http://b.org/*
	`)
	cases := []struct {
		url  string
		want Value
		by   string
	}{
		{"http://a.org/x", Next, "+url:http://a.org/*"},
		{"http://a.org/private/x", Rejected, "-url:*/private/*"},
		{"http://a.org/private/must/x", First, "*url:*/must/*"}, // imperative beats rejection
		{"http://c.org/must/", First, "*url:*/must/*"},
		{"http://b.org/x", Last, "?url:http://b.org/*"},
		{"http://b.org/private/", Rejected, "-url:*/private/*"},
		{"http://c.org/", Rejected, "*url:*/must/*"}, // no rule selects it
	}
	for _, c := range cases {
		d := set.Decide(&Element{URL: c.url}, 0)
		by := ""
		if d.By != nil {
			by = d.By.String()
		}
		if d.Value != c.want || by != c.by {
			t.Errorf("%s: %v by %q (%s), want %v by %q", c.url, d.Value, by, d.Reason(), c.want, c.by)
		}
	}
	// Only rejections: everything else is followed next.
	only := MustParse("-url:*/private/* -host:*.ads.*")
	if d := only.Decide(&Element{URL: "http://a.org/"}, 0); d.Value != Next || d.Reason() != "no rejection rule matches" {
		t.Errorf("only rejections: %v %s", d.Value, d.Reason())
	}
	if d := only.Decide(&Element{URL: "http://x.ads.com/"}, 0); d.Value != Rejected {
		t.Errorf("only rejections, rejected: %v", d.Value)
	}
	// No rules: next.
	var none *Set
	if d := none.Decide(&Element{URL: "http://a.org/"}, 0); d.Value != Next {
		t.Errorf("no rules: %v", d.Value)
	}
	// A combination carries the strongest tier of the atoms that returned the element.
	comb := MustParse("{AND *url:*.mit.edu/* -url:*/personnal/*} ?url:*")
	if d := comb.Decide(&Element{URL: "http://web.mit.edu/a"}, 0); d.Value != First {
		t.Errorf("AND with an imperative: %v", d.Value)
	}
	if d := comb.Decide(&Element{URL: "http://web.mit.edu/personnal/a"}, 0); d.Value != Last {
		t.Errorf("AND rejected, last resort: %v %s", d.Value, d.Reason())
	}
}

// Before the fetch, rules on page fields leave the decision open, with the tier the element
// would get; after it they decide.
func TestTwoStages(t *testing.T) {
	set := MustParse("+url:http://a.org/* -body:*casino*")
	e := &Element{URL: "http://a.org/x"}
	d := set.Decide(e, 0)
	if d.Value != Untested || d.Potential != Next || d.By == nil || d.By.Field.Name != "body" {
		t.Fatalf("before fetch: %+v", d)
	}
	if d := set.Decide(&Element{URL: "http://z.org/"}, 0); d.Value != Rejected {
		t.Errorf("out of the url rule, before fetch: %v", d.Value)
	}
	e.Fetched, e.Body = true, "Welcome to the CASINO"
	e.Reset()
	if d := set.Decide(e, 0); d.Value != Rejected || d.By.Field.Name != "body" {
		t.Errorf("after fetch: %v %s", d.Value, d.Reason())
	}
	e.Body = "a quiet page"
	e.Reset()
	if d := set.Decide(e, 0); d.Value != Next {
		t.Errorf("after fetch, clean: %v", d.Value)
	}
	// An imperative atom on the URL is final before the fetch, whatever the body says.
	imp := MustParse("*url:http://a.org/* -body:*casino*")
	if d := imp.Decide(&Element{URL: "http://a.org/"}, 0); d.Value != First {
		t.Errorf("imperative before fetch: %v", d.Value)
	}
	if !set.NeedsPage() || MustParse("+url:a -anchor:b").NeedsPage() {
		t.Error("NeedsPage")
	}
}

func TestLocalRules(t *testing.T) {
	set := MustParse(`
		+url:http://a.org/*
		{LOCAL url:http://a.org/docs/* -anchor:*old*}
		{LOCAL host:b.org *url:http://c.org/*}`)
	docs := &Element{URL: "http://a.org/docs/"}
	bits := set.Enter(docs, 0)
	if bits != 1 {
		t.Fatalf("enter docs: %b", bits)
	}
	old := &Element{URL: "http://a.org/docs/v1", Anchor: "old version"}
	if d := set.Decide(old, 0); d.Value != Next {
		t.Errorf("global only: %v", d.Value)
	}
	if d := set.Decide(old, bits); d.Value != Rejected {
		t.Errorf("below docs: %v", d.Value)
	}
	// Inherited: further down the tree the block still holds.
	if set.Enter(&Element{URL: "http://a.org/docs/v1"}, bits) != 1 {
		t.Error("not inherited")
	}
	c := &Element{URL: "http://c.org/x"}
	if d := set.Decide(c, set.Enter(&Element{URL: "http://b.org/"}, 0)); d.Value != First {
		t.Errorf("through b.org: %v", d.Value)
	}
	if d := set.Decide(c, 0); d.Value != Rejected {
		t.Errorf("not through b.org: %v", d.Value)
	}
}

func TestReasons(t *testing.T) {
	set := MustParse("{AND +url:http://a.org/* -path:*/tmp/*} -host:x.a.org")
	for _, c := range []struct{ url, want string }{
		{"http://a.org/", "{AND +url:http://a.org/* -path:*/tmp/*}: +url:http://a.org/* matched and -path:*/tmp/* did not match"},
		{"http://a.org/tmp/", "{AND +url:http://a.org/* -path:*/tmp/*}: -path:*/tmp/* matched"},
		{"http://x.a.org/", "-host:x.a.org matched"},
	} {
		if got := set.Decide(&Element{URL: c.url}, 0).Reason(); got != c.want {
			t.Errorf("%s: %q, want %q", c.url, got, c.want)
		}
	}
}

func ExampleSet_Decide() {
	set := MustParse(`+url:*.mit.edu/* -url:*.mit.edu/personnal/*`)
	for _, u := range []string{"http://web.mit.edu/", "http://web.mit.edu/personnal/bob/", "http://web.mit.edu.ca/"} {
		d := set.Decide(&Element{URL: u}, 0)
		fmt.Printf("%s: %s (%s)\n", u, d.Value, d.Reason())
	}
	// Output:
	// http://web.mit.edu/: next (+url:*.mit.edu/* matched)
	// http://web.mit.edu/personnal/bob/: rejected (-url:*.mit.edu/personnal/* matched)
	// http://web.mit.edu.ca/: rejected (+url:*.mit.edu/* did not match)
}

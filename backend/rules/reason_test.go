package rules

import (
	"strings"
	"testing"
)

// TestReasonsNameWhatHappened: an explanation names atoms with what they did to this element
// (matched or not), in every composition: each atom it names is checked against the atom
// applied alone. ({OR +url:*/aaa* -url:*/bbb*} on /bbb once said "+url:*/aaa* matched".)
func TestReasonsNameWhatHappened(t *testing.T) {
	for _, c := range []struct{ rules, url, want string }{
		{"{OR +url:*/aaa* -url:*/bbb*}", "http://h.test/bbb",
			"{OR +url:*/aaa* -url:*/bbb*}: +url:*/aaa* did not match and -url:*/bbb* matched"},
		{"{OR +url:*/aaa* -url:*/bbb*}", "http://h.test/aaa", "{OR +url:*/aaa* -url:*/bbb*}: +url:*/aaa* matched"},
		{"{OR +url:*/aaa* -url:*/bbb*}", "http://h.test/ccc", "{OR +url:*/aaa* -url:*/bbb*}: -url:*/bbb* did not match"},
		{"{AND +url:http://a.org/* -path:*/tmp/*}", "http://a.org/x",
			"{AND +url:http://a.org/* -path:*/tmp/*}: +url:http://a.org/* matched and -path:*/tmp/* did not match"},
		{"{AND +url:http://a.org/* -path:*/tmp/*}", "http://b.org/x", "{AND +url:http://a.org/* -path:*/tmp/*}: +url:http://a.org/* did not match"},
		{"{NOT +url:*/aaa*}", "http://h.test/bbb", "{NOT +url:*/aaa*}: +url:*/aaa* did not match"},
		{"{NOT +url:*/aaa*}", "http://h.test/aaa", "{NOT +url:*/aaa*}: +url:*/aaa* matched"},
		{"{NOT +host:h.test +url:*/aaa*}", "http://h.test/aaa", "{NOT +host:h.test +url:*/aaa*}: +url:*/aaa* matched"},
		{"{NOT +host:h.test +url:*/aaa*}", "http://h.test/b",
			"{NOT +host:h.test +url:*/aaa*}: +host:h.test matched and +url:*/aaa* did not match"},
		{"{NOT +host:h.test +url:*/aaa*}", "http://x.test/b", "{NOT +host:h.test +url:*/aaa*}: +host:h.test did not match"},
		{"{NOT -url:*/aaa*}", "http://h.test/aaa", "{NOT -url:*/aaa*}: -url:*/aaa* matched"},
		{"{OR {AND +host:h.test -url:*/x*} +url:*/y*}", "http://h.test/x",
			"{OR {AND +host:h.test -url:*/x*} +url:*/y*}: -url:*/x* matched and +url:*/y* did not match"},
		{"+url:*/aaa* +url:*/bbb*", "http://h.test/ccc", "+url:*/aaa* did not match; +url:*/bbb* did not match"},
	} {
		set := MustParse(c.rules)
		d := set.Decide(&Element{URL: c.url}, 0)
		if got := d.Reason(); got != c.want {
			t.Errorf("%s on %s (%v): %q, want %q", c.rules, c.url, d.Value, got, c.want)
		}
		// Every atom named is named with what it does alone.
		set.walk(func(a *Atom) {
			alone := a.eval(&Element{URL: c.url})
			matched := (alone.t == yes) != (a.Cat == Rejection)
			for _, verb := range []string{" matched", " did not match"} {
				if strings.Contains(d.Reason(), a.String()+verb) && (verb == " matched") != matched {
					t.Errorf("%s on %s: %q says %s%s", c.rules, c.url, d.Reason(), a, verb)
				}
			}
		})
	}
}

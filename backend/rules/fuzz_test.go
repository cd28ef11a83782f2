package rules

import (
	"bytes"
	"slices"
	"testing"
)

// FuzzParse: any text either parses or fails with a positioned error; what parses prints
// in a canonical form that reads back to itself, and deciding never panics.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"+url:*.mit.edu/*",
		"{NOT {AND +url:*.mit.edu/* -url:*.mit.edu/personnal/* {OR -body:*badword* +head:*goodcontext*}}}",
		`+title:"a b" -path:/x\/y/ ?depth:<=3 *status:2?? # c`,
		"{LOCAL url:http://a/* +anchor:*x*}",
		`+path:"/docs/" +title:a\"b +title:"a\\"`,
		"{AND", "+url:", `+url:"`, "+url:/", "{NOT +url:a +url:b +url:c}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := Parse(text)
		if err != nil {
			pe, ok := err.(*Error)
			if !ok || pe.Pos.Line < 1 || pe.Pos.Col < 1 {
				t.Fatalf("%q: error without a position: %v", text, err)
			}
			return
		}
		out := s.String()
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", text, out, err)
		}
		if again.String() != out {
			t.Fatalf("%q printed as %q, reads back as %q", text, out, again.String())
		}
		e := &Element{URL: "http://a.example/p?q=1", Anchor: text, Depth: 2}
		s.Decide(e, 0)
		e.Fetched, e.Body, e.Title, e.Status = true, text, text, 200
		e.Reset()
		d := s.Decide(e, ^uint64(0))
		if d.Value == Untested {
			t.Fatalf("%q: undecided after the fetch", text)
		}
	})
}

// FuzzFamily: encodings decode back and sort in the tree's pre-order.
func FuzzFamily(f *testing.F) {
	f.Add([]byte{3, 2, 1}, []byte{3, 2})
	f.Add([]byte{0xF2, 1, 0}, []byte{0xEF})
	f.Fuzz(func(t *testing.T, a, b []byte) {
		fa, err := DecodeFamily(a)
		if err != nil {
			return
		}
		if got := fa.Encode(); len(fa) > 0 && !slices.Equal(mustDecode(t, got), fa) {
			t.Fatalf("%v does not round trip", fa)
		}
		fb, err := DecodeFamily(b)
		if err != nil {
			return
		}
		want := slices.Compare(fa, fb)
		if got := bytes.Compare(fa.Encode(), fb.Encode()); got != want {
			t.Fatalf("%v vs %v: encodings compare %d, positions %d", fa, fb, got, want)
		}
	})
}

func mustDecode(t *testing.T, b []byte) Family {
	f, err := DecodeFamily(b)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestFamily(t *testing.T) {
	f := Family{3, 2}
	if c := f.Child(1); c.String() != "03.02.01" || c.Parent().String() != "03.02" {
		t.Errorf("child %s parent %s", c, c.Parent())
	}
	for _, s := range []string{"030201", "3.2.1", "03.02.01"} {
		g, err := ParseFamily(s)
		if err != nil || g.String() != "03.02.01" {
			t.Errorf("%s: %v %v", s, g, err)
		}
	}
	for _, s := range []string{"", "0302011", "00", "a.b", "1..2"} {
		if _, err := ParseFamily(s); err == nil {
			t.Errorf("%q parsed", s)
		}
	}
	big := Family{1, 300, 70000, 1 << 30}
	if got := mustDecode(t, big.Encode()); !slices.Equal(got, big) || big.String() != "01.300.70000.1073741824" {
		t.Errorf("big: %v %s", got, big)
	}
}

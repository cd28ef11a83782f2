package momfile

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// The readers take files from anywhere: whatever the bytes, they return entries or a
// syntax error, never panic, and what they return writes back and reads again unchanged.

func FuzzReadAvoid(f *testing.F) {
	f.Add(appendixC)
	f.Add("Leaf http://a/ [1994-04-02]\nAvoid https://b:8/x?y [Saturday, 02-Apr-94 00:00:00 GMT]\n")
	f.Add("Avoid http://a/ [*] [*]\n]\n[\n")
	f.Fuzz(func(t *testing.T, text string) {
		rules, err := ReadAvoid(strings.NewReader(text))
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("error %v is not a syntax error", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteAvoid(&buf, rules); err != nil {
			t.Fatal(err)
		}
		again, err := ReadAvoid(&buf)
		if err != nil {
			t.Fatalf("written file does not read back: %v\n%s", err, buf.String())
		}
		for i := range rules {
			rules[i].Prefix = oneToken(rules[i].Prefix)
		}
		if !reflect.DeepEqual(again, rules) && !(len(again) == 0 && len(rules) == 0) {
			t.Fatalf("round trip %+v != %+v", again, rules)
		}
	})
}

func FuzzReadSites(f *testing.F) {
	f.Add(appendixD)
	f.Add("Site [::1]:8080 [*]\nsite A.EXAMPLE:1 [1999-12-31T09:30:00Z]\n")
	f.Fuzz(func(t *testing.T, text string) {
		sites, err := ReadSites(strings.NewReader(text))
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("error %v is not a syntax error", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteSites(&buf, sites); err != nil {
			t.Fatal(err)
		}
		again, err := ReadSites(&buf)
		if err != nil {
			t.Fatalf("written file does not read back: %v\n%s", err, buf.String())
		}
		if len(again) != len(sites) {
			t.Fatalf("round trip %+v != %+v", again, sites)
		}
	})
}

func FuzzReadInstructions(f *testing.F) {
	f.Add(appendixA)
	f.Add("<Owner\n Name x\n TopURL https://a/\n EmailExpired 0\n>\nSitesCheck 1\n")
	f.Fuzz(func(t *testing.T, text string) {
		in, err := ReadInstructions(strings.NewReader(text))
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("error %v is not a syntax error", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteInstructions(&buf, in); err != nil {
			t.Fatal(err)
		}
		again, err := ReadInstructions(&buf)
		if err != nil {
			t.Fatalf("written file does not read back: %v\n%s", err, buf.String())
		}
		if len(again.Tasks) != len(in.Tasks) {
			t.Fatalf("round trip: %d tasks, want %d", len(again.Tasks), len(in.Tasks))
		}
	})
}

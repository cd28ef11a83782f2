package capture

import (
	"regexp"
	"testing"
	"time"
)

var originForm = regexp.MustCompile(`^(chrome-extension://[a-p]{32}|moz-extension://[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$`)

// An Origin header is untrusted: only an extension's own form is taken, in lower case.
func FuzzExtensionOrigin(f *testing.F) {
	for _, s := range []string{"chrome-extension://abcdefghijklmnopabcdefghijklmnop", "moz-extension://0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
		"https://x.example", "null", "chrome-extension://", "CHROME-EXTENSION://AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\u0130"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, ok := ExtensionOrigin(s)
		if ok != originForm.MatchString(o) || (!ok && o != "") {
			t.Fatalf("ExtensionOrigin(%q) = %q, %v", s, o, ok)
		}
	})
}

// A typed pairing code is untrusted: it never matches unless it is the code.
func FuzzRedeem(f *testing.F) {
	for _, s := range []string{"ABCD-EFGH", "abcd efgh", "", "----", "\u0130\u0131"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := NewPairing(func() time.Time { return time.Unix(0, 0) })
		c, err := p.New()
		if err != nil {
			t.Fatal(err)
		}
		if err := p.redeem(s); (err == nil) != (normaliseCode(s) == normaliseCode(c.Code)) {
			t.Fatalf("redeem(%q) with code %s: %v", s, c.Code, err)
		}
	})
}

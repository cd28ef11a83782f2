package urlnorm

import (
	"errors"
	"testing"
)

var fuzzSeeds = []string{
	"http://a/b/c/d;p?q",
	"HTTP://www.Example.COM:80/%7efoo/../bar/./baz?b=2&a=1#frag",
	"https://bücher.de./a b?c=d&&e",
	"http://[2001:DB8::1]:8080/x;jsessionid=1?PHPSESSID=2",
	"http://user:pw@h/%zz%%41",
	`http:\\a.com\b`,
	"http:a",
	" \t\nhttp://a/\x00\x7f",
	"javascript:alert(1)",
	"//g", "../../g", "?y", "#s", "", ".", "g;x=1/../y", "http:g",
	"http://xn--bcher-kva.de/", "http://a/?sid=0123456789abcdef0123456789abcdef",
	"http://a/..;jsessionid=1/x", "http://a/.%2e/%2E.", "http://[::1", "http://a:65536/",
}

func FuzzNormalize(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		n1, err := Normalize(raw)
		if err != nil {
			if !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrScheme) {
				t.Fatalf("Normalize(%q): unexpected error kind %v", raw, err)
			}
			return
		}
		n2, err := Normalize(n1)
		if err != nil {
			t.Fatalf("Normalize(%q) = %q, which fails: %v", raw, n1, err)
		}
		if n1 != n2 {
			t.Fatalf("not idempotent: %q -> %q -> %q", raw, n1, n2)
		}
		u, _ := Parse(n1)
		Trap(u)
		Origin(u)
	})
}

func FuzzResolve(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add("http://a/b/c/d;p?q", s)
		f.Add("https://[::1]:8443/x/", s)
	}
	f.Fuzz(func(t *testing.T, rawBase, ref string) {
		base, err := Parse(rawBase)
		if err != nil {
			return
		}
		u, err := Resolve(base, ref)
		if err != nil {
			if !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrScheme) {
				t.Fatalf("Resolve(%q, %q): unexpected error kind %v", rawBase, ref, err)
			}
			return
		}
		s := u.String()
		n, err := Normalize(s)
		if err != nil || n != s {
			t.Fatalf("Resolve(%q, %q) = %q, not canonical: %q, %v", rawBase, ref, s, n, err)
		}
	})
}

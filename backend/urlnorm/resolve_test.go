package urlnorm

import (
	"errors"
	"strings"
	"testing"
)

// rfcBase is the base URI of RFC 3986 section 5.4.
const rfcBase = "http://a/b/c/d;p?q"

func TestResolveRFC3986(t *testing.T) {
	// RFC 3986 5.4.1 (normal) and 5.4.2 (abnormal) examples. Fragments are dropped by
	// normalisation; "g:h" has a scheme other than http(s).
	tests := []struct{ ref, want string }{
		{"g", "http://a/b/c/g"},
		{"./g", "http://a/b/c/g"},
		{"g/", "http://a/b/c/g/"},
		{"/g", "http://a/g"},
		{"//g", "http://g/"},
		{"?y", "http://a/b/c/d;p?y"},
		{"g?y", "http://a/b/c/g?y"},
		{"#s", "http://a/b/c/d;p?q"},
		{"g#s", "http://a/b/c/g"},
		{"g?y#s", "http://a/b/c/g?y"},
		{";x", "http://a/b/c/;x"},
		{"g;x", "http://a/b/c/g;x"},
		{"g;x?y#s", "http://a/b/c/g;x?y"},
		{"", "http://a/b/c/d;p?q"},
		{".", "http://a/b/c/"},
		{"./", "http://a/b/c/"},
		{"..", "http://a/b/"},
		{"../", "http://a/b/"},
		{"../g", "http://a/b/g"},
		{"../..", "http://a/"},
		{"../../", "http://a/"},
		{"../../g", "http://a/g"},
		// 5.4.2
		{"../../../g", "http://a/g"},
		{"../../../../g", "http://a/g"},
		{"/./g", "http://a/g"},
		{"/../g", "http://a/g"},
		{"g.", "http://a/b/c/g."},
		{".g", "http://a/b/c/.g"},
		{"g..", "http://a/b/c/g.."},
		{"..g", "http://a/b/c/..g"},
		{"./../g", "http://a/b/g"},
		{"./g/.", "http://a/b/c/g/"},
		{"g/./h", "http://a/b/c/g/h"},
		{"g/../h", "http://a/b/c/h"},
		{"g;x=1/./y", "http://a/b/c/g;x=1/y"},
		{"g;x=1/../y", "http://a/b/c/y"},
		{"g?y/./x", "http://a/b/c/g?y/./x"},
		{"g?y/../x", "http://a/b/c/g?y/../x"},
		{"g#s/./x", "http://a/b/c/g"},
		{"g#s/../x", "http://a/b/c/g"},
		// "http:g": RFC 3986 allows the non-strict reading, which browsers use.
		{"http:g", "http://a/b/c/g"},
	}
	base, err := Parse(rfcBase)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		got, err := Resolve(base, tt.ref)
		if err != nil || got.String() != tt.want {
			t.Errorf("Resolve(%q, %q) = %v, %v; want %q", rfcBase, tt.ref, got, err, tt.want)
		}
	}
	if _, err := Resolve(base, "g:h"); !errors.Is(err, ErrScheme) {
		t.Errorf(`Resolve(base, "g:h") error = %v, want ErrScheme`, err)
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		base, ref, want string
		err             error
	}{
		// Base with and without trailing slash.
		{base: "http://a/b/c/", ref: "g", want: "http://a/b/c/g"},
		{base: "http://a/b/c", ref: "g", want: "http://a/b/g"},
		{base: "http://a/b/c/", ref: "..", want: "http://a/b/"},
		{base: "http://a/b/c", ref: "..", want: "http://a/"},
		{base: "http://a/b/c", ref: "?y", want: "http://a/b/c?y"},
		{base: "http://a/b/c/", ref: "?y", want: "http://a/b/c/?y"},
		{base: "http://a", ref: "g", want: "http://a/g"},
		{base: "http://a", ref: "../../g", want: "http://a/g"},
		{base: "http://a/b?q=1", ref: "?", want: "http://a/b"},
		{base: "http://a/b?q=1", ref: "", want: "http://a/b?q=1"},
		// Protocol-relative and absolute references.
		{base: "https://a/b", ref: "//x:8080", want: "https://x:8080/"},
		{base: "https://a/b", ref: "//x:443/y", want: "https://x/y"},
		{base: "http://a/b", ref: "https://X/y/../z", want: "https://x/z"},
		{base: "http://a/b", ref: "HTTP://Z/", want: "http://z/"},
		{base: "http://a/b", ref: "https:g", want: "https://g/"},
		{base: "http://a/b", ref: "http:/g", want: "http://a/g"},
		{base: "http://a/b", ref: "http://user:pw@h/", want: "http://h/"},
		// Browser leniency: whitespace, backslashes, extra slashes.
		{base: "http://a/b/c", ref: " \n./g\t ", want: "http://a/b/g"},
		{base: "http://a/b/c", ref: "g\n/h\r\n", want: "http://a/b/g/h"},
		{base: "http://a/b/c", ref: `\\evil.com\x`, want: "http://evil.com/x"},
		{base: "http://a/b/c", ref: "///evil.com", want: "http://evil.com/"},
		{base: "http://a/b/c", ref: `x\y?z\w`, want: "http://a/b/x/y?z%5Cw"},
		// Percent-encoding in references.
		{base: "http://a/b/c", ref: "%zz", want: "http://a/b/%25zz"},
		{base: "http://a/b/c", ref: "a b", want: "http://a/b/a%20b"},
		{base: "http://a/b/c", ref: "%7e/%2e%2e/x", want: "http://a/b/x"},
		{base: "http://a/b/c", ref: "é?é=1", want: "http://a/b/%C3%A9?%C3%A9=1"},
		{base: "http://a/b/c", ref: "g;jsessionid=123?PHPSESSID=1&b=2&a=1", want: "http://a/b/g?a=1&b=2"},
		// IDN and IPv6 in references.
		{base: "http://a/", ref: "//bücher.de/x", want: "http://xn--bcher-kva.de/x"},
		{base: "http://[::1]:8080/a/b", ref: "../c", want: "http://[::1]:8080/c"},
		{base: "http://a/", ref: "//[::1]/", want: "http://[::1]/"},
		// Other schemes.
		{base: "http://a/", ref: "javascript:void(0)", err: ErrScheme},
		{base: "http://a/", ref: "JavaScript:alert(1)", err: ErrScheme},
		{base: "http://a/", ref: " javascript:alert(1)", err: ErrScheme},
		{base: "http://a/", ref: "java\nscript:alert(1)", err: ErrScheme},
		{base: "http://a/", ref: "mailto:a@b", err: ErrScheme},
		{base: "http://a/", ref: "data:text/plain,x", err: ErrScheme},
		{base: "http://a/", ref: "tel:123", err: ErrScheme},
		{base: "http://a/", ref: "ftp://a/", err: ErrScheme},
		// Invalid.
		{base: "http://a/", ref: "//", err: ErrInvalid},
		{base: "http://a/", ref: "http://", err: ErrInvalid},
		{base: "http://a/", ref: "//a..b/", err: ErrInvalid},
		{base: "http://a/", ref: "http://[::1/", err: ErrInvalid},
		{base: "http://a/", ref: strings.Repeat("x", MaxLength+1), err: ErrInvalid},
	}
	for _, tt := range tests {
		base, err := Parse(tt.base)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.base, err)
		}
		got, err := Resolve(base, tt.ref)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("Resolve(%q, %q) = %v, %v; want error %v", tt.base, abbrev(tt.ref), got, err, tt.err)
			}
			continue
		}
		if err != nil || got.String() != tt.want {
			t.Errorf("Resolve(%q, %q) = %v, %v; want %q", tt.base, tt.ref, got, err, tt.want)
		}
	}
}

func TestResolveBadBase(t *testing.T) {
	if _, err := Resolve(nil, "g"); !errors.Is(err, ErrInvalid) {
		t.Errorf("nil base: %v", err)
	}
	rel, _ := Parse("http://a/")
	rel.Host = ""
	if _, err := Resolve(rel, "g"); !errors.Is(err, ErrInvalid) {
		t.Errorf("relative base: %v", err)
	}
	ftp, _ := Parse("http://a/")
	ftp.Scheme = "ftp"
	if _, err := Resolve(ftp, "g"); !errors.Is(err, ErrScheme) {
		t.Errorf("ftp base: %v", err)
	}
}

// A base that did not come from Parse is normalised along with the result.
func TestResolveUnnormalisedBase(t *testing.T) {
	base, err := Parse("http://a/")
	if err != nil {
		t.Fatal(err)
	}
	base.Scheme, base.Host = "HTTP", "A:80"
	got, err := Resolve(base, "x/./y")
	if err != nil || got.String() != "http://a/x/y" {
		t.Errorf("Resolve = %v, %v", got, err)
	}
}

func BenchmarkResolve(b *testing.B) {
	base, err := Parse("https://www.example.com/articles/2024/05/some-article.html?id=42")
	if err != nil {
		b.Fatal(err)
	}
	refs := []string{
		"../../images/photo.jpg",
		"/about/contact",
		"?page=2&sort=date",
		"https://other.example.org/path/to/page?b=2&a=1#frag",
		"//cdn.example.net/lib.js",
		"related-article.html#comments",
		"Bücher/%7euser/ä ö",
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := Resolve(base, refs[i%len(refs)]); err != nil {
			b.Fatal(err)
		}
	}
}

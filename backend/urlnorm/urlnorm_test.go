package urlnorm

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		in, want string
		err      error
	}{
		// Case, default ports, empty path (RFC 3986 6.2.2.1, 6.2.3).
		{in: "HTTP://www.Example.COM/", want: "http://www.example.com/"},
		{in: "HtTpS://A", want: "https://a/"},
		{in: "http://example.com", want: "http://example.com/"},
		{in: "http://example.com:80/", want: "http://example.com/"},
		{in: "https://example.com:443/a", want: "https://example.com/a"},
		{in: "http://example.com:443/", want: "http://example.com:443/"},
		{in: "https://example.com:80/", want: "https://example.com:80/"},
		{in: "http://example.com:8080", want: "http://example.com:8080/"},
		{in: "http://example.com:080/", want: "http://example.com/"},
		{in: "http://example.com:/", want: "http://example.com/"},
		{in: "http://example.com:0/", err: ErrInvalid},
		{in: "http://example.com:99999/", err: ErrInvalid},
		{in: "http://example.com:8x/", err: ErrInvalid},
		// Dot segments (RFC 3986 5.2.4, 6.2.2.3).
		{in: "http://a/b/c/./../../g", want: "http://a/g"},
		{in: "http://a/./", want: "http://a/"},
		{in: "http://a/.", want: "http://a/"},
		{in: "http://a/..", want: "http://a/"},
		{in: "http://a/../../x/", want: "http://a/x/"},
		{in: "http://a/..//b", want: "http://a//b"},
		{in: "http://a/%2e%2E/b", want: "http://a/b"},
		{in: "http://a/b/%2E", want: "http://a/b/"},
		{in: "http://a/b/.%2e/c", want: "http://a/c"},
		{in: "http://a/b../c.", want: "http://a/b../c."},
		// Percent-encoding (RFC 3986 6.2.2.1, 6.2.2.2).
		{in: "http://a/%7Efoo", want: "http://a/~foo"},
		{in: "http://a/%7efoo%2fbar%2Fx", want: "http://a/~foo%2Fbar%2Fx"},
		{in: "http://a/%41%62%2D%5f%30", want: "http://a/Ab-_0"},
		{in: "http://a/a%c3%a9", want: "http://a/a%C3%A9"},
		{in: "http://a/é", want: "http://a/%C3%A9"},
		{in: "http://a/b c", want: "http://a/b%20c"},
		{in: "http://a/b%zz", want: "http://a/b%25zz"},
		{in: "http://a/b%", want: "http://a/b%25"},
		{in: "http://a/b%4", want: "http://a/b%254"},
		{in: "http://a/%25", want: "http://a/%25"},
		{in: "http://a/%3B;%3d=%40@%3A:%2B+", want: "http://a/%3B;%3D=%40@%3A:%2B+"},
		{in: "http://a/[x]|^{}", want: "http://a/%5Bx%5D%7C%5E%7B%7D"},
		{in: "http://a/\x01\x7f", want: "http://a/%01%7F"},
		{in: "http://a/!$&'()*+,;=:@", want: "http://a/!$&'()*+,;=:@"},
		{in: "http://a/?q=%7e%2f%zz+x y", want: "http://a/?q=~%2F%25zz+x%20y"},
		{in: "http://a/?q=\"<>`", want: "http://a/?q=%22%3C%3E%60"},
		{in: "http://a/?q=a/b?c:d@e", want: "http://a/?q=a/b?c:d@e"},
		{in: "http://a/?q=%26&r=%3D", want: "http://a/?q=%26&r=%3D"},
		// Fragment, empty query, userinfo.
		{in: "http://a/#frag", want: "http://a/"},
		{in: "http://a/b?x=1#f?g", want: "http://a/b?x=1"},
		{in: "http://a/?", want: "http://a/"},
		{in: "http://a/b?", want: "http://a/b"},
		{in: "http://a/b?#", want: "http://a/b"},
		{in: "http://user:pass@a/", want: "http://a/"},
		{in: "http://a:b@c@d/", want: "http://d/"},
		// Query parameters: sorted by key and value, repeated and empty ones dropped.
		{in: "http://a/b?b=2&a=1&a=0", want: "http://a/b?a=0&a=1&b=2"},
		{in: "http://a/b?color=red&size=m&color=red&color=blue", want: "http://a/b?color=blue&color=red&size=m"},
		{in: "http://a/b?size=m&color=red", want: "http://a/b?color=red&size=m"},
		{in: "http://a/?a=1&&b=2&", want: "http://a/?a=1&b=2"},
		{in: "http://a/?c&b&a", want: "http://a/?a&b&c"},
		{in: "http://a/?=x&=y&a", want: "http://a/?=x&=y&a"},
		{in: "http://a/?%61=1&a=2", want: "http://a/?a=1&a=2"},
		// Session ids.
		{in: "http://a/;jsessionid=ABC?x=1", want: "http://a/?x=1"},
		{in: "http://a/b;JSESSIONID=ABC", want: "http://a/b"},
		{in: "http://a/b;jsessionid=ABC;x=1/c", want: "http://a/b;x=1/c"},
		{in: "http://a/b;jsessionidx=1", want: "http://a/b;jsessionidx=1"},
		{in: "http://a/?PHPSESSID=abc&b=1", want: "http://a/?b=1"},
		{in: "http://a/?jsessionid=abc&b=1", want: "http://a/?b=1"},
		{in: "http://a/?ASPSESSIONIDQQ=x", want: "http://a/"},
		{in: "http://a/?sid=0123456789abcdef0123456789ABCDEF&q=1", want: "http://a/?q=1"},
		{in: "http://a/?sid=12&q=1", want: "http://a/?q=1&sid=12"},
		{in: "http://a/?sid=0123456789abcdef0123456789abcdeg", want: "http://a/?sid=0123456789abcdef0123456789abcdeg"},
		{in: "http://a/?session=0123456789abcdef0123456789abcdef", want: "http://a/?session=0123456789abcdef0123456789abcdef"},
		{in: "http://a/?sessionid=x7&SESSION_ID=1&sessid=2&CFID=3&cftoken=4&zenid=5&osCsid=6&p=1", want: "http://a/?p=1"},
		{in: "http://a/?s=0123456789abcdef0123456789abcdef&q=1", want: "http://a/?q=1"},
		{in: "http://a/?s=search+words", want: "http://a/?s=search+words"},
		// Hosts: IDN, trailing dot, IPv4, IPv6, invalid.
		{in: "http://bücher.de/", want: "http://xn--bcher-kva.de/"},
		{in: "http://BÜCHER.de/", want: "http://xn--bcher-kva.de/"},
		{in: "http://XN--BCHER-KVA.de/", want: "http://xn--bcher-kva.de/"},
		{in: "https://☃.net/☃?☃=☃", want: "https://xn--n3h.net/%E2%98%83?%E2%98%83=%E2%98%83"},
		{in: "http://例え.テスト/", want: "http://xn--r8jz45g.xn--zckzah/"},
		{in: "http://faß.de/", want: "http://xn--fa-hia.de/"},
		{in: "http://example.com./", want: "http://example.com/"},
		{in: "http://a_b.example.com/", want: "http://a_b.example.com/"},
		{in: "http://r3---sn-abc.example.com/", want: "http://r3---sn-abc.example.com/"},
		{in: "http://1.2.3.4:8080/", want: "http://1.2.3.4:8080/"},
		{in: "http://[2001:DB8::1]/", want: "http://[2001:db8::1]/"},
		{in: "http://[2001:db8:0:0:0:0:0:1]:8080/", want: "http://[2001:db8::1]:8080/"},
		{in: "http://[::1]:80/x", want: "http://[::1]/x"},
		{in: "http://[::ffff:1.2.3.4]/", want: "http://[::ffff:1.2.3.4]/"},
		{in: "http://[fe80::1%25en0]/", err: ErrInvalid},
		{in: "http://[1.2.3.4]/", err: ErrInvalid},
		{in: "http://[::1", err: ErrInvalid},
		{in: "http://example.com../", err: ErrInvalid},
		{in: "http://a..b/", err: ErrInvalid},
		{in: "http://.a/", err: ErrInvalid},
		{in: "http://a b/", err: ErrInvalid},
		{in: "http://a<b/", err: ErrInvalid},
		{in: "http://xn--zz.com/", err: ErrInvalid},
		{in: "http://Xn--0/", err: ErrInvalid},
		{in: "http://\xff0/", err: ErrInvalid},
		{in: "http://Xn--Bcher-KVA.de/", want: "http://xn--bcher-kva.de/"},
		{in: "http://" + strings.Repeat("a", 64) + ".com/", err: ErrInvalid},
		{in: "http://" + strings.Repeat("a.", 127) + "com/", err: ErrInvalid},
		{in: "http://:80/", err: ErrInvalid},
		// Whitespace (WHATWG: trim C0 and space, strip tab/CR/LF inside).
		{in: " \t http://a/\n b\r\n ", want: "http://a/%20b"},
		{in: "\x00http://a/b\x1f", want: "http://a/b"},
		{in: "ht\ttp://exa\nmple.com/", want: "http://example.com/"},
		// Slashes and backslashes as browsers read them.
		{in: "http:///a", want: "http://a/"},
		{in: "http:a.com/x", want: "http://a.com/x"},
		{in: `http:\\a.com\b\c?d\e`, want: "http://a.com/b/c?d%5Ce"},
		// Schemes and non-urls.
		{in: "ftp://a/", err: ErrScheme},
		{in: "mailto:x@y", err: ErrScheme},
		{in: "javascript:alert(1)", err: ErrScheme},
		{in: "file:///etc/passwd", err: ErrScheme},
		{in: "http:", err: ErrInvalid},
		{in: "http://", err: ErrInvalid},
		{in: "/relative", err: ErrInvalid},
		{in: "example.com", err: ErrInvalid},
		{in: "", err: ErrInvalid},
		{in: "://a/", err: ErrInvalid},
		// Length limit.
		{in: "http://a/" + strings.Repeat("x", MaxLength), err: ErrInvalid},
		{in: "http://a/" + strings.Repeat("é", MaxLength/4), err: ErrInvalid},
		{in: "http://a/" + strings.Repeat("x", MaxLength-len("http://a/")), want: "http://a/" + strings.Repeat("x", MaxLength-len("http://a/"))},
	}
	for _, tt := range tests {
		got, err := Normalize(tt.in)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("Normalize(%q) = %q, %v; want error %v", abbrev(tt.in), got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", abbrev(tt.in), got, err, abbrev(tt.want))
			continue
		}
		if again, err := Normalize(got); err != nil || again != got {
			t.Errorf("Normalize(%q) not idempotent: %q, %v", got, again, err)
		}
	}
}

func TestParseFields(t *testing.T) {
	u, err := Parse("HTTP://User@Ex.COM:8080/a%2Fb/%7e?z=1&y=%41#x")
	if err != nil {
		t.Fatal(err)
	}
	if u.Scheme != "http" || u.Host != "ex.com:8080" || u.User != nil || u.Fragment != "" {
		t.Errorf("fields: %#v", u)
	}
	if u.EscapedPath() != "/a%2Fb/~" || u.Path != "/a/b/~" {
		t.Errorf("path = %q, escaped %q", u.Path, u.EscapedPath())
	}
	if u.RawQuery != "y=A&z=1" {
		t.Errorf("query = %q", u.RawQuery)
	}
	if u.RequestURI() != "/a%2Fb/~?y=A&z=1" {
		t.Errorf("request uri = %q", u.RequestURI())
	}
}

func TestOrigin(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://example.com/a?b", "http://example.com"},
		{"https://example.com:443/", "https://example.com"},
		{"https://example.com:8443/", "https://example.com:8443"},
		{"http://[::1]:8080/", "http://[::1]:8080"},
		{"http://[::1]/", "http://[::1]"},
	}
	for _, tt := range tests {
		u, err := Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := Origin(u); got != tt.want {
			t.Errorf("Origin(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// Origin also works on URLs that did not come from Parse.
	raw := &url.URL{Scheme: "HTTP", Host: "Example.COM:80", Path: "/"}
	if got := Origin(raw); got != "http://example.com" {
		t.Errorf("Origin(raw) = %q", got)
	}
}

package extract

import (
	"fmt"
	"net/url"
	"testing"
)

func TestXRobots(t *testing.T) {
	tests := []struct {
		values       []string
		agent        string
		noindex, nof bool
	}{
		{nil, "mundaneum", false, false},
		{[]string{"noindex"}, "mundaneum", true, false},
		{[]string{"NoIndex, NOFOLLOW"}, "mundaneum", true, true},
		{[]string{"none"}, "mundaneum", true, true},
		{[]string{"all"}, "mundaneum", false, false},
		{[]string{"googlebot: noindex"}, "mundaneum", false, false},
		{[]string{"googlebot: noindex", "mundaneum: nofollow"}, "Mundaneum", false, true},
		{[]string{"mundaneum: noindex, nofollow"}, "mundaneum", true, true},
		{[]string{"nofollow, googlebot: noindex"}, "mundaneum", false, true},
		{[]string{"unavailable_after: 25 Jun 2010 15:00:00 PST, noindex"}, "mundaneum", true, false},
		{[]string{"max-snippet: 20, nofollow"}, "mundaneum", false, true},
		{[]string{"googlebot: none"}, "", false, false},
		{[]string{"  noindex  ", ""}, "x", true, false},
	}
	for _, tt := range tests {
		ni, nf := XRobots(tt.values, tt.agent)
		if ni != tt.noindex || nf != tt.nof {
			t.Errorf("XRobots(%q, %q) = %v, %v; want %v, %v", tt.values, tt.agent, ni, nf, tt.noindex, tt.nof)
		}
	}
}

func TestRefreshURL(t *testing.T) {
	tests := []struct {
		in     string
		target string
		delay  int
		ok     bool
	}{
		{"5; url=next.html", "next.html", 5, true},
		{"0;URL='http://example.com/x y'", "http://example.com/x y", 0, true},
		{`3, url="a.html" trailing`, "a.html", 3, true},
		{"  10 ;  URL =  b.html  ", "b.html", 10, true},
		{"0; next.html", "next.html", 0, true},
		{"0 urlx.html", "urlx.html", 0, true},
		{"1.5; url=c.html", "c.html", 1, true},
		{".5; url=d.html", "d.html", 0, true},
		{"30", "", 30, true},
		{"0;", "", 0, true},
		{"url=e.html", "", 0, false},
		{"", "", 0, false},
		{"5x; url=f.html", "", 0, false},
		{"99999999999999999999; url=g.html", "g.html", 999999999, true},
	}
	for _, tt := range tests {
		target, delay, ok := RefreshURL(tt.in)
		if target != tt.target || delay != tt.delay || ok != tt.ok {
			t.Errorf("RefreshURL(%q) = %q, %d, %v; want %q, %d, %v", tt.in, target, delay, ok, tt.target, tt.delay, tt.ok)
		}
	}
}

// MOMspider's paper spells the owner and the expiry as http-equiv meta elements.
func TestMOMspiderMeta(t *testing.T) {
	s := HTML([]byte(`<html><head><title>t</title>
		<META http-equiv="Owner"    content="AnyOwnerAlias">
		<META http-equiv="Expires"  content="Fri, 01 Apr 1994 00:00:00 GMT">
		</head><body></body></html>`), nil)
	if s.Owner != "AnyOwnerAlias" || s.Expires != "Fri, 01 Apr 1994 00:00:00 GMT" {
		t.Fatalf("owner %q expires %q", s.Owner, s.Expires)
	}
}

func TestHeaderLinks(t *testing.T) {
	page, _ := url.Parse("https://example.com/dir/page?utm_source=x")
	got := HeaderLinks([]string{
		`<https://example.com/article>; rel="canonical", </print,view>; rel=alternate; media=print`,
		`<//cdn.example.com/s.css>;rel=preload;as=style, garbage, <mailto:a@b>; rel=author`,
		`<rel.html>; title="a, b; c"; rel="NEXT Prefetch"`,
		`<https://example.com/x#frag>`,
		`<unclosed`,
	}, page)
	want := []Link{
		{URL: "https://example.com/article", Kind: KindLink, Rel: "canonical"},
		{URL: "https://example.com/print,view", Kind: KindLink, Rel: "alternate"},
		{URL: "https://cdn.example.com/s.css", Kind: KindLink, Rel: "preload"},
		{URL: "https://example.com/dir/rel.html", Kind: KindLink, Rel: "next prefetch"},
		{URL: "https://example.com/x", Kind: KindLink},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("HeaderLinks =\n%v\nwant\n%v", got, want)
	}
}

package rules

import (
	"strings"
	"testing"
)

// BenchmarkDecideURL is the cost of deciding one link before its fetch (what the crawl
// pays per link found) with a realistic rule set of URL rules.
func BenchmarkDecideURL(b *testing.B) {
	set := MustParse(`
		*url:http://www.w3.org/TR/*
		+url:*.w3.org/*
		+url:*.mit.edu/*
		-url:*.mit.edu/personnal/*
		-path:*/cgi-bin/*
		-path:/\.(zip|gz|tar)$/
		?host:*.edu
		{NOT {AND +url:*.mit.edu/* -url:*.mit.edu/personnal/* {OR -body:*badword* +head:*goodcontext*}}}`)
	urls := []string{
		"http://www.w3.org/TR/html4/", "http://web.mit.edu/people/", "http://web.mit.edu/personnal/bob/",
		"http://www.example.com/cgi-bin/x?y=1", "http://cs.stanford.edu/", "http://www.w3.org/pub/x.tar.gz",
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		e := Element{URL: urls[i%len(urls)], Anchor: "a link", Depth: 3}
		set.Decide(&e, 0)
	}
}

// BenchmarkDecidePage is the cost of the decision after a fetch, on a 20 KB body.
func BenchmarkDecidePage(b *testing.B) {
	set := MustParse(`{NOT {AND +url:*.mit.edu/* -url:*.mit.edu/personnal/* {OR -body:*badword* +head:*goodcontext*}}}
		-date:*dec*`)
	body := strings.Repeat("lorem ipsum dolor sit amet consectetur ", 500)
	b.ReportAllocs()
	for b.Loop() {
		e := Element{URL: "http://web.mit.edu/people/", Fetched: true, Status: 200, Type: "text/html",
			Title: "People", Head: "People of MIT", Body: body, Date: "Tue, 03 Dec 1996 10:00:00 GMT"}
		set.Decide(&e, 0)
	}
}

func BenchmarkParse(b *testing.B) {
	text := `{NOT {AND +url:*.mit.edu/* -url:*.mit.edu/personnal/* {OR -body:*badword* +head:*goodcontext*}}}`
	for b.Loop() {
		if _, err := Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}

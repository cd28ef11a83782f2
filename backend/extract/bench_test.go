package extract

import (
	"bytes"
	"net/url"
	"os"
	"testing"

	"golang.org/x/net/html"
)

// BenchmarkHTML summarises a realistic 20 KB article page (navigation, inline
// links, srcset images, scripts and styles).
func BenchmarkHTML(b *testing.B) {
	body, err := os.ReadFile("testdata/bench.html")
	if err != nil {
		b.Fatal(err)
	}
	page, _ := url.Parse("https://example.org/articles/wwww")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		HTML(body, page)
	}
}

func BenchmarkText(b *testing.B) {
	body, err := os.ReadFile("testdata/bench.html")
	if err != nil {
		b.Fatal(err)
	}
	page, _ := url.Parse("https://example.org/articles/wwww.txt")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		Text(body, page)
	}
}

// BenchmarkHTMLSynthweb summarises a 19 KB page of the shared bench's synthetic
// web (text-heavy, few links), the page the crawler races Colly on.
func BenchmarkHTMLSynthweb(b *testing.B) {
	body, err := os.ReadFile("testdata/synthweb.html")
	if err != nil {
		b.Fatal(err)
	}
	page, _ := url.Parse("http://127.0.0.1:8300/p/2.html")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		HTML(body, page)
	}
}

// BenchmarkTokenizerOnly is the floor: the x/net/html tokenizer alone.
func BenchmarkTokenizerOnly(b *testing.B) {
	body, _ := os.ReadFile("testdata/bench.html")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		z := html.NewTokenizer(bytes.NewReader(body))
		for z.Next() != html.ErrorToken {
		}
	}
}

// BenchmarkParseTree is what a goquery-based crawler (Colly) pays: html.Parse
// builds the tree, then a walk collects a[href].
func BenchmarkParseTree(b *testing.B) {
	body, _ := os.ReadFile("testdata/bench.html")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		doc, err := html.Parse(bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for d := range doc.Descendants() {
			if d.Type == html.ElementNode && d.Data == "a" {
				for _, a := range d.Attr {
					if a.Key == "href" {
						n++
					}
				}
			}
		}
	}
}

// BenchmarkLinks is BenchmarkHTML for a link checker: no text gathered.
func BenchmarkLinks(b *testing.B) {
	body, err := os.ReadFile("testdata/bench.html")
	if err != nil {
		b.Fatal(err)
	}
	page, _ := url.Parse("https://example.org/articles/wwww")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		Links(body, page)
	}
}

// BenchmarkLinksTokenized is BenchmarkLinks without the scanner: the tokenizer alone.
func BenchmarkLinksTokenized(b *testing.B) {
	body, err := os.ReadFile("testdata/bench.html")
	if err != nil {
		b.Fatal(err)
	}
	page, _ := url.Parse("https://example.org/articles/wwww")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		linksTokenized(body, page)
	}
}

// BenchmarkLinksRustDocs reads a page of the Rust standard library's documentation (the
// link benchmark's big set) both ways, when the machine has it.
func BenchmarkLinksRustDocs(b *testing.B) {
	const file = "/usr/share/doc/rust-doc/html/std/vec/struct.Vec.html"
	body, err := os.ReadFile(file)
	if err != nil {
		b.Skip("rust-doc is not installed")
	}
	page, _ := url.Parse("http://127.0.0.1:8080/std/vec/struct.Vec.html")
	for _, c := range []struct {
		name string
		fn   func([]byte, *url.URL) *Summary
	}{{"scan", Links}, {"tokenizer", linksTokenized}, {"fragments", func(b []byte, u *url.URL) *Summary {
		n := 0
		return LinkOptions{Fragments: true, Anchor: func([]byte) { n++ }}.Links(b, u)
	}}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				c.fn(body, page)
			}
		})
	}
}

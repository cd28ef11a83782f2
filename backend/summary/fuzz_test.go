package summary

import (
	"context"
	"net/url"
	"os"
	"testing"
	"time"
	"unicode/utf8"

	"mundaneum/backend/extract"
)

// fuzzKind runs one summariser directly (so that a panic is a failure, not a recovered
// problem) on hostile input, and checks the bounds every summary keeps.
func fuzzKind(f *testing.F, name string, seeds ...[]byte) {
	k := byName(name)
	for _, s := range seeds {
		f.Add(s)
	}
	base, _ := url.Parse("http://fuzz.test/dir/doc")
	f.Fuzz(func(t *testing.T, body []byte) {
		b := Budget{MaxText: 4096, MaxDecoded: 1 << 20, Timeout: 5 * time.Second}
		b.fill()
		ctx, cancel := context.WithTimeout(context.Background(), b.Timeout)
		defer cancel()
		r, _ := k.Run(ctx, Input{Body: body, URL: base}, &b)
		if r == nil {
			return
		}
		if len(r.Text) > b.MaxText || len(r.Title) > extract.MaxTitle || len(r.Links) > extract.MaxLinks {
			t.Fatalf("over its caps: text %d, title %d, links %d", len(r.Text), len(r.Title), len(r.Links))
		}
		if !utf8.ValidString(r.Text) || !utf8.ValidString(r.Title) {
			t.Fatal("invalid UTF-8 in the summary")
		}
		if b.decoded > b.MaxDecoded+1 {
			t.Fatalf("decoded %d bytes, budget %d", b.decoded, b.MaxDecoded)
		}
	})
}

func seed(f *testing.F, name string) []byte {
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		f.Fatal(err)
	}
	return b
}

func FuzzText(f *testing.F) {
	fuzzKind(f, "text", []byte("see http://a.test/x."), []byte("\xff\xfeh\x00i\x00"))
}
func FuzzHTML(f *testing.F) {
	fuzzKind(f, "html", []byte("<title>t</title><a href=x>a</a>"), []byte("<html><p>"))
}
func FuzzMarkdown(f *testing.F) {
	fuzzKind(f, "markdown", []byte("# T\n[a](http://b.test/) *x*"), []byte("> > > > [[[[(((("))
}
func FuzzFeed(f *testing.F) {
	fuzzKind(f, "feed", []byte(rss), []byte(atom), []byte("<rss><item><title>"))
}
func FuzzGzip(f *testing.F) {
	fuzzKind(f, "gzip", gz([]byte("text")), gz(gz([]byte("x"))), gz(make([]byte, 4<<20)))
}
func FuzzZip(f *testing.F) {
	fuzzKind(f, "zip", zipOf(map[string][]byte{"a.txt": []byte("x"), "b.zip": zipOf(map[string][]byte{"c.md": []byte("# c")})}))
}
func FuzzTar(f *testing.F) {
	fuzzKind(f, "tar", tarOf(map[string][]byte{"a.txt": []byte("x"), "b.tar": tarOf(map[string][]byte{"c": []byte("c")})}))
}

// FuzzPDF runs poppler on mutated PDFs: slow (a process per input), but it is the boundary
// where hostile PDFs arrive.
func FuzzPDF(f *testing.F) {
	needPDFTools(f)
	fuzzKind(f, "pdf", seed(f, "paper.pdf"), seed(f, "broken.pdf"), seed(f, "encrypted.pdf"), seed(f, "sqlite-copyright-release.pdf"))
}

// FuzzChoose: any body, type and name picks some kind.
func FuzzChoose(f *testing.F) {
	f.Add([]byte("%PDF-"), "application/pdf", "x.pdf")
	f.Add([]byte("<rss "), "text/xml", "f.rss")
	f.Fuzz(func(t *testing.T, body []byte, ct, name string) {
		if Choose(Input{Body: body, ContentType: ct, Name: name}) == nil {
			t.Fatal("no kind chosen")
		}
	})
}

package summary

import (
	"context"
	"os"
	"testing"
)

// BenchmarkPDF summarises a real 38-page manual (bzip2's, from Debian's bzip2 package, when
// installed) or the planted 12-page paper: pages/s and MB/s of the whole summariser,
// child processes included. go test -bench PDF -benchtime 20x ./backend/summary/
func BenchmarkPDF(b *testing.B) {
	needPDFTools(b)
	body, pages := benchPDF(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		r, _ := Summarise(context.Background(), Input{Body: body, ContentType: "application/pdf"}, Budget{}, nil)
		if len(r.Text) == 0 {
			b.Fatal("no text")
		}
	}
	b.ReportMetric(float64(pages*b.N)/b.Elapsed().Seconds(), "pages/s")
}

func benchPDF(b *testing.B) ([]byte, int) {
	if body, err := os.ReadFile(os.Getenv("BENCH_PDF")); err == nil {
		r, _ := Summarise(context.Background(), Input{Body: body, ContentType: "application/pdf"}, Budget{}, nil)
		n := 0
		for _, c := range r.Attr(AttrPages) {
			n = n*10 + int(c-'0')
		}
		return body, n
	}
	return fixture(b, "paper.pdf"), 12
}

// BenchmarkZip summarises a zip of 200 text members (20 KB each).
func BenchmarkZip(b *testing.B) {
	files := map[string][]byte{}
	text := make([]byte, 20<<10)
	for i := range text {
		text[i] = "abcdefgh ij"[i%11]
	}
	for i := 0; i < 200; i++ {
		files[string(rune('a'+i%26))+string(rune('a'+i/26))+".txt"] = text
	}
	z := zipOf(files)
	b.SetBytes(int64(200 * len(text)))
	for b.Loop() {
		Summarise(context.Background(), Input{Body: z, ContentType: "application/zip"}, Budget{}, nil)
	}
}

package archive

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"mundaneum/backend/formats/warc"
	"mundaneum/backend/store"
)

// TestImportWarcioSamples imports webrecorder/warcio's sample files (testdata/warcio, Apache
// 2.0): a gzip-encoded response of http://example.com/ and, later, an
// identical-payload-digest revisit of it. The payload digest is of the body as it came
// off the wire (gzip-encoded), not of the decoded page: the revisit applies, with no
// problem ("a revisit of a record that is neither in this file before it nor in the
// workspace" once).
func TestImportWarcioSamples(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"example.warc", "example.warc.gz", "example-bad-non-chunked.warc.gz"} {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", "warcio", name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			st := openStore(t)
			rep, err := importWARC(ctx, st, f, ImportOptions{Name: name})
			if err != nil {
				t.Fatal(err)
			}
			if rep.ProblemCount != 0 || rep.Pages != 1 || rep.Revisits != 1 {
				t.Errorf("import %+v", rep)
			}
			id, err := st.PageID(ctx, "http://example.com/")
			if err != nil {
				t.Fatal(err)
			}
			if p, _ := st.Page(ctx, id); p.Title != "Example Domain" || p.State != store.StateFetched {
				t.Errorf("page %+v", p)
			}
		})
	}
}

// TestImportRevisitOfEncodedResponse: a URL-agnostic revisit (another URL, no
// WARC-Refers-To-Target-URI) of a gzip-encoded, chunked response earlier in the file takes
// that response's content.
func TestImportRevisitOfEncodedResponse(t *testing.T) {
	page := `<html><title>Sphagnum</title><body>peat moss ombrotrophic</body></html>`
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(page))
	zw.Close()
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, true)
	digest := warc.Digest(gz.Bytes()) // of the payload as sent: gzip-encoded
	put := func(h warc.Header, block []byte) {
		if err := w.WriteRecord(h, block); err != nil {
			t.Fatal(err)
		}
	}
	put(warc.Header{{Name: "WARC-Type", Value: "response"}, {Name: "WARC-Date", Value: "2026-02-01T10:00:00Z"},
		{Name: "WARC-Target-URI", Value: "http://bog.example/a"}, {Name: "WARC-Payload-Digest", Value: digest},
		{Name: "Content-Type", Value: "application/http; msgtype=response"}},
		append([]byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: "+
			strconv.Itoa(gz.Len())+"\r\n\r\n"), gz.Bytes()...))
	put(warc.Header{{Name: "WARC-Type", Value: "revisit"}, {Name: "WARC-Date", Value: "2026-02-01T10:00:05Z"},
		{Name: "WARC-Target-URI", Value: "http://bog.example/b"}, {Name: "WARC-Payload-Digest", Value: digest},
		{Name: "WARC-Profile", Value: "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"},
		{Name: "Content-Type", Value: "application/http; msgtype=response"}},
		[]byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n"))
	ctx := context.Background()
	st := openStore(t)
	rep, err := importWARC(ctx, st, &buf, ImportOptions{Name: "bog.warc.gz"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ProblemCount != 0 || rep.Pages != 2 || rep.Revisits != 1 {
		t.Fatalf("import %+v", rep)
	}
	id, err := st.PageID(ctx, "http://bog.example/b")
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := st.Page(ctx, id); p.Title != "Sphagnum" {
		t.Errorf("the revisit's page: %+v", p)
	}
}

// TestImportReadsEverySummarisedType: an archived feed (served as Debian's
// application/x-rss+xml) and a CSV file are summarised and searchable, as a crawl of those
// types would have them; an image is recorded without its body.
func TestImportReadsEverySummarisedType(t *testing.T) {
	feed := `<?xml version="1.0"?><rss version="2.0"><channel><title>Bog news</title>` +
		`<item><title>Sundew sighting</title><link>http://bog.example/sundew</link><description>drosera carnivorous</description></item></channel></rss>`
	csv := "species,count\nutricularia,12\n"
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, true)
	for _, r := range []struct{ uri, ct, body string }{
		{"http://bog.example/feed.rss", "application/x-rss+xml", feed},
		{"http://bog.example/counts.csv", "text/csv", csv},
		{"http://bog.example/moss.png", "image/png", "\x89PNG\r\n\x1a\n"},
	} {
		if err := w.WriteRecord(warc.Header{{Name: "WARC-Type", Value: "response"}, {Name: "WARC-Date", Value: "2026-02-01T10:00:00Z"},
			{Name: "WARC-Target-URI", Value: r.uri}, {Name: "Content-Type", Value: "application/http; msgtype=response"}},
			[]byte("HTTP/1.1 200 OK\r\nContent-Type: "+r.ct+"\r\nContent-Length: "+strconv.Itoa(len(r.body))+"\r\n\r\n"+r.body)); err != nil {
			t.Fatal(err)
		}
	}
	st := openStore(t)
	rep, err := importWARC(context.Background(), st, &buf, ImportOptions{Name: "bog.warc.gz"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ProblemCount != 0 || rep.Pages != 2 || rep.Other != 1 {
		t.Fatalf("import %+v", rep)
	}
	for q, want := range map[string]string{"drosera": "http://bog.example/feed.rss", "utricularia": "http://bog.example/counts.csv"} {
		if got := hits(t, st, q); len(got) != 1 || got[0] != want {
			t.Errorf("search %s: %v, want %s", q, got, want)
		}
	}
}

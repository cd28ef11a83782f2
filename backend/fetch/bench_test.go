package fetch

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

var benchPage = []byte(strings.Repeat("<p>The worm crawls the web and records titles, anchors and images.</p>\n", 280))

func benchServer(b *testing.B, enc string, body []byte) *httptest.Server {
	srv := httptest.NewServer(serveBytes("text/html; charset=utf-8", enc, body))
	b.Cleanup(srv.Close)
	return srv
}

func benchDo(b *testing.B, enc string, body []byte) {
	srv := benchServer(b, enc, body)
	c := newClient(Config{})
	ctx := context.Background()
	b.SetBytes(int64(len(benchPage)))
	b.ReportAllocs()
	for b.Loop() {
		resp, err := c.Do(ctx, Request{URL: srv.URL + "/page.html"})
		if err != nil || len(resp.Body) != len(benchPage) {
			b.Fatal(err)
		}
	}
}

// BenchmarkDo fetches a 20 KB page over loopback keep-alive (server included).
func BenchmarkDo(b *testing.B) { benchDo(b, "", benchPage) }

// BenchmarkDoGzip is BenchmarkDo with a gzipped body.
func BenchmarkDoGzip(b *testing.B) { benchDo(b, "gzip", gzipBytes(b, benchPage)) }

// BenchmarkNetHTTPGet is the floor: http.Get and io.ReadAll on the same server.
func BenchmarkNetHTTPGet(b *testing.B) {
	srv := benchServer(b, "", benchPage)
	c := &http.Client{}
	b.SetBytes(int64(len(benchPage)))
	b.ReportAllocs()
	for b.Loop() {
		resp, err := c.Get(srv.URL + "/page.html")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadAll(resp.Body); err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
	}
}

func BenchmarkDecodeTextUTF8(b *testing.B) {
	b.SetBytes(int64(len(benchPage)))
	b.ReportAllocs()
	for b.Loop() {
		DecodeText(benchPage, "text/html")
	}
}

func BenchmarkDecodeTextLatin1(b *testing.B) {
	b.SetBytes(int64(len(benchPage)))
	b.ReportAllocs()
	for b.Loop() {
		DecodeText(benchPage, "text/html; charset=iso-8859-1")
	}
}

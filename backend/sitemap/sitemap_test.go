package sitemap

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"strings"
	"testing"

	"mundaneum/backend/urlnorm"
)

func gz(s string) []byte {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte(s))
	z.Close()
	return b.Bytes()
}

func TestParse(t *testing.T) {
	urlset := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>http://example.com/</loc><lastmod>2024-01-01</lastmod></url>
  <url><loc> http://example.com/a?b=1&amp;a=2 </loc></url>
  <url><loc>http://example.com/</loc></url>
  <url><loc>mailto:x@example.com</loc></url>
  <url><loc>/relative</loc></url>
  <url><image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><image:loc>http://example.com/i.png</image:loc></image:image></url>
</urlset>`
	tests := []struct {
		name    string
		body    []byte
		index   bool
		urls    []string
		invalid int
		err     error
	}{
		{"urlset", []byte(urlset), false, []string{"http://example.com/", "http://example.com/a?a=2&b=1"}, 2, nil},
		{"gzip", gz(urlset), false, []string{"http://example.com/", "http://example.com/a?a=2&b=1"}, 2, nil},
		{"index", []byte(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
			<sitemap><loc>https://example.com/s1.xml.gz</loc></sitemap><sitemap><loc>https://example.com/s2.xml</loc></sitemap>
			</sitemapindex>`), true, []string{"https://example.com/s1.xml.gz", "https://example.com/s2.xml"}, 0, nil},
		{"text", []byte("http://example.com/x\r\n\nhttps://example.com/y\n"), false, []string{"http://example.com/x", "https://example.com/y"}, 0, nil},
		{"bom and upper case", []byte("\xEF\xBB\xBF<URLSET><URL><LOC>http://example.com/z</LOC></URL></URLSET>"), false, []string{"http://example.com/z"}, 0, nil},
		{"broken xml keeps what came first", []byte(`<urlset><url><loc>http://example.com/1</loc></url><url><loc>http://exa`), false, []string{"http://example.com/1"}, 0, nil},
		{"html page", []byte(`<!doctype html><html><body><a href="http://example.com/">x</a></body></html>`), false, nil, 0, ErrNotSitemap},
		{"rss", []byte(`<rss><channel><link>http://example.com/</link></channel></rss>`), false, nil, 0, ErrNotSitemap},
		{"prose", []byte("hello world\nhttp://example.com/\n"), false, nil, 0, ErrNotSitemap},
		{"empty", nil, false, nil, 0, ErrNotSitemap},
		{"bad gzip", []byte{0x1f, 0x8b, 0, 1, 2}, false, nil, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sm, err := Parse(tt.body)
			if tt.name == "bad gzip" {
				if err == nil {
					t.Fatal("a broken gzip stream parsed")
				}
				return
			}
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err = %v, want %v", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if sm.Index != tt.index || fmt.Sprint(sm.URLs) != fmt.Sprint(tt.urls) || sm.Invalid != tt.invalid {
				t.Errorf("got index=%v urls=%q invalid=%d, want %v %q %d", sm.Index, sm.URLs, sm.Invalid, tt.index, tt.urls, tt.invalid)
			}
		})
	}
}

func TestParseBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString("<urlset>")
	for i := range MaxURLs + 10 {
		fmt.Fprintf(&b, "<url><loc>http://example.com/%d</loc></url>", i)
	}
	b.WriteString("<url><loc>http://example.com/" + strings.Repeat("x", MaxURLLen) + "</loc></url></urlset>")
	sm, err := Parse(gz(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(sm.URLs) != MaxURLs || !sm.Truncated {
		t.Errorf("%d URLs, truncated %v; want %d, true", len(sm.URLs), sm.Truncated, MaxURLs)
	}
	// A compression bomb stops at MaxSize.
	bomb := gz("<urlset>" + strings.Repeat(" ", MaxSize+100))
	sm, err = Parse(bomb)
	if err != nil || !sm.Truncated {
		t.Errorf("bomb: %v, %+v", err, sm)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`<urlset><url><loc>http://a/</loc></url></urlset>`,
		`<sitemapindex><sitemap><loc>https://a/s.xml</loc></sitemap></sitemapindex>`,
		"http://a/\nhttps://b/c?d=e\n", `<urlset><url><loc>http://a/&#x0;</loc></url>`, "\x1f\x8b"} {
		f.Add([]byte(s))
	}
	f.Add(gz(`<urlset><url><loc>http://a/x</loc></url></urlset>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		sm, err := Parse(body)
		if err != nil {
			return
		}
		if len(sm.URLs) > MaxURLs {
			t.Fatalf("%d URLs", len(sm.URLs))
		}
		seen := map[string]bool{}
		for _, u := range sm.URLs {
			n, err := urlnorm.Normalize(u)
			if err != nil || n != u || seen[u] {
				t.Fatalf("URL %q: normalises to %q, %v (seen before: %v)", u, n, err, seen[u])
			}
			seen[u] = true
		}
	})
}

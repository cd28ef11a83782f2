package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

const evil = `<script>alert(1)</script>"><img src=x onerror=alert(2)>`

func hostile() *Model {
	return &Model{
		Task:      Task{Name: "docs" + evil, Type: "site", Top: "http://a.example/", Title: "Index " + evil},
		Generated: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC), Started: time.Date(2026, 11, 23, 9, 59, 0, 0, time.UTC),
		Elapsed: "1m0s", Program: "Mundaneum/0.1", PriorHref: "docs-1.html",
		Options: []Option{{Name: "delay", Value: "1s" + evil}},
		Counts:  Counts{Documents: 1, References: 3, Links: 4, Tested: 3, Verdicts: map[string]int{"ok": 1, "broken": 1, "redirected": 1}},
		Links: []Link{
			{URL: "http://a.example/", Tested: true, Verdict: "ok", Status: 200, Title: "Home " + evil, Doc: 0},
			{URL: "javascript:alert(3)", Tested: true, Verdict: "invalid", Reason: "not an http or https URL", Doc: -1},
			{URL: "http://a.example/missing?q=" + evil, Tested: true, Verdict: "broken", Status: 404, Reason: "HTTP 404" + evil, Dead: true, Doc: -1},
			{URL: "http://a.example/old", Tested: true, Verdict: "redirected", FinalURL: "javascript:alert(4)", Title: "=HYPERLINK(\"http://evil\")", Doc: -1},
		},
		Docs: []Doc{{Link: 0, Refs: []Ref{{Link: 0, Kind: "a"}, {Link: 1, Kind: "a"}, {Link: 2, Kind: "img"}, {Link: 3, Kind: "a"}}}},
		News: News{
			Broken: []Item{{URL: "http://a.example/missing?q=" + evil, Detail: "HTTP 404" + evil, Dead: true, New: true, From: []string{"http://a.example/"}}},
			Moved:  []Item{{URL: "http://a.example/old", FinalURL: "javascript:alert(4)", Detail: "moved"}},
		},
	}
}

// TestHTMLIsInert parses the written index and checks that nothing hostile became markup:
// no script element, no event handler, no link to anything but http(s) and the index itself.
func TestHTMLIsInert(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteHTML(&buf, hostile()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	doc, err := html.Parse(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	var walk func(*html.Node)
	links := 0
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "script", "img", "iframe", "object", "embed":
				t.Errorf("a %s element in the report", n.Data)
			}
			for _, a := range n.Attr {
				if strings.HasPrefix(a.Key, "on") {
					t.Errorf("attribute %s on %s", a.Key, n.Data)
				}
				if a.Key == "href" {
					links++
					if !strings.HasPrefix(a.Val, "http://") && !strings.HasPrefix(a.Val, "#") && a.Val != "docs-1.html" {
						t.Errorf("href %q", a.Val)
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if links < 5 {
		t.Errorf("only %d links", links)
	}
	for _, want := range []string{"The prior version of this index", "Interesting changes", "[index]"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q", want)
		}
	}
}

func TestHTMLParts(t *testing.T) {
	var buf bytes.Buffer
	m := hostile()
	if err := WriteHTML(&buf, m); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		`href="docs-1.html"`, `id="doc-0"`, `href="#doc-0"`, `id="news"`,
		"Mon, 23 Nov 2026 10:00:00 UTC", "<h3>moved (1)</h3>", "<h3>broken (1)</h3>", "<h3>expiring (0)</h3>",
		`class="dead"`, `class="new"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the index", want)
		}
	}
}

func TestCSV(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteCSV(&buf, hostile()); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 5 || rows[0][3] != "url" {
		t.Fatalf("rows = %q", rows)
	}
	if got := rows[4][10]; got != `'=HYPERLINK("http://evil")` {
		t.Errorf("formula cell = %q", got)
	}
	if rows[3][5] != "broken" || rows[3][9] != "true" || rows[3][2] != "img" {
		t.Errorf("row = %q", rows[3])
	}
}

func TestJSONRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	m := hostile()
	if err := WriteJSON(&buf, m); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "<script>") {
		t.Error("< not escaped in JSON")
	}
	var back Model
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Links[2].URL != m.Links[2].URL || back.News.Broken[0].Detail != m.News.Broken[0].Detail || len(back.Docs[0].Refs) != 4 {
		t.Errorf("round trip lost data: %+v", back)
	}
}

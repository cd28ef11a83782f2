package extract

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestChromeLeavesText(t *testing.T) {
	page, _ := url.Parse("http://example.com/docs/page.html")
	for _, tt := range []struct {
		name, html, text, headings string
		links                      int
	}{
		{
			name: "DocBook navigation bars",
			html: `<html><head><title>VACUUM</title></head><body><div class="navheader"><table><tr><th>VACUUM</th></tr>
				<tr><td><a href="u.html">Prev</a></td><td><a href="c.html">Up</a></td><th>SQL Commands</th><td><a href="index.html">Home</a></td><td><a href="v.html">Next</a></td></tr></table><hr/></div>
				<div class="refentry"><h2>VACUUM</h2><p>VACUUM — garbage-collect a database</p></div>
				<div class="navfooter"><table><tr><td><a href="u.html">Prev</a></td><td>UPDATE</td></tr></table></div></body></html>`,
			text: "VACUUM VACUUM — garbage-collect a database", headings: "VACUUM", links: 4,
		},
		{
			name: "a site menu marked nosearch, nested divs",
			html: `<body><div class=nosearch><a href="index.html"><img src="logo.gif" alt="SQLite"></a><div class="tagline">Small. Fast.</div>
				<div class="menu mainmenu"><ul><li><a href="about.html">About</a><li><a href="download.html">Download</a></ul></div></div>
				<h1>Syntax</h1><p>The VACUUM command rebuilds the database file.</p></body>`,
			text: "Syntax The VACUUM command rebuilds the database file.", headings: "Syntax", links: 4,
		},
		{
			name: "sphinx related bar and sidebar by role",
			html: `<body><div class="related" role="navigation"><h3>Navigation</h3><ul><li><a href="genindex.html">index</a></li></ul></div>
				<div class="body" role="main"><h1>os — Miscellaneous interfaces</h1><p>This module provides.</p></div>
				<div class="sphinxsidebar" role="navigation"><h3>Previous topic</h3><p>io</p></div><div class="footer">© Copyright</div></body>`,
			text: "os — Miscellaneous interfaces This module provides.", headings: "os — Miscellaneous interfaces", links: 1,
		},
		{
			name: "an article's own header and footer stay",
			html: `<body><header><a href="/">Site</a> <nav><a href="/a">A</a></nav></header><article><header><h1>Title</h1></header><p>Body.</p><footer>Posted by Ann</footer></article><footer>Site footer</footer></body>`,
			text: "Title Body. Posted by Ann", headings: "Title", links: 2,
		},
		{
			name: "an unclosed nav ends where the main content opens",
			html: `<body><nav><a href="/a">A</a> <a href="/b">B</a><main><p>The content.</p></main></body>`,
			text: "The content.", links: 2,
		},
		{
			name: "a page of nothing but chrome keeps it",
			html: `<body><nav><a href="/a">Alpha</a> <a href="/b">Beta</a></nav></body>`,
			text: "Alpha Beta", links: 2,
		},
		{
			name: "a header block holding the h1 is the page's own (asciidoc manual pages)",
			html: `<body><div id="header"><h1>git-rerere(1)</h1><h2>NAME</h2><p>git-rerere - Reuse recorded resolution</p></div><div id="content"><p>Body.</p></div><div id="footer">Last updated</div></body>`,
			text: "git-rerere(1) NAME git-rerere - Reuse recorded resolution Body.", headings: "git-rerere(1) \nNAME",
		},
		{
			name: "class tokens are whole words",
			html: `<body><div class="navigation-help menus"><p>Kept text.</p></div><div id="Sidebar">gone</div></body>`,
			text: "Kept text.",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := HTML([]byte(tt.html), page)
			if s.Text != tt.text {
				t.Errorf("Text = %q, want %q", s.Text, tt.text)
			}
			if s.Headings != tt.headings {
				t.Errorf("Headings = %q, want %q", s.Headings, tt.headings)
			}
			if len(s.Links) < tt.links {
				t.Errorf("%d links, want at least %d (chrome keeps its links)", len(s.Links), tt.links)
			}
		})
	}
}

// TestChromeAnchorText: a link in chrome still gives its target its anchor text.
func TestChromeAnchorText(t *testing.T) {
	page, _ := url.Parse("http://example.com/")
	s := HTML([]byte(`<nav><a href="/install">Installing</a></nav><p>x</p>`), page)
	if len(s.Links) != 1 || s.Links[0].Anchor != "Installing" {
		t.Fatalf("links = %+v", s.Links)
	}
}

// TestChromeRealDocs runs the extraction on the Debian documentation the relevance check
// crawls, when installed: the navigation bars are gone and the page's own text stays.
func TestChromeRealDocs(t *testing.T) {
	for _, tt := range []struct {
		file, gone, kept string
	}{
		{"/usr/share/doc/postgresql-doc-15/html/sql-vacuum.html", "Prev Up", "garbage-collect and optionally analyze a database"},
		{"/usr/share/doc/sqlite3/lang_vacuum.html", "Choose any three", "The VACUUM command rebuilds the database file"},
		{"/usr/share/doc/python3.11/html/library/os.html", "Previous topic", "This module provides a portable way of using operating system dependent functionality"},
		{"/usr/share/doc/git-doc/git-rerere.html", "Last updated", "Reuse recorded resolution of conflicted merges"},
	} {
		body, err := os.ReadFile(tt.file)
		if err != nil {
			t.Logf("skip %s: %v", filepath.Base(tt.file), err)
			continue
		}
		page, _ := url.Parse("http://127.0.0.1/" + filepath.Base(tt.file))
		s := HTML(body, page)
		if strings.Contains(s.Text, tt.gone) {
			t.Errorf("%s: text still has the chrome %q: %.200q", tt.file, tt.gone, s.Text)
		}
		if !strings.Contains(s.Text, tt.kept) {
			t.Errorf("%s: text lost %q: %.300q", tt.file, tt.kept, s.Text)
		}
	}
}

package extract

import (
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func fixture(t testing.TB, name, pageURL string) *Summary {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return HTML(b, mustURL(t, pageURL))
}

func checkLinks(t *testing.T, got, want []Link) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("got %d links, want %d", len(got), len(want))
	}
	for i := range max(len(got), len(want)) {
		var g, w Link
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("link %d:\n got  %+v\n want %+v", i, g, w)
		}
	}
}

func TestHTMLLinkKinds(t *testing.T) {
	s := fixture(t, "links.html", "http://example.com/dir/index.html")
	const h = "http://example.com"
	checkLinks(t, s.Links, []Link{
		{URL: h + "/css/site.css", Kind: KindLink, Rel: "stylesheet"},
		{URL: "https://example.com/canonical", Kind: KindLink, Rel: "canonical"},
		{URL: h + "/dir/feed.xml", Kind: KindLink, Rel: "alternate", Anchor: "News feed"},
		{URL: h + "/js/app.js", Kind: KindScript},
		{URL: h + "/next.html", Kind: KindRefresh},
		{URL: h + "/dir/page.html", Kind: KindA, Anchor: "the page"},
		{URL: "https://other.example/x?q=1", Kind: KindA, Anchor: "elsewhere", Rel: "nofollow noopener", NoFollow: true},
		{URL: h + "/sponsored", Kind: KindA, Anchor: "ad", Rel: "sponsored", NoFollow: true},
		{URL: h + "/img/logo.png", Kind: KindImg, Anchor: "The logo"},
		{URL: h + "/dir/small.jpg", Kind: KindImg, Anchor: "sizes"},
		{URL: h + "/img/large.jpg", Kind: KindImg, Anchor: "sizes"},
		{URL: h + "/img/huge.jpg", Kind: KindImg, Anchor: "sizes"},
		{URL: h + "/dir/a.png", Kind: KindImg},
		{URL: h + "/dir/b.png", Kind: KindImg},
		{URL: h + "/area-target", Kind: KindArea, Anchor: "Area alt"},
		{URL: h + "/frame-in.html", Kind: KindIFrame, Anchor: "Inline frame"},
		{URL: h + "/movie.swf", Kind: KindEmbed},
		{URL: h + "/object.svg", Kind: KindObject},
		{URL: h + "/clip.mp4", Kind: KindMedia},
		{URL: h + "/poster.jpg", Kind: KindImg},
		{URL: h + "/clip.webm", Kind: KindMedia},
		{URL: h + "/subs.vtt", Kind: KindMedia},
		{URL: h + "/sound.ogg", Kind: KindMedia},
		{URL: h + "/pic.avif", Kind: KindImg},
		{URL: h + "/pic.jpg", Kind: KindImg, Anchor: "pic"},
		{URL: h + "/search", Kind: KindForm},
		{URL: h + "/go.gif", Kind: KindImg, Anchor: "Go"},
		{URL: h + "/bg.gif", Kind: KindImg},
	})
	if s.Title != "Every kind of link" {
		t.Errorf("Title = %q", s.Title)
	}
	if s.Canonical != "https://example.com/canonical" {
		t.Errorf("Canonical = %q", s.Canonical)
	}
	if s.Owner != "webmaster@example.com" {
		t.Errorf("Owner = %q", s.Owner)
	}
	if s.Lang != "en-gb" {
		t.Errorf("Lang = %q", s.Lang)
	}
	if !reflect.DeepEqual(s.Problems, []string{ProblemBadLink}) {
		t.Errorf("Problems = %q", s.Problems)
	}
	if strings.Contains(s.Text, "fallback") {
		t.Errorf("iframe fallback content leaked into Text: %q", s.Text)
	}
}

func TestHTMLFrames(t *testing.T) {
	s := fixture(t, "frames.html", "http://example.com/")
	checkLinks(t, s.Links, []Link{
		{URL: "http://example.com/nav.html", Kind: KindFrame, Anchor: "Navigation"},
		{URL: "http://example.com/main.html", Kind: KindFrame},
		{URL: "http://example.com/main.html", Kind: KindA, Anchor: "main page"},
	})
	if s.Text != "Your browser lacks frames: see the main page." {
		t.Errorf("Text = %q", s.Text)
	}
}

func TestHTMLBase(t *testing.T) {
	s := fixture(t, "base.html", "http://example.com/dir/page.html")
	checkLinks(t, s.Links, []Link{
		// The first <base> governs links before it too, as in browsers.
		{URL: "http://mirror.example/docs/favicon.ico", Kind: KindLink, Rel: "icon"},
		{URL: "http://mirror.example/docs/a.html", Kind: KindA, Anchor: "A"},
		{URL: "http://mirror.example/b.html", Kind: KindA, Anchor: "B"},
		{URL: "http://mirror.example/c.html", Kind: KindA, Anchor: "C"},
		{URL: "http://cdn.example/d.js", Kind: KindA, Anchor: "D"},
	})
	if len(s.Problems) != 0 {
		t.Errorf("Problems = %q", s.Problems)
	}

	s = fixture(t, "badbase.html", "http://example.com/dir/page.html")
	checkLinks(t, s.Links, []Link{{URL: "http://example.com/dir/rel.html", Kind: KindA, Anchor: "relative"}})
	if !reflect.DeepEqual(s.Problems, []string{ProblemBadBase}) {
		t.Errorf("Problems = %q", s.Problems)
	}
}

// TestHTMLImageInAnchor checks WWWW's rule: an image inside an anchor is indexed
// with the anchor's text, and an anchor with no text takes the image's alt.
func TestHTMLImageInAnchor(t *testing.T) {
	s := fixture(t, "wwww.html", "http://mach/index.html")
	checkLinks(t, s.Links, []Link{
		{URL: "http://mach/photo.gif", Kind: KindA, Anchor: "McBryan's Photo"},
		{URL: "http://mach/home.html", Kind: KindA, Anchor: "McBryan's photo"},
		{URL: "http://mach/photo.html", Kind: KindImg, Anchor: "McBryan's photo"},
		{URL: "http://mach/icon-only.html", Kind: KindA, Anchor: "Icon alt"},
		{URL: "http://mach/icon.gif", Kind: KindImg, Anchor: "Icon alt"},
		{URL: "http://mach/titled.html", Kind: KindA, Anchor: "Titled link"},
		{URL: "http://mach/standalone.gif", Kind: KindImg, Anchor: "Standalone"},
		{URL: "http://mach/both.html", Kind: KindA, Anchor: "Both text"},
		{URL: "http://mach/both.gif", Kind: KindImg, Anchor: "Both text"},
	})
	if s.Title != "McBryan's Home" {
		t.Errorf("Title = %q", s.Title)
	}
}

func TestHTMLText(t *testing.T) {
	s := fixture(t, "text.html", "http://example.com/")
	wantText := `Café First paragraph with <tags> and "quotes". Second paragraph, spread over lines. ` +
		`one two cell1 cell2 block break Drinks & more svg title svg words inline bold and italic Last.`
	if s.Text != wantText {
		t.Errorf("Text =\n %q\nwant\n %q", s.Text, wantText)
	}
	if s.Title != "Café & Bar — menu" {
		t.Errorf("Title = %q", s.Title)
	}
	if s.Headings != "Café \nDrinks & more" {
		t.Errorf("Headings = %q", s.Headings)
	}
	got := []string{s.Description, s.Keywords, s.Author, s.Owner, s.Generator, s.Expires}
	want := []string{"Food & drink", "cafe,bar", "A. Cook", "owner@example.com", "Hand & Vim", "Tue, 01 Mar 1994 12:00:00 GMT"}
	if !slices.Equal(got, want) {
		t.Errorf("meta = %q, want %q", got, want)
	}
	// Links inside <noscript> still count.
	checkLinks(t, s.Links, []Link{{URL: "http://example.com/pixel.gif", Kind: KindImg}})
	if len(s.Problems) != 0 {
		t.Errorf("Problems = %q", s.Problems)
	}
}

func TestHTMLProblems(t *testing.T) {
	tests := []struct {
		file     string
		problems []string
		check    func(t *testing.T, s *Summary)
	}{
		{"broken_quote.html", []string{ProblemUnclosedQuote}, func(t *testing.T, s *Summary) {
			if !strings.Contains(s.Text, "second link") {
				t.Errorf("Text = %q", s.Text)
			}
		}},
		{"missing_bracket.html", []string{ProblemUnclosedTag}, nil},
		{"unclosed_comment.html", []string{ProblemUnclosedComment}, func(t *testing.T, s *Summary) {
			if s.Text != "visible" || len(s.Links) != 0 {
				t.Errorf("Text = %q, links %v", s.Text, s.Links)
			}
		}},
		{"no_title.html", []string{ProblemNoTitle}, func(t *testing.T, s *Summary) {
			if !s.NoIndex || s.NoFollow {
				t.Errorf("NoIndex %v NoFollow %v", s.NoIndex, s.NoFollow)
			}
		}},
		{"two_titles.html", []string{ProblemMultipleTitles}, func(t *testing.T, s *Summary) {
			if s.Title != "First title" || s.Text != "text" {
				t.Errorf("Title %q Text %q", s.Title, s.Text)
			}
		}},
		{"empty_title.html", []string{ProblemEmptyTitle}, nil},
		{"unclosed_title.html", []string{ProblemUnclosedElement}, func(t *testing.T, s *Summary) {
			if !strings.HasPrefix(s.Title, "Title runs on </head><body>") || s.Text != "" {
				t.Errorf("Title %q Text %q", s.Title, s.Text)
			}
		}},
		{"nested_a.html", []string{ProblemUnclosedElement}, func(t *testing.T, s *Summary) {
			checkLinks(t, s.Links, []Link{
				{URL: "http://example.com/outer.html", Kind: KindA, Anchor: "outer"},
				{URL: "http://example.com/inner.html", Kind: KindA, Anchor: "inner"},
				{URL: "http://example.com/open.html", Kind: KindA, Anchor: "never closed"},
			})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			s := fixture(t, tt.file, "http://example.com/")
			if !reflect.DeepEqual(s.Problems, tt.problems) {
				t.Errorf("Problems = %q, want %q", s.Problems, tt.problems)
			}
			if tt.check != nil {
				tt.check(t, s)
			}
		})
	}
}

func TestHTMLInline(t *testing.T) {
	page := mustURL(t, "http://example.com/a/b.html")
	tests := []struct {
		name     string
		html     string
		noIndex  bool
		noFollow bool
		problems []string
		text     string
	}{
		{name: "robots none", html: `<title>t</title><meta name="ROBOTS" content="NONE">`, noIndex: true, noFollow: true},
		{name: "robots nofollow", html: `<title>t</title><meta name="robots" content="index, nofollow">`, noFollow: true},
		{name: "robots spaces", html: `<title>t</title><meta name="robots" content="noindex nofollow">`, noIndex: true, noFollow: true},
		{name: "mundaneum agent", html: `<title>t</title><meta name="Mundaneum" content="noindex">`, noIndex: true},
		{name: "other agent ignored", html: `<title>t</title><meta name="googlebot" content="noindex">`},
		{name: "quote at eof", html: `<title>t</title><p>x<a href="foo`, problems: []string{ProblemUnclosedQuote}, text: "x"},
		{name: "tag at eof", html: `<title>t</title><p>x<a href=foo`, problems: []string{ProblemUnclosedTag}, text: "x"},
		{name: "quote then newline", html: "<title>t</title><img alt=\"a>\nb\" src=x.gif>", problems: []string{ProblemUnclosedQuote}},
		{name: "script with markup is fine", html: `<title>t</title><script>if (a<b) document.write("<p>")</script><p onclick="x()">ok</p>`, text: "ok"},
		{name: "gt in value is fine", html: `<title>t</title><p title="a > b">ok</p>`, text: "ok"},
		{name: "unclosed script", html: `<title>t</title><p>before</p><script>var x = 1;`, problems: []string{ProblemUnclosedElement}, text: "before"},
		{name: "problems not repeated", html: `<p><a href="http://[x">1</a><a href="http://[y">2</a>`, problems: []string{ProblemNoTitle, ProblemBadLink}, text: "12"},
		{name: "entities", html: `<title>A&amp;B</title><p>&lt;&gt;&copy;&#x41;&#66;&nbsp;x&nosuch;</p>`, text: "<>©AB x&nosuch;"},
		{name: "invalid utf-8", html: "<title>t\xff</title><p>a\xffb \xe2\x82</p>", text: "a\uFFFDb \uFFFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := HTML([]byte(tt.html), page)
			if s.NoIndex != tt.noIndex || s.NoFollow != tt.noFollow {
				t.Errorf("NoIndex %v NoFollow %v", s.NoIndex, s.NoFollow)
			}
			if !reflect.DeepEqual(s.Problems, tt.problems) {
				t.Errorf("Problems = %q, want %q", s.Problems, tt.problems)
			}
			if s.Text != tt.text {
				t.Errorf("Text = %q, want %q", s.Text, tt.text)
			}
		})
	}
}

func TestHTMLHugePageCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("<title>" + strings.Repeat("T", 5000) + "</title>")
	for i := range 30000 {
		b.WriteString(`<p>paragraph é with words <a href="/p`)
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(`/`)
		b.WriteString(strings.Repeat("0123456789", 1))
		b.WriteString(`?n=`)
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString(strconv.Itoa(i))
		b.WriteString(`">link ` + strings.Repeat("long anchor ", 40) + `</a></p>`)
	}
	s := HTML([]byte(b.String()), mustURL(t, "http://example.com/"))
	if len(s.Text) > MaxText || len(s.Text) < MaxText-10 {
		t.Errorf("len(Text) = %d, want just under %d", len(s.Text), MaxText)
	}
	if len(s.Title) != MaxTitle {
		t.Errorf("len(Title) = %d", len(s.Title))
	}
	if len(s.Links) != MaxLinks {
		t.Errorf("len(Links) = %d, want %d", len(s.Links), MaxLinks)
	}
	for _, l := range s.Links {
		if len(l.Anchor) > MaxAnchor {
			t.Fatalf("anchor of %d bytes", len(l.Anchor))
		}
	}
}

// TestHTMLPooledStateDoesNotLeak runs every fixture many times, interleaved and
// concurrently, and expects each result to equal the first, so nothing of one
// page survives into the next through the parser pool.
func TestHTMLPooledStateDoesNotLeak(t *testing.T) {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	page := mustURL(t, "http://example.com/dir/page.html")
	var bodies [][]byte
	var want []*Summary
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("testdata", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, b)
		want = append(want, HTML(b, page))
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 20 {
				i := (g + round*7) % len(bodies)
				if got := HTML(bodies[i], page); !reflect.DeepEqual(got, want[i]) {
					t.Errorf("fixture %d differs on a later run", i)
					return
				}
				Text(bodies[(i+1)%len(bodies)], page)
			}
		}()
	}
	wg.Wait()
}

// Links gives what HTML gives, but the words.
func TestLinksMatchesHTML(t *testing.T) {
	for _, f := range []string{"links.html", "bench.html", "base.html", "frames.html", "wwww.html"} {
		body, err := os.ReadFile("testdata/" + f)
		if err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse("http://example.org/dir/page.html")
		full, links := HTML(body, u), Links(body, u)
		if links.Text != "" || links.Headings != "" {
			t.Errorf("%s: Links gathered text", f)
		}
		if full.Title != links.Title || full.Owner != links.Owner || full.Expires != links.Expires || len(full.Links) != len(links.Links) {
			t.Errorf("%s: HTML %q %d links, Links %q %d links", f, full.Title, len(full.Links), links.Title, len(links.Links))
			continue
		}
		for i := range full.Links {
			if full.Links[i].URL != links.Links[i].URL || full.Links[i].Kind != links.Links[i].Kind {
				t.Errorf("%s: link %d: %+v vs %+v", f, i, full.Links[i], links.Links[i])
			}
		}
	}
}

// A legitimate long page keeps its last words (issue 18: the text was cut at 512 KiB
// without a trace); a page over the limit says it was cut.
func TestLongPageTextAndTruncation(t *testing.T) {
	var b strings.Builder
	b.WriteString("<title>Long</title><p>")
	for b.Len() < 3<<20 {
		b.WriteString("filler words of a very long legitimate page ")
	}
	b.WriteString("zanzibar closing words</p>")
	s := HTML([]byte(b.String()), nil)
	if !strings.HasSuffix(s.Text, "zanzibar closing words") {
		t.Errorf("the last words of a 3 MB page are missing: ...%q", s.Text[max(0, len(s.Text)-40):])
	}
	if slices.Contains(s.Problems, ProblemTruncated) {
		t.Errorf("a page under the limit is marked truncated: %q", s.Problems)
	}
	cut := Options{MaxText: 1000}.HTML([]byte(b.String()), nil)
	if len(cut.Text) > 1000 || !slices.Contains(cut.Problems, ProblemTruncated) {
		t.Errorf("over the limit: %d bytes of text, problems %q", len(cut.Text), cut.Problems)
	}
	plain := Options{MaxText: 1000}.Text([]byte(b.String()), nil)
	if !slices.Equal(plain.Problems, []string{ProblemTruncated}) {
		t.Errorf("plain text over the limit: problems %q", plain.Problems)
	}
}

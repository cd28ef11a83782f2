package render

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// article is a page's worth of text, as a static site or a server-rendered app sends it.
var article = strings.Repeat("<p>Paul Otlet planned a universal bibliographic repertory of cards, filed by the Universal Decimal Classification. </p>", 12)

func TestDetect(t *testing.T) {
	bundle := "<script>" + strings.Repeat("function f(a){return a*2}", 400) + "</script>"
	for _, c := range []struct {
		name, url, body string
		want            Signal
	}{
		{"static, no script", "", "<title>t</title><h1>Otlet</h1>" + article, ""},
		{"static with analytics", "", "<h1>Otlet</h1>" + article + `<script async src="/ga.js"></script><script>window.dataLayer=[]</script>`, ""},
		{"short static page without scripts", "", "<title>Moved</title><p>See <a href=/x>here</a>.</p>", ""},
		{"create-react-app", "", `<!doctype html><html><head><title>React App</title><script defer src="/static/js/main.js"></script></head>
			<body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>`, SignalEmptyRoot},
		{"vue", "", `<body><div id="app"></div><script type="module" src="/assets/index.js"></script></body>`, SignalEmptyRoot},
		{"angular", "", `<body><app-root></app-root><script src="main.js"></script></body>`, SignalEmptyRoot},
		{"next.js rendered on the server", "", `<body><div id="__next"><h1>Otlet</h1>` + article + `</div>
			<script id="__NEXT_DATA__" type="application/json">{"page":"/otlet","query":{}}</script><script src="/_next/main.js"></script></body>`, ""},
		{"root with a spinner", "", `<body><div id="root"><div class="spinner"></div></div><script src="/app.js"></script></body>`, SignalEmptyRoot},
		{"noscript only", "", `<body><noscript><p>This site needs <b>JavaScript</b>. Please turn it on to read the documentation.</p></noscript>
			<main class="x"></main><script src="/a.js"></script></body>`, SignalNoscript},
		{"links only in scripts", "", `<body><nav class="menu"></nav><p>Loading the documentation</p>
			<script>const routes = ["/guide/intro", "/guide/install", '/api/reference', "https://example.org/blog"];</script></body>`, SignalScriptLinks},
		{"little text, big inline bundle", "", `<body><main>Loading…</main>` + bundle + `</body>`, SignalLittleText},
		{"hash route", "http://h/#!/about", `<body><h1>Otlet</h1>` + article + `<script src="/router.js"></script></body>`, SignalHashRoute},
		{"hash route, no script", "http://h/#/about", "<h1>Otlet</h1>" + article, ""},
		{"plain fragment", "http://h/#section", `<body><h1>Otlet</h1>` + article + `<script src="/x.js"></script></body>`, ""},
		{"json only is no script", "", `<body><div id="root"></div><script type="application/ld+json">{"@type":"Article"}</script></body>`, ""},
		{"SCRIPT in capitals", "", `<BODY><DIV ID="root"></DIV><SCRIPT SRC="/app.js"></SCRIPT></BODY>`, SignalEmptyRoot},
		{"root text in a style is not text", "", `<body><style>.a{color:red}</style><div id="root"></div><script src="a.js"></script></body>`, SignalEmptyRoot},
		{"script text is not text", "", `<body><div id="root"><script>document.write("` + strings.Repeat("words ", 300) + `")</script></div></body>`, SignalEmptyRoot},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := Detect([]byte(c.body), c.url)
			if v.Signal != c.want || v.Shell != (c.want != "") {
				t.Errorf("Detect: shell %v signal %q (%s), want %q; scripts %d text %d", v.Shell, v.Signal, v.Detail, c.want, v.Scripts, v.Text)
			}
			if v.Shell && v.Detail == "" {
				t.Errorf("a shell without a detail")
			}
		})
	}
}

func TestRouteFragment(t *testing.T) {
	for in, want := range map[string]string{
		"http://h/#!/about": "!/about", "http://h/#/a/b": "/a/b", "http://h/#top": "", "http://h/#": "",
		"http://h/#!": "", "http://h/": "", "http://h/#/": "",
	} {
		if got := RouteFragment(in); got != want {
			t.Errorf("RouteFragment(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDetectLargePage: a page far over the scan limit is read in time and is no shell
// when its beginning has text.
func TestDetectLargePage(t *testing.T) {
	body := "<script src=a.js></script>" + strings.Repeat(article, 3000)
	if len(body) < maxScan {
		t.Fatal("the page should be over the scan limit")
	}
	if v := Detect([]byte(body), ""); v.Shell {
		t.Errorf("a long article is a shell: %+v", v)
	}
}

// BenchmarkDetectStatic: what `auto` costs a static page: the PostgreSQL manual's pages
// where Debian's postgresql-doc-15 is installed (they carry no script, the common case),
// and the same pages with a script tag added (scanned whole).
func BenchmarkDetectStatic(b *testing.B) {
	files, _ := filepath.Glob("/usr/share/doc/postgresql-doc-15/html/*.html")
	if len(files) == 0 {
		b.Skip("postgresql-doc-15 is not installed")
	}
	var pages [][]byte
	size := 0
	for _, f := range files[:min(len(files), 300)] {
		body, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, body)
		size += len(body)
	}
	for _, c := range []struct {
		name string
		edit func([]byte) []byte
	}{
		{"as-served", func(p []byte) []byte { return p }},
		{"with-script", func(p []byte) []byte {
			return bytes.Replace(p, []byte("</head>"), []byte("<script src=\"/a.js\"></script></head>"), 1)
		}},
	} {
		in := make([][]byte, len(pages))
		for i, p := range pages {
			in[i] = c.edit(p)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(size / len(in)))
			for i := 0; b.Loop(); i++ {
				Detect(in[i%len(in)], "https://www.postgresql.org/docs/")
			}
		})
	}
}

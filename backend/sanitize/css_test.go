package sanitize

import (
	"net/url"
	"strings"
	"testing"
)

var cssBase, _ = url.Parse("http://example.test/css/site.css")

// stored answers for the images and fonts whose URL contains "stored", recording every
// question.
type stored struct{ asked []string }

func (s *stored) asset(u *url.URL, k AssetKind) string {
	s.asked = append(s.asked, k.String()+" "+u.String())
	if strings.Contains(u.Path, "stored") {
		return "data:image/png;base64,QQ=="
	}
	return ""
}

func TestRewriteCSS(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		asked          []string
	}{
		{"relative url", `body{background:url(img/stored.png) no-repeat}`,
			`body{background:url("data:image/png;base64,QQ==") no-repeat}`, []string{"image http://example.test/css/img/stored.png"}},
		{"quoted and spaced", `a{b:url( 'stored a.png' )}`, `a{b:url("data:image/png;base64,QQ==")}`,
			[]string{"image http://example.test/css/stored%20a.png"}},
		{"not stored", `a{b:url(/x.png)}`, `a{b:none}`, []string{"image http://example.test/x.png"}},
		{"upper case", `a{b:URL(stored.png)}`, `a{b:url("data:image/png;base64,QQ==")}`, []string{"image http://example.test/css/stored.png"}},
		{"escaped name", `a{b:\75 rl(stored.png);c:u\72l(stored.png)}`,
			`a{b:url("data:image/png;base64,QQ==");c:url("data:image/png;base64,QQ==")}`,
			[]string{"image http://example.test/css/stored.png", "image http://example.test/css/stored.png"}},
		{"font face", `@font-face{font-family:x;src:url(stored.woff2) format("woff2")}p{b:url(stored.png)}`,
			`@font-face{font-family:x;src:url("data:image/png;base64,QQ==") format("woff2")}p{b:url("data:image/png;base64,QQ==")}`,
			[]string{"font http://example.test/css/stored.woff2", "image http://example.test/css/stored.png"}},
		{"image-set strings", `a{b:image-set("stored1.png" 1x, url(two.png) 2x)}`,
			`a{b:image-set(url("data:image/png;base64,QQ==") 1x, none 2x)}`,
			[]string{"image http://example.test/css/stored1.png", "image http://example.test/css/two.png"}},
		{"a string is not a url", `a::before{content:"url(x.png)"}`, `a::before{content:"url(x.png)"}`, nil},
		{"comments go", `/* url(x.png) */a{}`, ` a{}`, nil},
		{"bad url", `a{b:url(x y.png);c:url(stored.png)}`, `a{b:none;c:url("data:image/png;base64,QQ==")}`,
			[]string{"image http://example.test/css/stored.png"}},
		{"other schemes dropped", `a{b:url(javascript:alert(1));c:url(//cdn.test/stored.png)}`,
			`a{b:none;c:url("data:image/png;base64,QQ==")}`, []string{"image http://cdn.test/stored.png"}},
		{"data images kept", `a{b:url(data:image/gif;base64,R0lG)}i{b:url("data:text/html,x")}`,
			`a{b:url("data:image/gif;base64,R0lG")}i{b:none}`, nil},
		{"charset dropped", `@charset "utf-8";a{}`, `a{}`, nil},
		{"cannot end the style element", `a{content:"</style><script>x</script>"}</style><b>`,
			`a{content:"\3c /style>\3c script>x\3c /script>"}\3c /style>\3c b>`, nil},
		{"escaped angle", `a\<b{}`, `a\3c b{}`, nil},
		{"src function", `a{b:src("stored.png")}`, `a{b:url("data:image/png;base64,QQ==")}`,
			[]string{"image http://example.test/css/stored.png"}},
		{"unterminated", `a{b:url(stored.png`, `a{b:url("data:image/png;base64,QQ==")`,
			[]string{"image http://example.test/css/stored.png"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &stored{}
			got := RewriteCSS([]byte(tc.in), cssBase, CSSRewrite{Asset: s.asset})
			if got != tc.want {
				t.Errorf("RewriteCSS(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
			if strings.Join(s.asked, "|") != strings.Join(tc.asked, "|") {
				t.Errorf("asked %q, want %q", s.asked, tc.asked)
			}
		})
	}
}

func TestRewriteCSSImports(t *testing.T) {
	var imports []string
	imp := func(u *url.URL, media string) string {
		imports = append(imports, u.String()+" ["+media+"]")
		if strings.Contains(u.Path, "stored") {
			return "b{c:d}"
		}
		return ""
	}
	in := `@import "stored.css" screen;@import url(other.css);@import url("stored2.css") layer(x);a{}@import "late.css";`
	got := RewriteCSS([]byte(in), cssBase, CSSRewrite{Import: imp})
	if want := `b{c:d}a{}`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	want := []string{"http://example.test/css/stored.css [screen]", "http://example.test/css/other.css []",
		"http://example.test/css/late.css []"}
	if strings.Join(imports, "|") != strings.Join(want, "|") {
		t.Errorf("imports %q, want %q", imports, want)
	}
	// Inside a block an @import is not one: it is copied (and does nothing).
	if got := RewriteCSS([]byte(`@media print{@import "x.css";}`), cssBase, CSSRewrite{Import: imp}); got != `@media print{@import "x.css";}` {
		t.Errorf("nested import: %q", got)
	}
}

func TestCSSRefs(t *testing.T) {
	refs := CSSRefs([]byte(`@import "a.css";@font-face{src:url(f.woff)}p{background:url(i.png)}q{background:url(i.png)}`), cssBase)
	var got []string
	for _, r := range refs {
		got = append(got, r.Kind.String()+" "+r.URL.String())
	}
	want := []string{"stylesheet http://example.test/css/a.css", "font http://example.test/css/f.woff", "image http://example.test/css/i.png"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("CSSRefs = %q, want %q", got, want)
	}
}

// FuzzRewriteCSS checks, whatever the style sheet: no '<' comes out; every reference that
// comes out is one the caller gave (a second pass over the output finds nothing to ask
// about); and the rewriting does not grow the text beyond its answers.
func FuzzRewriteCSS(f *testing.F) {
	for _, s := range []string{
		`body{background:url(stored.png)}`, `@import "a.css";`, `\75 rl(x)`, `a{b:url("x`, `@font-face{src:url(x)}`,
		`image-set("a" 1x)`, `</style><script>`, `u\rl(stored.png)`, `url(\)`, `@import url(x) screen`, `"\` + "\n" + `"`,
		`/* x`, `a{b:src('stored')}`, `@charset "x"`, `url(data:image/png,<svg>)`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		calls := 0
		asset := func(u *url.URL, k AssetKind) string {
			calls++
			if calls%2 == 0 {
				return "data:image/png;base64,QQ=="
			}
			return ""
		}
		imp := func(u *url.URL, media string) string { return "i{x:y}" }
		out := RewriteCSS([]byte(in), cssBase, CSSRewrite{Asset: asset, Import: imp})
		if strings.Contains(out, "<") {
			t.Fatalf("'<' in the output: %q -> %q", in, out)
		}
		if len(out) > 8*len(in)+64 {
			t.Fatalf("output of %d bytes from %d", len(out), len(in))
		}
		again := RewriteCSS([]byte(out), cssBase, CSSRewrite{
			Asset:  func(u *url.URL, k AssetKind) string { t.Fatalf("%q -> %q names %s", in, out, u); return "" },
			Import: func(u *url.URL, _ string) string { t.Fatalf("%q -> %q imports %s", in, out, u); return "" },
		})
		if strings.Contains(again, "<") {
			t.Fatalf("'<' in the second output: %q", again)
		}
	})
}

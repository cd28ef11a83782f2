package sanitize

import (
	"net/url"
	"strings"
	"testing"
)

var base, _ = url.Parse("http://example.test/dir/page.html")

func TestHTMLRemovesEverythingActive(t *testing.T) {
	hostile := `<html><head><base href="http://other.test/b/"><script>alert(1)</script>
	<link rel=stylesheet href="http://evil.test/x.css"><meta http-equiv=refresh content="0;url=http://evil.test/">
	<style>body{background:url(http://evil.test/track)}</style></head>
	<body onload="alert(2)"><h1 onclick="alert(3)">Title</h1>
	<p>Text <a href="rel/link">relative</a> <a href="javascript:alert(4)">js</a> <a href="data:text/html,x">data</a>
	<a href="https://ok.test/">ok</a></p>
	<img src="http://evil.test/pixel.gif" onerror="alert(5)" alt="pixel">
	<iframe src="http://evil.test/"></iframe><form action="http://evil.test/"><input name=q></form>
	<svg><script>alert(6)</script></svg><object data="x"></object><embed src="x">
	<p style="background:url(http://evil.test/)">styled</p><a href="  HTTPS://OK.TEST/Two ">two</a>
	<math><mtext><table><mglyph><style><img src=x onerror=alert(7)></style></mglyph></table></mtext></math>
	</body></html>`
	out := HTML([]byte(hostile), base, `<script>t</script>`)
	for _, bad := range []string{"<script", "onload", "onclick", "onerror", "javascript:", "data:text", "<iframe",
		"<form", "<input", "<img", "<svg", "<object", "<embed", "evil.test", "style=\"", "<link", "http-equiv=\"refresh", "<math"} {
		if strings.Contains(strings.ToLower(out), strings.ToLower(bad)) {
			t.Errorf("sanitised document contains %q:\n%s", bad, out)
		}
	}
	for _, good := range []string{"<h1>Title</h1>", `href="http://other.test/b/rel/link"`, `href="https://ok.test/"`,
		"&lt;script&gt;t&lt;/script&gt;", "Content-Security-Policy", `target="_blank"`, "styled"} {
		if !strings.Contains(out, good) {
			t.Errorf("sanitised document lacks %q:\n%s", good, out)
		}
	}
}

func FuzzHTML(f *testing.F) {
	for _, s := range []string{"<p>x</p>", "<a href=x>y</a>", "<script>", "<<a href='", "<base href=//x>", "\x00<p>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := strings.ToLower(HTML([]byte(s), base, s))
		// Only the sanitiser's own <style> and CSP: no script element, no handler attribute.
		if strings.Contains(out, "<script") || strings.Contains(out, "<iframe") || strings.Contains(out, " onerror=") ||
			strings.Contains(out, "href=\"javascript:") || strings.Contains(out, "<img") {
			t.Fatalf("active content survived: %q -> %q", s, out)
		}
	})
}

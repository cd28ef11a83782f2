package sanitize

import (
	"net/url"
	"strings"
	"testing"
)

func TestCaptureKeepsStructureLinksAndImagesOnly(t *testing.T) {
	base, _ := url.Parse("https://app.example/inbox/42")
	dom := `<html><head><base href="https://cdn.example/b/"><title>x</title><style>p{}</style></head>
<body onload="go()"><main id="m"><h2 id="s1">Section</h2><p>Text <a href="../other" onclick="x()">rel</a>
<a href="javascript:alert(1)">js</a> <a href="mailto:a@b.example">mail</a></p>
<img src="pic.png" alt="Pic" width="10" height="x" onerror="pwn()" srcset="big.png 2x">
<img src="data:image/png;base64,AAAA"><form><input value="secret"></form><object data="x.swf"></object>
<select><option>choice text</option></select><textarea>draft text</textarea></main></body></html>`
	out := string(Capture([]byte(dom), base, `T <i>&</i>`))
	for _, bad := range []string{"onload", "onclick", "onerror", "javascript:", "mailto:", "<form", "secret", "<object",
		"choice text", "draft text", "<style", "srcset", "data:image", `height="x"`, "<base"} {
		if strings.Contains(out, bad) {
			t.Errorf("kept %q:\n%s", bad, out)
		}
	}
	for _, good := range []string{"<title>T &lt;i&gt;&amp;&lt;/i&gt;</title>", `<main id="m">`, `<h2 id="s1">Section</h2>`,
		`href="https://cdn.example/other"`, `src="https://cdn.example/b/pic.png"`, `alt="Pic"`, `width="10"`, `<meta charset="utf-8">`} {
		if !strings.Contains(out, good) {
			t.Errorf("lacks %q:\n%s", good, out)
		}
	}
	// What is stored is shown through HTML's policy like any fetched page: still safe.
	shown := HTML([]byte(out), base, "T")
	if strings.Contains(shown, "<img") || strings.Contains(shown, "<script") {
		t.Errorf("shown:\n%s", shown)
	}
}

func FuzzCapture(f *testing.F) {
	for _, s := range []string{"<p>x</p>", "<a href=x>y</a>", "<img src=x onerror=y>", "<<a href='", "<base href=//x>",
		"<svg><script>x</script></svg>", "<template><img src=x></template>", "\x00<p>", "<a href=\"java\tscript:x\">"} {
		f.Add(s)
	}
	base, _ := url.Parse("https://page.example/a/b")
	f.Fuzz(func(t *testing.T, s string) {
		out := strings.ToLower(string(Capture([]byte(s), base, s)))
		if strings.Contains(out, "<script") || strings.Contains(out, "<iframe") || strings.Contains(out, "<style") ||
			strings.Contains(out, " on") && strings.Contains(out, "=\"") && hasHandler(out) ||
			strings.Contains(out, "javascript:") || strings.Contains(out, "<form") || strings.Contains(out, "<object") {
			t.Fatalf("active content survived: %q -> %q", s, out)
		}
	})
}

// hasHandler reports an attribute named on... inside a tag.
func hasHandler(s string) bool {
	inTag := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<':
			inTag = true
		case '>':
			inTag = false
		case ' ':
			if inTag && strings.HasPrefix(s[i+1:], "on") {
				j := i + 3
				for j < len(s) && s[j] >= 'a' && s[j] <= 'z' {
					j++
				}
				if j < len(s) && s[j] == '=' {
					return true
				}
			}
		}
	}
	return false
}

package render

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzDetect: any bytes and any URL give a verdict, never a panic; a verdict is a shell
// exactly when it names a signal (with words); a page without "<script" is never one; the
// figures are within what the input could hold.
func FuzzDetect(f *testing.F) {
	for _, s := range []string{
		"", "<", "<script", "<script>", "<SCRIPT src=x>", `<div id="root"></div><script src=a.js></script>`,
		`<noscript><p>on</p></noscript><script>x()</script>`, `<script>"/a" "/b" 'http://x/y'</script>`,
		`<app-root><app-root></app-root></app-root><script src=a></script>`, "<script>\"", "<a href=x><script src=a>",
		"<div id=root><div id=app></div></div></div></div><script src=s></script>", "<template><script>x</script></template><div id=root>",
		"<noscript><noscript></noscript></noscript><script src=a>", "\xff\xfe<\x00s\x00c\x00r\x00i\x00p\x00t\x00>",
	} {
		f.Add([]byte(s), "http://h/#!/x")
		f.Add([]byte(s), "")
	}
	f.Fuzz(func(t *testing.T, body []byte, u string) {
		v := Detect(body, u)
		if v.Shell != (v.Signal != "") {
			t.Fatalf("shell %v with signal %q", v.Shell, v.Signal)
		}
		if v.Shell && (v.Detail == "" || !utf8.ValidString(v.Detail) && !strings.Contains(string(body), v.Detail)) {
			t.Fatalf("a shell without a readable detail: %q", v.Detail)
		}
		if !bytes.Contains(bytes.ToLower(body), []byte("<script")) && (v.Shell || v.Scripts > 0) {
			t.Fatalf("a page without a script tag judged a shell: %+v", v)
		}
		if v.Scripts < 0 || v.Text < 0 || v.Text > len(body) || v.Scripts > len(body) {
			t.Fatalf("figures out of range for %d bytes: %+v", len(body), v)
		}
	})
}

package library_test

import (
	"strings"
	"testing"

	"mundaneum/backend/library"
)

// Issue 28, item 12: a report's search hit shows its words, not its Markdown.
func TestMarkdownText(t *testing.T) {
	for _, tc := range []struct{ md, want string }{
		{"One fact per card, **filed** by the _UDC_.", "One fact per card, filed by the UDC."},
		{"# The cards\n\nSee [the index](https://a.example/) and <https://b.example/>.", "The cards\nSee the index and https://b.example/."},
		{"- one\n- two `code`\n\n> quoted", "one\ntwo code\nquoted"},
		{"text <script>alert(1)</script> more\n\n<div onclick=x>block</div>\n\nafter", "text alert(1) more\nafter"},
		{"| a | b |\n|---|---|\n| c | d |", "a b\nc d"},
		{"```\nfmt.Println(1)\n```", "fmt.Println(1)"},
	} {
		got := library.MarkdownText(tc.md)
		if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(tc.want), " ") || strings.ContainsAny(got, "*#[]`<>") && !strings.Contains(tc.want, "<") {
			t.Errorf("MarkdownText(%q) = %q, want %q", tc.md, got, tc.want)
		}
	}
}

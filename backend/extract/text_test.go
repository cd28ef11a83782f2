package extract

import (
	"slices"
	"strings"
	"testing"
)

func TestTextBufCapsAtRuneBoundary(t *testing.T) {
	var tb textBuf
	tb.reset(7)
	tb.write([]byte("ab  €€€"))
	if got := tb.String(); got != "ab €" {
		t.Errorf("got %q", got)
	}
	tb.reset(100)
	tb.write([]byte("  lead\u00a0\u00a0nbsp\t\n trail  "))
	tb.write([]byte("more"))
	if got := tb.String(); got != "lead nbsp trail more" {
		t.Errorf("got %q", got)
	}
}

func TestSplitSrcset(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"a.jpg", []string{"a.jpg"}},
		{"a.jpg 1x, b.jpg 2x", []string{"a.jpg", "b.jpg"}},
		{"a.jpg,b.jpg", []string{"a.jpg,b.jpg"}}, // no space: one URL with a comma
		{"a.jpg, b.jpg", []string{"a.jpg", "b.jpg"}},
		{"  a.jpg 100w,\n  b.jpg   200w  ", []string{"a.jpg", "b.jpg"}},
		{"a.jpg (max-width: 1px, 2px) 1x, b.jpg", []string{"a.jpg", "b.jpg"}},
		{"img,with,commas.jpg 1x", []string{"img,with,commas.jpg"}},
		{", , ,", nil},
		{"", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range splitSrcset([]byte(tt.in), nil) {
			got = append(got, string(c))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("splitSrcset(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestText(t *testing.T) {
	body := []byte("Plain text.\n\nSee http://example.com/a.txt, and (https://Example.org/b_(c)) or\n" +
		"<http://example.net/q?x=1&y=2>. Not xhttp://no.example/ nor http:// alone. HTTPS://UPPER.example/Z. " +
		"Again http://example.com/a.txt\n")
	s := Text(body, mustURL(t, "http://example.com/readme.txt"))
	if s.Title != "" || len(s.Problems) != 0 {
		t.Errorf("Title %q Problems %q", s.Title, s.Problems)
	}
	if !strings.HasPrefix(s.Text, "Plain text. See http://example.com/a.txt, and") {
		t.Errorf("Text = %q", s.Text)
	}
	checkLinks(t, s.Links, []Link{
		{URL: "http://example.com/a.txt", Kind: KindText},
		{URL: "https://Example.org/b_(c)", Kind: KindText}, // not normalised here
		{URL: "http://example.net/q?x=1&y=2", Kind: KindText},
		{URL: "https://UPPER.example/Z", Kind: KindText},
	})
}

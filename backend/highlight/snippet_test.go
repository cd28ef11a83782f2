package highlight

import (
	"math/rand/v2"
	"mundaneum/backend/query"

	"mundaneum/backend/tokenize"
	"strings"
	"testing"
)

// refSpans is the obvious tokenizer tokenSpans must agree with: runs of the characters
// unicode61 makes tokens (tokenize.IsTokenRune, derived from SQLite's own tables and
// fuzzed against FTS5 in backend/pairs).
func refSpans(text string, h *Highlighter) []Span {
	var out []Span
	var idx [][2]int
	start := -1
	for i, r := range text {
		switch {
		case tokenize.IsTokenRune(r) && start < 0:
			start = i
		case !tokenize.IsTokenRune(r) && start >= 0:
			idx = append(idx, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		idx = append(idx, [2]int{start, len(text)})
	}
	for _, m := range idx {
		k := tokenize.Fold(text[m[0]:m[1]])
		sp := Span{Start: m[0], End: m[1]}
		if h.Match(k) {
			sp.Hit, sp.Key = true, k
		}
		out = append(out, sp)
	}
	return out
}

func testHighlighter() *Highlighter {
	return &Highlighter{exact: map[string]bool{"cafe": true, "otlet": true, "x2": true, "εργο": true}, prefixes: []string{"mund"}}
}

func checkSpans(t *testing.T, text string) {
	t.Helper()
	h := testHighlighter()
	got, want := h.Spans(text), refSpans(text, h)
	if len(got) != len(want) {
		t.Fatalf("%q: %d tokens, want %d:\n got %v\nwant %v", text, len(got), len(want), got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%q: token %d = %+v, want %+v", text, i, got[i], want[i])
		}
	}
}

func TestTokenSpansAgreeWithUnicode61Words(t *testing.T) {
	for _, text := range []string{
		"", "   ", "Otlet", "Paul OTLET's Mundaneum, 1934.", "café Café CAFÉ cafe", "x2 X2 x2y",
		"naïve—dash…ellipsis", "Έργο του Otlet", "日本語のテキスト otlet", "a\u00a0b\u2003c", "tab\tnew\nline",
		strings.Repeat("a", 70) + " otlet " + strings.Repeat("B", 64), "\uE000private\uE001 otlet",
		"broken \xff\xfe utf8 otlet", "otlet\u0301 combining", "mundaneum Mundanéum",
	} {
		checkSpans(t, text)
	}
	// Random mixtures of the awkward cases.
	parts := []string{"otlet", "Otlet", "café", " ", ".", "—", "ÉRGO", "x2", "\xff", "日本", "\u00a0", "a", "Z9", "\u0301", "mundane"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		checkSpans(t, b.String())
	}
}

func FuzzTokenSpans(f *testing.F) {
	for _, s := range []string{"Paul Otlet's café", "日本 otlet\xff", strings.Repeat("x", 80)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		checkSpans(t, text)
	})
}

// BenchmarkMakeSnippet cuts a snippet from a 3 KB body, as a result page does 20 times.
func BenchmarkMakeSnippet(b *testing.B) {
	words := strings.Fields("the of and documentation universal bibliographic classification index card " +
		"Otlet Mundaneum Brussels knowledge network Palais Mondial repertory decimal")
	rng := rand.New(rand.NewPCG(3, 4))
	var body strings.Builder
	for body.Len() < 3000 {
		w := words[rng.IntN(len(words))]
		if rng.IntN(12) == 0 {
			w = strings.ToUpper(w[:1]) + w[1:] + "."
		}
		body.WriteString(w + " ")
	}
	h := New(query.Parse("repertory brussels").Root, DefaultForms, nil)
	cols := []string{body.String(), "anchor text", "", "Title", "https://example.org/a"}
	b.ReportAllocs()
	for b.Loop() {
		if len(h.Snippet(cols)) == 0 {
			b.Fatal("no snippet")
		}
	}
}

// TestBodySnippet: whenever bodySnippet gives a snippet, it is the one makeSnippet cuts
// from all the columns, whatever the others hold; when it does not, the body alone could
// not give it.
func TestBodySnippet(t *testing.T) {
	anchors := "a Mundaneum card | Otlet"
	for _, h := range []*Highlighter{testHighlighter(), {exact: map[string]bool{}}} {
		for _, body := range []string{
			"", "   ", "nothing to see here", "the Mundaneum of Paul Otlet, a café",
			strings.Repeat("filler words ", 40) + "otlet " + strings.Repeat("more filler ", 40),
		} {
			cols := []string{body, anchors, "Heading", "Title", "https://example.org/a"}
			snip, ok := h.BodySnippet(body)
			want := h.Snippet(cols)
			switch {
			case ok && strings.Join(snip, "|") != strings.Join(want, "|"):
				t.Errorf("%q (empty query %v): %q, makeSnippet %q", body, h.Empty(), snip, want)
			case !ok && strings.Join(h.Snippet([]string{body, "", "", "", ""}), "|") == strings.Join(want, "|") && strings.TrimSpace(body) != "" && !h.Empty():
				t.Errorf("%q: not given from the body, yet the body alone gives %q", body, want)
			}
		}
	}
}

package history

import (
	"strings"
	"time"
	"unicode"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// OpKind is what a piece of a diff is.
type OpKind string

// Kinds of diff piece.
const (
	Same    OpKind = "="
	Added   OpKind = "+"
	Removed OpKind = "-"
)

// Op is one piece of a diff: text both versions have, or text only the newer (Added) or
// only the older (Removed) has.
type Op struct {
	Kind OpKind `json:"kind"`
	Text string `json:"text"`
}

// diffTimeout bounds the work of one diff: past it the diff is coarser, never wrong.
const diffTimeout = 2 * time.Second

// maxTokens bounds the distinct words and spaces a diff maps to runes (a rune per token).
const maxTokens = 0x10FFFF - 0x800 - 1

// Diff compares two texts word by word: the result's Same and Removed pieces spell a, its
// Same and Added pieces spell b. It uses diff-match-patch (github.com/sergi/go-diff) on the
// texts' words, each mapped to one rune, and its semantic clean-up, so that a changed phrase
// reads as the old phrase removed and the new one added rather than a shuffle of words.
func Diff(a, b string) []Op {
	if a == b {
		if a == "" {
			return nil
		}
		return []Op{{Same, a}}
	}
	tokens := map[string]rune{}
	var words []string
	encode := func(s string) ([]rune, bool) {
		var out []rune
		for _, t := range tokenize(s) {
			r, ok := tokens[t]
			if !ok {
				if len(words) >= maxTokens {
					return nil, false
				}
				r = tokenRune(len(words))
				tokens[t] = r
				words = append(words, t)
			}
			out = append(out, r)
		}
		return out, true
	}
	ra, okA := encode(a)
	rb, okB := encode(b)
	if !okA || !okB {
		return merge([]Op{{Removed, a}, {Added, b}})
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = diffTimeout
	diffs := dmp.DiffCleanupSemantic(dmp.DiffMainRunes(ra, rb, false))
	ops := make([]Op, 0, len(diffs))
	var sb strings.Builder
	for _, d := range diffs {
		sb.Reset()
		for _, r := range d.Text {
			sb.WriteString(words[runeToken(r)])
		}
		kind := Same
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			kind = Added
		case diffmatchpatch.DiffDelete:
			kind = Removed
		}
		ops = append(ops, Op{kind, sb.String()})
	}
	return merge(ops)
}

// tokenRune maps the i-th distinct token to a valid rune (skipping the surrogates, which
// a Go string cannot hold).
func tokenRune(i int) rune {
	r := rune(i + 1)
	if r >= 0xD800 {
		r += 0x800
	}
	return r
}

func runeToken(r rune) int {
	if r >= 0xE000 {
		r -= 0x800
	}
	return int(r) - 1
}

// tokenize splits text into words and the runs of space and punctuation between them, so
// that joining the tokens gives the text back.
func tokenize(s string) []string {
	var out []string
	start := 0
	class := -1
	for i, r := range s {
		c := 0
		switch {
		case unicode.IsSpace(r):
			c = 1
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’' || r == '-' || r == '_':
			c = 2
		default:
			c = 3 // punctuation: a token per rune
		}
		if i > start && (c != class || c == 3) {
			out = append(out, s[start:i])
			start = i
		}
		class = c
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// merge joins neighbouring pieces of a kind, drops empty ones, and puts a removal before
// the addition that replaces it.
func merge(ops []Op) []Op {
	out := ops[:0:0]
	for _, o := range ops {
		if o.Text == "" {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Kind == o.Kind {
			out[n-1].Text += o.Text
			continue
		}
		if n := len(out); n > 0 && out[n-1].Kind == Added && o.Kind == Removed {
			if n > 1 && out[n-2].Kind == Removed {
				out[n-2].Text += o.Text
				continue
			}
			out = append(out[:n-1], o, out[n-1])
			continue
		}
		out = append(out, o)
	}
	return out
}

// Counts tells how many words a diff adds and removes.
func Counts(ops []Op) (added, removed int) {
	for _, o := range ops {
		n := 0
		for _, t := range tokenize(o.Text) {
			if r := []rune(t); len(r) > 0 && (unicode.IsLetter(r[0]) || unicode.IsDigit(r[0])) {
				n++
			}
		}
		switch o.Kind {
		case Added:
			added += n
		case Removed:
			removed += n
		}
	}
	return added, removed
}

// Hunks cuts a diff down to its changes with up to context words of unchanged text around
// each (the rest of the unchanged text becomes "…"), for a terminal or a summary.
func Hunks(ops []Op, context int) []Op {
	out := make([]Op, 0, len(ops))
	for i, o := range ops {
		if o.Kind != Same {
			out = append(out, o)
			continue
		}
		toks := tokenize(o.Text)
		first, last := i == 0, i == len(ops)-1
		keepHead, keepTail := context*2, context*2 // words and the spaces between them
		if first {
			keepHead = 0
		}
		if last {
			keepTail = 0
		}
		if len(toks) <= keepHead+keepTail+1 {
			out = append(out, o)
			continue
		}
		var b strings.Builder
		if !first {
			b.WriteString(strings.Join(toks[:keepHead], ""))
		}
		b.WriteString("…")
		if !last {
			b.WriteString(strings.Join(toks[len(toks)-keepTail:], ""))
		}
		out = append(out, Op{Same, b.String()})
	}
	return out
}

package search

import (
	"mundaneum/backend/query"
	"mundaneum/backend/tokenize"
	"mundaneum/backend/vocab"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Snippets are made here rather than by FTS5's snippet(): snippet() re-reads the whole
// doclist of every query term for each row it is called on, which costs milliseconds per
// result for a common word. The stored text of the page's columns is tokenised like
// unicode61 does (letters, numbers and private-use characters; case and diacritics
// folded), the window of snippetTokens tokens holding the most distinct query words is
// chosen, and it is returned as alternating plain and matched fragments, plain first. The
// fragments are cut from the page's text by position, so page text cannot forge a match.

const (
	snippetTokens  = 24      // tokens in a snippet window
	maxSnippetScan = 200_000 // bytes of a column scanned for matches
)

// highlighter recognises the tokens a query matches.
type highlighter struct {
	exact    map[string]bool
	prefixes []string
	approx   []approxWord
	mu       sync.Mutex      // guards near (a highlighter may be shared)
	near     map[string]bool // tokens already compared with the approximate words
}

// maxNear bounds the tokens a highlighter remembers the approximate words' verdict on: a
// text's tokens repeat, and an edit distance costs far more than a map look-up.
const maxNear = 50_000

// approxWord is a word~N of the query: tokens within N edits of it are highlighted.
type approxWord struct {
	w []rune
	d int
}

// newHighlighter collects the positive words of a query (with their stem forms, as the
// compiler expands them). An approximate word whose terms expand holds (the terms the query
// was asked with) highlights those; without them, every token within its distance.
func newHighlighter(root query.Node, w Weights, expand vocab.Expansions) *highlighter {
	h := &highlighter{exact: map[string]bool{}}
	addText := func(t *query.Text) {
		for i, word := range t.Words {
			f := fold(word)
			if t.Fuzzy > 0 {
				if terms, ok := expand.Approx(strings.ToLower(word), t.Fuzzy); ok && len(t.Words) == 1 {
					for _, term := range terms {
						h.exact[fold(term)] = true
					}
				} else {
					h.approx = append(h.approx, approxWord{[]rune(f), t.Fuzzy})
				}
			}
			if t.Prefix && i == len(t.Words)-1 {
				h.prefixes = append(h.prefixes, f)
				continue
			}
			h.exact[f] = true
			if !t.Phrase && w.Stem && t.Field != query.FieldURL {
				for _, v := range stemForms(f, w.MaxVariants) {
					h.exact[v] = true
				}
			}
		}
	}
	if root != nil {
		query.Walk(root, false, func(n query.Node, negated bool) {
			if negated {
				return
			}
			switch x := n.(type) {
			case *query.Text:
				addText(x)
			case *query.Near:
				for i := range x.Groups {
					g := x.Groups[i]
					g.Phrase = true
					addText(&g)
				}
			}
		})
	}
	return h
}

func (h *highlighter) empty() bool {
	return len(h.exact) == 0 && len(h.prefixes) == 0 && len(h.approx) == 0
}

func (h *highlighter) match(tok string) bool {
	if h.exact[tok] {
		return true
	}
	for _, p := range h.prefixes {
		if strings.HasPrefix(tok, p) {
			return true
		}
	}
	if len(h.approx) == 0 {
		return false
	}
	h.mu.Lock()
	hit, known := h.near[tok]
	h.mu.Unlock()
	if known {
		return hit
	}
	n := utf8.RuneCountInString(tok)
	for _, a := range h.approx {
		if max(n-len(a.w), len(a.w)-n) <= a.d && vocab.Distance(a.w, []rune(tok), a.d) <= a.d {
			hit = true
			break
		}
	}
	h.mu.Lock()
	if h.near == nil {
		h.near = map[string]bool{}
	}
	if len(h.near) < maxNear {
		h.near[tok] = hit
	}
	h.mu.Unlock()
	return hit
}

// fold lower-cases s and strips diacritics, as the index's tokenizer does (one tokenizer:
// backend/tokenize).
func fold(s string) string { return tokenize.Fold(s) }

type span struct {
	start, end int // byte offsets in the text
	hit        bool
	key        string
}

// tokenSpans splits text like the unicode61 tokenizer and marks the tokens h matches. Plain
// ASCII words, nearly all of them, are folded into a buffer and looked up without
// allocating; only matched words keep their key.
func tokenSpans(text string, h *highlighter) []span {
	if len(text) > maxSnippetScan {
		text = text[:maxSnippetScan]
	}
	out := make([]span, 0, len(text)/6+1)
	var buf [64]byte
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf && !isWordByte(c) {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			j := i + 1
			for j < len(text) && isWordByte(text[j]) {
				j++
			}
			if (j == len(text) || text[j] < utf8.RuneSelf) && j-i <= len(buf) {
				w := buf[:j-i]
				for k := range w {
					w[k] = lowerASCII(text[i+k])
				}
				sp := span{start: i, end: j}
				if h.match(string(w)) {
					sp.hit, sp.key = true, string(w)
				}
				out = append(out, sp)
				i = j
				continue
			}
		}
		// A word with other characters: decode it rune by rune.
		j := i
		for j < len(text) {
			r, n := utf8.DecodeRuneInString(text[j:])
			if !tokenize.IsTokenRune(r) {
				break
			}
			j += n
		}
		if j == i { // a separator outside ASCII
			_, n := utf8.DecodeRuneInString(text[i:])
			i += n
			continue
		}
		k := fold(text[i:j])
		sp := span{start: i, end: j}
		if h.match(k) {
			sp.hit, sp.key = true, k
		}
		out = append(out, sp)
		i = j
	}
	return out
}

// bestWindow returns the window of n tokens with the most distinct matched words (then the
// most matches), and its score (0: no match).
func bestWindow(spans []span, n int) (from, to, score int) {
	to = min(n, len(spans))
	checked := 0
	var distinct []string
	for i, s := range spans {
		if !s.hit {
			continue
		}
		if checked++; checked > 2000 {
			break
		}
		a := max(0, i-3)
		b := min(len(spans), a+n)
		distinct = distinct[:0]
		hits := 0
		for _, t := range spans[a:b] {
			if t.hit {
				if !slices.Contains(distinct, t.key) {
					distinct = append(distinct, t.key)
				}
				hits++
			}
		}
		if sc := len(distinct)*1000 + hits; sc > score {
			from, to, score = a, b, sc
		}
	}
	return from, to, score
}

// makeSnippet cuts the snippet from the body when it matches, else from the column whose
// best window matches most; with no match anywhere it shows the start of the first
// non-empty column.
func makeSnippet(cols []string, h *highlighter) []string {
	bestCol, bestScore := -1, 0
	var bestSpans []span
	var bf, bt int
	for i, c := range cols {
		if h.empty() {
			break
		}
		spans := tokenSpans(c, h)
		if f, t, sc := bestWindow(spans, snippetTokens); sc > bestScore {
			bestCol, bestScore, bestSpans, bf, bt = i, sc, spans, f, t
		}
		if bestScore > 0 && i == 0 {
			break // the body matches: no need to read the rest
		}
	}
	if bestCol < 0 {
		for i, c := range cols {
			if strings.TrimSpace(c) != "" {
				bestCol = i
				bestSpans = tokenSpans(c, &highlighter{})
				bf, bt = 0, min(snippetTokens, len(bestSpans))
				break
			}
		}
	}
	if bestCol < 0 || bt <= bf {
		return nil
	}
	return cutSnippet(cols[bestCol], bestSpans, bf, bt)
}

// bodySnippet is makeSnippet of a page whose other columns are not read yet: the snippet
// when the body gives it whatever they hold (the body holds a query word, or the query has
// none and the body is not blank), else ok false.
func bodySnippet(body string, h *highlighter) (snippet []string, ok bool) {
	if h.empty() {
		if strings.TrimSpace(body) == "" {
			return nil, false
		}
		return makeSnippet([]string{body}, h), true
	}
	spans := tokenSpans(body, h)
	f, t, sc := bestWindow(spans, snippetTokens)
	if sc == 0 {
		return nil, false
	}
	return cutSnippet(body, spans, f, t), true
}

// cutSnippet cuts the window bf..bt of text's spans, as alternating plain and matched
// fragments, plain first.
func cutSnippet(text string, bestSpans []span, bf, bt int) []string {
	spans := bestSpans[bf:bt]
	var out []string
	plain := strings.Builder{}
	if bf > 0 {
		plain.WriteString("…")
	}
	pos := spans[0].start
	for _, s := range spans {
		if !s.hit {
			continue
		}
		plain.WriteString(squeeze(text[pos:s.start]))
		out = append(out, plain.String(), text[s.start:s.end])
		plain.Reset()
		pos = s.end
	}
	plain.WriteString(squeeze(text[pos:spans[len(spans)-1].end]))
	if bt < len(bestSpans) || len(text) > maxSnippetScan {
		plain.WriteString("…")
	}
	return append(out, plain.String())
}

// squeeze collapses runs of white space (and control characters) into single spaces.
func squeeze(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}

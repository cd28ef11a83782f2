// Package highlight finds a query's words in text as the index matches them: each word with
// its stem forms (Forms, which the compiler asks too), prefixes, and approximate words (the
// terms the vocabulary expanded them to, or any token within their distance), the text cut
// into tokens and folded as FTS5's tokenizer does (backend/tokenize). Search cuts its
// snippets with it, counts the query's words in titles and URLs to rank, and looks for them
// side by side in a page's text; the query-directed crawl scores links with it (Matcher).
package highlight

import (
	"mundaneum/backend/query"
	"mundaneum/backend/tokenize"
	"mundaneum/backend/vocab"
	"strings"
	"sync"
	"unicode/utf8"
)

// Highlighter recognises the tokens a query matches.
type Highlighter struct {
	exact    map[string]bool
	prefixes []string
	approx   []approxWord
	mu       sync.Mutex      // guards near (a Highlighter may be shared)
	near     map[string]bool // tokens already compared with the approximate words
}

// maxNear bounds the tokens a Highlighter remembers the approximate words' verdict on: a
// text's tokens repeat, and an edit distance costs far more than a map look-up.
const maxNear = 50_000

// approxWord is a word~N of the query: tokens within N edits of it are highlighted.
type approxWord struct {
	w []rune
	d int
}

// New collects the positive words of a query, each with up to forms of its stem forms (see
// Forms; 0: none), as the compiler asks them. An approximate word whose terms expand holds
// (the terms the query was asked with) highlights those; without them, every token within
// its distance.
func New(root query.Node, forms int, expand vocab.Expansions) *Highlighter {
	h := &Highlighter{exact: map[string]bool{}}
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
			if !t.Phrase && t.Field != query.FieldURL {
				for _, v := range Forms(f, forms) {
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

// Empty reports whether the query has no word to highlight.
func (h *Highlighter) Empty() bool {
	return len(h.exact) == 0 && len(h.prefixes) == 0 && len(h.approx) == 0
}

// Match reports whether a token (folded, as Spans keys it) is one the query matches.
func (h *Highlighter) Match(tok string) bool {
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

// Span is one token of a text.
type Span struct {
	Start, End int    // byte offsets in the text
	Hit        bool   // the query matches it
	Key        string // the folded token, when Hit
}

// Spans splits text (its first maxSnippetScan bytes) like the unicode61 tokenizer and marks
// the tokens h matches. Plain ASCII words, nearly all of them, are folded into a buffer and
// looked up without allocating; only matched words keep their key.
func (h *Highlighter) Spans(text string) []Span {
	if len(text) > maxSnippetScan {
		text = text[:maxSnippetScan]
	}
	out := make([]Span, 0, len(text)/6+1)
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
				sp := Span{Start: i, End: j}
				if h.Match(string(w)) {
					sp.Hit, sp.Key = true, string(w)
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
		sp := Span{Start: i, End: j}
		if h.Match(k) {
			sp.Hit, sp.Key = true, k
		}
		out = append(out, sp)
		i = j
	}
	return out
}

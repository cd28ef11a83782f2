package highlight

import (
	"slices"
	"strings"
	"unicode"
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

// bestWindow returns the window of n tokens with the most distinct matched words (then the
// most matches), and its score (0: no match).
func bestWindow(spans []Span, n int) (from, to, score int) {
	to = min(n, len(spans))
	checked := 0
	var distinct []string
	for i, s := range spans {
		if !s.Hit {
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
			if t.Hit {
				if !slices.Contains(distinct, t.Key) {
					distinct = append(distinct, t.Key)
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

// Snippet cuts the snippet of a page from its columns (the body first): from the body when
// it matches, else from the column whose best window matches most; with no match anywhere
// it shows the start of the first non-empty column.
func (h *Highlighter) Snippet(cols []string) []string {
	bestCol, bestScore := -1, 0
	var bestSpans []Span
	var bf, bt int
	for i, c := range cols {
		if h.Empty() {
			break
		}
		spans := h.Spans(c)
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
				bestSpans = (&Highlighter{}).Spans(c)
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

// BodySnippet is Snippet of a page whose other columns are not read yet: the snippet when
// the body gives it whatever they hold (the body holds a query word, or the query has none
// and the body is not blank), else ok false.
func (h *Highlighter) BodySnippet(body string) (snippet []string, ok bool) {
	if h.Empty() {
		if strings.TrimSpace(body) == "" {
			return nil, false
		}
		return h.Snippet([]string{body}), true
	}
	spans := h.Spans(body)
	f, t, sc := bestWindow(spans, snippetTokens)
	if sc == 0 {
		return nil, false
	}
	return cutSnippet(body, spans, f, t), true
}

// cutSnippet cuts the window bf..bt of text's spans, as alternating plain and matched
// fragments, plain first.
func cutSnippet(text string, bestSpans []Span, bf, bt int) []string {
	spans := bestSpans[bf:bt]
	var out []string
	plain := strings.Builder{}
	if bf > 0 {
		plain.WriteString("…")
	}
	pos := spans[0].Start
	for _, s := range spans {
		if !s.Hit {
			continue
		}
		plain.WriteString(squeeze(text[pos:s.Start]))
		out = append(out, plain.String(), text[s.Start:s.End])
		plain.Reset()
		pos = s.End
	}
	plain.WriteString(squeeze(text[pos:spans[len(spans)-1].End]))
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

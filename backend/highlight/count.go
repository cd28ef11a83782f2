package highlight

import (
	"slices"
	"unicode/utf8"
)

// Count counts the distinct query words (or forms of them) in text. Ranking runs it over
// every candidate's title and URL, so ASCII text is split here without allocating; other
// text goes through Spans.
func (h *Highlighter) Count(text string) int {
	var seen []string
	var buf [64]byte
	for i := 0; i < len(text); {
		c := text[i]
		if c >= utf8.RuneSelf {
			return h.countSlow(text)
		}
		if !isWordByte(c) {
			i++
			continue
		}
		j := i
		for j < len(text) && isWordByte(text[j]) {
			j++
		}
		if j < len(text) && text[j] >= utf8.RuneSelf {
			return h.countSlow(text)
		}
		if n := j - i; n <= len(buf) {
			for k := range n {
				buf[k] = lowerASCII(text[i+k])
			}
			if w := buf[:n]; h.Match(string(w)) && !slices.Contains(seen, string(w)) {
				seen = append(seen, string(w))
			}
		}
		i = j
	}
	return len(seen)
}

func (h *Highlighter) countSlow(text string) int {
	var seen []string
	for _, sp := range h.Spans(text) {
		if sp.Hit && !slices.Contains(seen, sp.Key) {
			seen = append(seen, sp.Key)
		}
	}
	return len(seen)
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

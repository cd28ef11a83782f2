package search

import (
	"strings"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// The index is not stemmed, so stemming happens on the query side: a plain word also
// matches the other words of its Porter2 (Snowball English) class. For a stem of four
// letters or more that starts the word, that is the stem as a prefix ("connections" ->
// "connect"*, one FTS5 term that reaches only words the index holds); otherwise the word
// gets the regular inflections that stem back to its stem (cat -> cats, but never catalog;
// making -> make, makes).

// stemForms returns the FTS5 alternatives of a plain word w (lower case) besides w
// itself: a stem prefix, or inflections; nil for words that do not stem (numbers,
// non-English letters, very short or very long words).
func stemForms(w string, maxVariants int) []string {
	if maxVariants <= 0 || len(w) < 3 || len(w) > 30 || !isASCIILower(w) {
		return nil
	}
	stem := english.Stem(w, false)
	if len(stem) >= 4 && strings.HasPrefix(w, stem) {
		return []string{quote(stem) + "*"}
	}
	var out []string
	for _, v := range variants(w, maxVariants) {
		out = append(out, quote(v))
	}
	return out
}

// suffixes tried on a stem, most useful first (the list is cut at MaxVariants).
var suffixes = []string{"", "s", "ed", "ing", "es", "d", "er", "ers", "y", "ies", "ied"}

// variants returns up to max other words with the same stem as w (lower case), or nil
// for words that are short, not ASCII letters, or numbers.
func variants(w string, max int) []string {
	if max <= 0 || len(w) < 3 || len(w) > 30 || !isASCIILower(w) {
		return nil
	}
	stem := english.Stem(w, false)
	if len(stem) < 2 {
		return nil
	}
	bases := []string{stem}
	last := stem[len(stem)-1]
	switch {
	case last == 'i': // happi <- happy, happiness
		bases = append(bases, stem[:len(stem)-1]+"y")
	case last == 'e': // make <- making
		bases = append(bases, stem[:len(stem)-1])
	case !strings.ContainsRune("aeiouwxy", rune(last)) && len(stem) >= 3: // run <- running
		bases = append(bases, stem+string(last))
	}
	var out []string
	seen := map[string]bool{w: true}
	for _, suf := range suffixes {
		for _, b := range bases {
			v := b + suf
			if seen[v] || !utf8.ValidString(v) {
				continue
			}
			seen[v] = true
			if english.Stem(v, false) == stem {
				out = append(out, v)
				if len(out) >= max {
					return out
				}
			}
		}
	}
	return out
}

func isASCIILower(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

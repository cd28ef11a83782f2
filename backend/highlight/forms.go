package highlight

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// The index is not stemmed, so stemming happens on the query side: a plain word also
// matches the other words of its Porter2 (Snowball English) class that inflection makes
// from its stem (connections -> connect, connected, connecting, connection; cat -> cats,
// but never catalog; making -> make, makes). They are explicit words, not a stem prefix:
// "connect"* would also reach connector and connectivity, and FTS5 merges the doclist of
// every word with a prefix of four letters or more before it returns a row (the prefix
// index covers two and three), which costs a second on a million pages.

// DefaultForms is how many stem forms of a plain word a query matches unless told otherwise
// (search's DefaultWeights, the Matcher).
const DefaultForms = 8

// Forms returns up to maxVariants words besides w (lower case) that a plain word w also
// matches; nil for words that do not stem (numbers, non-English letters, very short or
// very long words).
func Forms(w string, maxVariants int) []string {
	k := formsKey{w, maxVariants}
	formsMemo.mu.Lock()
	v, ok := formsMemo.m[k]
	formsMemo.mu.Unlock()
	if !ok {
		v = variants(w, maxVariants)
		formsMemo.mu.Lock()
		if len(formsMemo.m) >= formsMemoMax {
			clear(formsMemo.m)
		}
		formsMemo.m[k] = v
		formsMemo.mu.Unlock()
	}
	return slices.Clone(v)
}

// One query asks for the forms of its words many times (compiling it, each ranking stage,
// the snippets), and each asking stems some 30 words: 7% of the CPU of a search of three
// or four words. So the forms of the words asked lately are kept.
var formsMemo = struct {
	mu sync.Mutex
	m  map[formsKey][]string
}{m: map[formsKey][]string{}}

type formsKey struct {
	w   string
	max int
}

// formsMemoMax bounds the forms kept (a few hundred KB): emptied when full.
const formsMemoMax = 4096

// suffixes tried on a stem, most useful first (the list is cut at MaxVariants).
var suffixes = []string{"", "s", "ed", "ing", "es", "d", "ion", "ions", "er", "ers", "ation", "ations",
	"ment", "ments", "ies", "ied", "y", "ings"}

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
	case len(stem) >= 3 && len(stem) <= 5 && !isVowel(last) && isVowel(stem[len(stem)-2]) &&
		!isVowel(stem[len(stem)-3]) && !strings.ContainsRune("wxy", rune(last)): // run <- running
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

func isVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }

// Package pairs indexes the adjacent pairs of a workspace's frequent words, so that a phrase
// of common words is found from short doclists.
//
// FTS5 finds a phrase by walking the doclists of its words to every page that has them all
// and comparing their positions there. For a phrase of words that each sit in a tenth of a
// million pages, that is tens of thousands of pages compared to find a handful (100-500 ms
// at 1,000,000 pages). Its pairs are rare: "tackier flew" is in a few hundred pages. So a
// second, contentless FTS5 table (page_pairs, with page_fts's columns) holds each column's
// pairs of frequent words as single tokens, "tackier0flew", and the phrase "a b c" is asked
// there as the phrase "a0b b0c". Lucene's CommonGrams filter and the bigram indexes of early
// web search engines do the same.
//
// The answer is exact, not a candidate set: pair tokens are written at consecutive
// positions exactly when they overlap in the text (a run of pairs ends with a gap token),
// so "a0b b0c" matches where a, b and c follow each other in one column, as FTS5's own
// phrase does. That holds while this package splits and folds text as FTS5's unicode61
// tokenizer (remove_diacritics 2) does: letters, numbers and private-use characters make
// tokens; case and diacritics are folded. Frequent words are ASCII letters only, so a pair
// token can never be a word of the text or two readings of another pair.
package pairs

import (
	"mundaneum/backend/tokenize"
	"sort"
	"strings"
)

// joiner joins a pair's two words into one token; gap separates runs of pairs. Neither can
// be part of a frequent word.
const (
	joiner = "0"
	gap    = "0"
)

// Words is a chosen set of frequent words.
type Words struct {
	set map[string]struct{}
}

// NewWords returns the set of the frequent words in list; anything that cannot be one (see
// IsCandidate) is left out.
func NewWords(list []string) *Words {
	w := &Words{set: make(map[string]struct{}, len(list))}
	for _, s := range list {
		if IsCandidate(s) {
			w.set[s] = struct{}{}
		}
	}
	return w
}

// Len is how many words the set holds.
func (w *Words) Len() int {
	if w == nil {
		return 0
	}
	return len(w.set)
}

// List returns the words in order.
func (w *Words) List() []string {
	out := make([]string, 0, w.Len())
	if w != nil {
		for s := range w.set {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// Has reports whether word (folded, see Fold) is frequent.
func (w *Words) Has(word string) bool {
	if w == nil {
		return false
	}
	_, ok := w.set[word]
	return ok
}

// IsCandidate reports whether s can be a frequent word: 1 to 32 ASCII lowercase letters.
func IsCandidate(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// Text returns what page_pairs holds for one column of text: the pair token of every two
// adjacent frequent words, in text order, with a gap token wherever a pair is missing
// between two runs of pairs.
func (w *Words) Text(text string) string {
	if w.Len() == 0 || text == "" {
		return ""
	}
	var b strings.Builder
	prev := ""      // the previous token when it is frequent
	broken := false // a pair is missing since the last one written
	tokenize.Tokens(text, func(tok string) {
		if !w.Has(tok) {
			prev, broken = "", b.Len() > 0
			return
		}
		if prev != "" {
			if broken {
				b.WriteString(gap + " ")
				broken = false
			}
			b.WriteString(prev + joiner + tok + " ")
		}
		prev = tok
	})
	return strings.TrimSuffix(b.String(), " ")
}

// Pairs returns the pair tokens of a phrase of words (already split as FTS5 splits them),
// in order, and whether it has them all: at least two words, all frequent once folded.
// Asked of page_pairs as one phrase, they find exactly the pages with the phrase.
func (w *Words) Pairs(words []string) ([]string, bool) {
	if len(words) < 2 || w.Len() == 0 {
		return nil, false
	}
	folded := make([]string, len(words))
	for i, s := range words {
		folded[i] = tokenize.Fold(s)
		if !w.Has(folded[i]) {
			return nil, false
		}
	}
	out := make([]string, len(words)-1)
	for i := 1; i < len(folded); i++ {
		out[i-1] = folded[i-1] + joiner + folded[i]
	}
	return out, true
}

// Phrase returns the page_pairs phrase of Pairs: the FTS5 string that finds exactly the
// phrase of words.
func (w *Words) Phrase(words []string) (string, bool) {
	ps, ok := w.Pairs(words)
	if !ok {
		return "", false
	}
	return `"` + strings.Join(ps, " ") + `"`, true
}

// How frequent words are chosen (see Counter): a word is frequent when it is in at least
// MinShare of the pages sampled. Below that, a phrase's rarest word has few enough pages
// for FTS5 to compare them quickly (about 10,000 at 1,000,000 pages). MaxWords bounds the
// set (and page_pairs' vocabulary, which grows with its square).
const (
	MinShare = 0.01
	MaxWords = 4096
	minPages = 20 // a word in fewer sampled pages is never frequent, whatever the share
)

// Counter counts, over a sample of pages, in how many of them each candidate word appears.
type Counter struct {
	df    map[string]int
	seen  map[string]struct{}
	pages int
}

// NewCounter returns an empty Counter.
func NewCounter() *Counter {
	return &Counter{df: map[string]int{}, seen: map[string]struct{}{}}
}

// Add counts one page, given the text of its columns.
func (c *Counter) Add(cols ...string) {
	clear(c.seen)
	for _, col := range cols {
		tokenize.Tokens(col, func(tok string) {
			if _, ok := c.seen[tok]; !ok && IsCandidate(tok) {
				c.seen[tok] = struct{}{}
				c.df[tok]++
			}
		})
	}
	c.pages++
}

// Pages is how many pages were counted.
func (c *Counter) Pages() int { return c.pages }

// Frequent returns the words in at least MinShare of the pages counted, most frequent
// first, at most MaxWords.
func (c *Counter) Frequent() []string {
	least := max(minPages, int(MinShare*float64(c.pages)+0.5))
	var out []string
	for w, n := range c.df {
		if n >= least {
			out = append(out, w)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := c.df[out[i]], c.df[out[j]]
		return a > b || a == b && out[i] < out[j]
	})
	return out[:min(len(out), MaxWords)]
}

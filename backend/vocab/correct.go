package vocab

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"mundaneum/backend/query"
	"mundaneum/backend/querysql"
	"mundaneum/backend/tokenize"
	"strings"
	"unicode"
)

// "Did you mean" is Glimpse's approximate matching: a word the index does not hold is
// replaced by the most frequent index term within Damerau-Levenshtein distance 2 (1 for
// words of four letters or less). Candidates come from the index itself, at a cost that
// does not grow with its size; btree.go reads terms straight from the FTS5 b-tree:
//
//   - the terms that share the word's first k letters (k >= 2, as small as keeps their
//     leaf pages under prefixPageBudget), and the terms just before and after those,
//     which share the longest prefix of the word that the index knows: no term one edit
//     away from the word can differ from it before that prefix ends;
//   - when none of those is one edit away (and for words of up to shortWord letters,
//     which are often one edit away from several), the strings one edit away with the
//     edit before k, looked up one position at a time from the last (a typo usually ends
//     the known prefix) until a position yields some (through all of them for short words).
//
// An FTS5 index is a list of segments, and looking a term up costs a b-tree search in
// each. Words worth suggesting are in the largest segment, so the candidates are first
// looked for there alone. Only if none is one edit away are the terms around the prefix
// read from every segment, and only if none of those is close enough are the strings one
// edit away probed with MATCH (rare words with a typo near their start; nonsense).
// Among the candidates at the smallest distance, the one in most pages wins; frequency is
// estimated from the first freqSample matching rows rather than counted, since a common
// word is in a large part of a million pages.
const (
	minTermLen  = 3
	maxTermLen  = 24
	maxDistance = 2
	// shortWord is the length up to which all the words one edit away are looked for.
	shortWord = 6
	// prefixPageBudget bounds the leaf pages read for the terms sharing a prefix.
	prefixPageBudget = 100
	// maxRanked bounds the candidates at one distance whose frequency is estimated.
	maxRanked = 12
	// freqSample is how many matching rows a frequency estimate reads.
	freqSample = 100
)

// Correct returns the query text with the words of its tree (root, parsed from text) that
// the index does not hold replaced by their corrections, or "" when it has none to correct
// (or no correction is known).
func (v *Vocabulary) Correct(ctx context.Context, text string, root query.Node) (string, error) {
	var words []string
	query.Walk(root, false, func(n query.Node, negated bool) {
		if negated {
			return
		}
		switch x := n.(type) {
		case *query.Text:
			if x.Field != query.FieldURL {
				words = append(words, x.Words...)
			}
		case *query.Near:
			for _, g := range x.Groups {
				words = append(words, g.Words...)
			}
		}
	})
	fixes := map[string]string{}
	for _, w := range words {
		lw := strings.ToLower(w)
		if _, done := fixes[lw]; done || !correctable(lw) {
			continue
		}
		known, err := v.known(ctx, lw)
		if err != nil {
			return "", err
		}
		if known {
			continue
		}
		fix, err := v.nearest(ctx, lw)
		if err != nil {
			return "", err
		}
		if fix != "" {
			fixes[lw] = fix
		}
	}
	if len(fixes) == 0 {
		return "", nil
	}
	return replaceWords(text, fixes), nil
}

func correctable(w string) bool {
	n := len([]rune(w))
	if n < minTermLen || n > maxTermLen {
		return false
	}
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// known reports whether the index holds the word.
func (v *Vocabulary) known(ctx context.Context, w string) (bool, error) {
	var one int
	err := v.db.QueryRowContext(ctx, `SELECT 1 FROM page_fts WHERE page_fts MATCH ? LIMIT 1`, querysql.Quote(w)).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look up %q: %w", w, err)
	}
	return true, nil
}

// replaceWords replaces whole words of q (compared in lower case) by their fixes.
func replaceWords(q string, fixes map[string]string) string {
	var b strings.Builder
	rs := []rune(q)
	isWord := tokenize.IsTokenRune
	for i := 0; i < len(rs); {
		if !isWord(rs[i]) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		j := i
		for j < len(rs) && isWord(rs[j]) {
			j++
		}
		w := string(rs[i:j])
		if f, ok := fixes[strings.ToLower(w)]; ok {
			w = f
		}
		b.WriteString(w)
		i = j
	}
	return b.String()
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Distance is the optimal-string-alignment (restricted Damerau-Levenshtein) distance of a
// and b, or limit+1 once it is known to exceed limit.
func Distance(a, b []rune, limit int) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			c := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				c = min(c, prev2[j-2]+1)
			}
			cur[j] = c
			rowMin = min(rowMin, c)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], limit+1)
}

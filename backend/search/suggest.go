package search

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// "Did you mean" is Glimpse's approximate matching: a word the index does not hold is
// replaced by the most frequent index term within Damerau-Levenshtein distance 2 (1 for
// words of four letters or less). Candidates come from the index's own vocabulary (the
// fts5vocab table page_vocab) without scanning it: the terms that share the word's first
// two letters (a range scan, at most maxRangeTerms), and every string one edit away from
// the word (looked up by equality, which costs nothing for strings the index lacks).
const (
	minTermLen    = 3
	maxTermLen    = 24
	maxDistance   = 2
	maxRangeTerms = 5000
)

// correct returns the query with its unknown words corrected, or "" when it has none to
// correct (or no correction is known).
func (s *Searcher) correct(ctx context.Context, query string, root Node) (string, error) {
	var words []string
	walk(root, false, func(n Node, negated bool) {
		if negated {
			return
		}
		switch x := n.(type) {
		case *Text:
			if x.Field != FieldURL {
				words = append(words, x.Words...)
			}
		case *Near:
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
		known, err := s.known(ctx, lw)
		if err != nil {
			return "", err
		}
		if known {
			continue
		}
		fix, err := s.nearest(ctx, lw)
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
	return replaceWords(query, fixes), nil
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
func (s *Searcher) known(ctx context.Context, w string) (bool, error) {
	var one int
	err := s.db.QueryRowContext(ctx, `SELECT 1 FROM page_fts WHERE page_fts MATCH ? LIMIT 1`, quote(w)).Scan(&one)
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
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }
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

// nearest returns the best correction of w from the index's vocabulary: the smallest
// edit distance, then the most documents; "" if none is close enough.
func (s *Searcher) nearest(ctx context.Context, w string) (string, error) {
	rw := []rune(w)
	limit := maxDistance
	if len(rw) <= 4 {
		limit = 1
	}
	best, bestDist, bestDocs := "", limit+1, 0
	consider := func(t string, docs int) {
		if t == w || !correctable(t) {
			return
		}
		rt := []rune(t)
		if abs(len(rt)-len(rw)) > limit {
			return
		}
		d := distance(rw, rt, limit)
		if d < bestDist || (d == bestDist && (docs > bestDocs || docs == bestDocs && t < best)) {
			best, bestDist, bestDocs = t, d, docs
		}
	}
	scan := func(q string, args ...any) error {
		rows, err := s.db.QueryContext(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("vocabulary: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var t string
			var docs int
			if err := rows.Scan(&t, &docs); err != nil {
				return err
			}
			consider(t, docs)
		}
		return rows.Err()
	}
	// Terms with the same first two letters.
	lo := string(rw[:2])
	hi := lo + "\U0010FFFF"
	if err := scan(`SELECT term, doc FROM page_vocab WHERE term >= ? AND term < ? LIMIT ?`, lo, hi, maxRangeTerms); err != nil {
		return "", err
	}
	// Strings one edit away, for errors in the first two letters.
	if bestDist > 1 {
		edits := edits1(rw)
		for i := 0; i < len(edits); i += 500 {
			part := edits[i:min(i+500, len(edits))]
			args := make([]any, len(part))
			for j, e := range part {
				args[j] = e
			}
			if err := scan(`SELECT term, doc FROM page_vocab WHERE term IN (`+placeholders(len(part))+`)`, args...); err != nil {
				return "", err
			}
		}
	}
	if bestDist > limit {
		return "", nil
	}
	return best, nil
}

// edits1 returns the strings one deletion, transposition, replacement or insertion (of a
// letter a-z or one of the word's own letters) away from w, that change its first two
// letters (the others are found by the range scan).
func edits1(w []rune) []string {
	letters := map[rune]bool{}
	for r := 'a'; r <= 'z'; r++ {
		letters[r] = true
	}
	for _, r := range w {
		letters[r] = true
	}
	seen := map[string]bool{}
	var out []string
	add := func(rs []rune) {
		s := string(rs)
		if !seen[s] && len(rs) >= 2 && (rs[0] != w[0] || rs[1] != w[1]) {
			seen[s] = true
			out = append(out, s)
		}
	}
	for i := 0; i <= 2 && i <= len(w); i++ {
		if i < len(w) {
			add(append(append([]rune{}, w[:i]...), w[i+1:]...)) // delete
		}
		if i+1 < len(w) {
			t := append([]rune{}, w...)
			t[i], t[i+1] = t[i+1], t[i]
			add(t) // transpose
		}
		for r := range letters {
			if i < len(w) {
				t := append([]rune{}, w...)
				t[i] = r
				add(t) // replace
			}
			add(append(append(append([]rune{}, w[:i]...), r), w[i:]...)) // insert
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// distance is the optimal-string-alignment (restricted Damerau-Levenshtein) distance of a
// and b, or limit+1 once it is known to exceed limit.
func distance(a, b []rune, limit int) int {
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

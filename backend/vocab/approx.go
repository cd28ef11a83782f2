package vocab

import (
	"cmp"
	"context"
	"errors"
	"mundaneum/backend/query"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Approximate words (word~1, word~2: query.Text.Fuzzy) are Glimpse's approximate matching,
// asked for explicitly: the word matches the terms of the index within that many
// Damerau-Levenshtein edits. The terms come from the index's vocabulary the way did-you-mean
// finds its candidates (correct.go, nearest.go), so the cost does not grow with the
// index:
//
//   - the terms sharing the word's first k letters (the shortest prefix of two letters or
//     more whose leaf pages fit prefixPageBudget), and those just around them, each kept when
//     within the distance: every term whose edits all come after the k-th letter;
//   - the strings one edit away with the edit before that, looked up with MATCH.
//
// So word~1 finds every term one edit away; word~2 also finds the terms two edits away whose
// edits fall after the shared prefix (usually the first two or three letters): a word is
// rarely misspelt twice in its first letters. An approximate word is not stemmed: its
// inflections within the distance are among its terms anyway. It matches the word itself
// and up to maxApproxTerms terms, the closest first, then those in most index segments.
const maxApproxTerms = 64

// approxKey is the key of an approximate word's terms in Expansions.
func approxKey(w string, d int) string { return w + "~" + strconv.Itoa(d) }

// approxTerms returns the terms of the index within d edits of w (lower case), w excluded:
// from the terms in memory when the vocabulary keeps them (memory.go), else from the
// index's b-tree. Both find the same terms.
func (v *Vocabulary) approxTerms(ctx context.Context, w string, d int) ([]string, error) {
	rw := []rune(w)
	cands := map[string]candidate{}
	used, err := v.mem.use(ctx, v.db, func(m *inMemory) { m.approx(rw, d, cands) })
	if err != nil {
		return nil, err
	}
	if !used {
		if err := v.approxInIndex(ctx, rw, d, cands); err != nil {
			return nil, err
		}
	}
	terms := make([]string, 0, len(cands))
	for t, c := range cands {
		if c.dist >= 1 && c.dist <= d && t != w {
			terms = append(terms, t)
		}
	}
	slices.SortFunc(terms, func(a, b string) int {
		ca, cb := cands[a], cands[b]
		return cmp.Or(ca.dist-cb.dist, cb.weight-ca.weight, strings.Compare(a, b))
	})
	return terms[:min(len(terms), maxApproxTerms)], nil
}

// approxInIndex adds to cands the terms within d edits of w read from the index's b-tree
// (their weight: how many segments hold them).
func (v *Vocabulary) approxInIndex(ctx context.Context, rw []rune, d int, cands map[string]candidate) error {
	reach := len(rw) + 1
	err := v.checkFTSFormat(ctx)
	switch {
	case errors.Is(err, errFTSFormat):
		// An index whose b-tree cannot be read: the words one edit away, by MATCH.
	case err != nil:
		return err
	default:
		_, segments, err := v.largestSegment(ctx)
		if err != nil {
			return err
		}
		if reach, err = v.nearbyTerms(ctx, rw, d, 0, segments, cands); errors.Is(err, errFTSFormat) {
			reach = len(rw) + 1
		} else if err != nil {
			return err
		}
	}
	_, err = v.probeEdits(ctx, rw, reach, cands, v.matching, false)
	return err
}

// approx adds to cands the terms within d edits of w, as approxInIndex finds them (the
// terms sharing w's first k letters, k >= 2 as small as keeps them under vocabPrefixBudget, and those one edit away with the edit before), from
// the vocabulary (their weight: the bytes of their doclists).
func (m *inMemory) approx(w []rune, d int, cands map[string]candidate) {
	k := min(2, len(w))
	for ; k < len(w) && m.count(string(w[:k])) > vocabPrefixBudget; k++ {
	}
	known := m.withPrefix(w, string(w[:k]), func(t string, weight uint32) {
		n := utf8.RuneCountInString(t)
		if n < minTermLen || abs(n-len(w)) > d || !correctable(t) {
			return
		}
		if dist := Distance(w, []rune(t), d); dist > 0 && dist <= d {
			cands[t] = candidate{dist: dist, weight: int(weight)}
		}
	})
	for j := min(k, known+1) - 1; j >= 0; j-- {
		for _, e := range editsAt(w, j) {
			if _, done := cands[e]; done || !correctable(e) {
				continue
			}
			if weight, ok := m.lookup(e); ok {
				cands[e] = candidate{dist: 1, weight: int(weight)}
			}
		}
	}
}

// expandApprox adds to expand the terms of every approximate word of the query.
func (v *Vocabulary) expandApprox(ctx context.Context, root query.Node, expand Expansions) (Expansions, error) {
	var err error
	query.Walk(root, false, func(x query.Node, _ bool) {
		t, ok := x.(*query.Text)
		if !ok || t.Fuzzy == 0 || len(t.Words) != 1 || err != nil {
			return
		}
		w := strings.ToLower(t.Words[0])
		k := approxKey(w, t.Fuzzy)
		if _, done := expand[k]; done {
			return
		}
		var terms []string
		if terms, err = v.approxTerms(ctx, w, t.Fuzzy); err == nil {
			if expand == nil {
				expand = Expansions{}
			}
			expand[k] = terms
		}
	})
	return expand, err
}

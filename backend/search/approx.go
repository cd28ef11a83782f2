package search

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
)

// Approximate words (word~1, word~2: query.Text.Fuzzy) are Glimpse's approximate matching,
// asked for explicitly: the word matches the terms of the index within that many
// Damerau-Levenshtein edits. The terms come from the index's vocabulary the way did-you-mean
// finds its candidates (suggest.go, suggest_nearest.go), so the cost does not grow with the
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

// approxKey is the key of an approximate word's terms in the compiler's expansions.
func approxKey(w string, d int) string { return w + "~" + strconv.Itoa(d) }

// approxTerms returns the terms of the index within d edits of w (lower case), w excluded.
func (s *Searcher) approxTerms(ctx context.Context, w string, d int) ([]string, error) {
	rw := []rune(w)
	cands := map[string]candidate{}
	reach := len(rw) + 1
	err := s.checkFTSFormat(ctx)
	switch {
	case errors.Is(err, errFTSFormat):
		// An index whose b-tree cannot be read: the words one edit away, by MATCH.
	case err != nil:
		return nil, err
	default:
		_, segments, err := s.largestSegment(ctx)
		if err != nil {
			return nil, err
		}
		if reach, err = s.nearbyTerms(ctx, rw, d, 0, segments, cands); errors.Is(err, errFTSFormat) {
			reach = len(rw) + 1
		} else if err != nil {
			return nil, err
		}
	}
	if _, err := s.probeEdits(ctx, rw, reach, cands, s.matching, false); err != nil {
		return nil, err
	}
	terms := make([]string, 0, len(cands))
	for t, c := range cands {
		if c.dist >= 1 && c.dist <= d && t != w {
			terms = append(terms, t)
		}
	}
	slices.SortFunc(terms, func(a, b string) int {
		ca, cb := cands[a], cands[b]
		return cmp.Or(ca.dist-cb.dist, cb.segs-ca.segs, strings.Compare(a, b))
	})
	return terms[:min(len(terms), maxApproxTerms)], nil
}

// expandApprox adds to expand the terms of every approximate word of the query.
func (s *Searcher) expandApprox(ctx context.Context, root Node, expand map[string][]string) (map[string][]string, error) {
	var err error
	walk(root, false, func(x Node, _ bool) {
		t, ok := x.(*Text)
		if !ok || t.Fuzzy == 0 || len(t.Words) != 1 || err != nil {
			return
		}
		w := strings.ToLower(t.Words[0])
		k := approxKey(w, t.Fuzzy)
		if _, done := expand[k]; done {
			return
		}
		var terms []string
		if terms, err = s.approxTerms(ctx, w, t.Fuzzy); err == nil {
			if expand == nil {
				expand = map[string][]string{}
			}
			expand[k] = terms
		}
	})
	return expand, err
}

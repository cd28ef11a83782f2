package vocab

import (
	"context"
	"errors"
	"mundaneum/backend/query"
	"slices"
	"strings"
)

// FTS5 answers a prefix query from a prefix index when the index keeps one of that length
// (page_fts keeps 2 characters); any longer prefix it answers by reading the whole
// doclist of every term with the prefix before it returns a row, whatever the LIMIT:
// ~200 ms for "unde*" over a million pages. So a longer prefix is looked up in the index's
// own vocabulary (the leaf pages, see btree.go) and asked as the OR of its terms,
// which FTS5 reads in step, row by row, and stops at the LIMIT.
const (
	indexedPrefix  = 2    // the longest prefix page_fts indexes (prefix = '2', backend/index/schema.sql)
	maxExpandPages = 1024 // leaf pages read to list a prefix's terms
	maxExpandTerms = 1024 // terms a prefix may become
)

// expandPrefixes returns, for each long prefix of the query (not within a phrase), the
// terms of the index that start with it, when they are few enough to ask one by one.
// Prefixes it cannot list completely are left to FTS5.
func (v *Vocabulary) expandPrefixes(ctx context.Context, root query.Node) (Expansions, error) {
	var want []string
	query.Walk(root, false, func(x query.Node, _ bool) {
		t, ok := x.(*query.Text)
		if !ok || !t.Prefix || t.Phrase || len(t.Words) != 1 {
			return
		}
		if w := strings.ToLower(t.Words[0]); len(w) > indexedPrefix && plainASCII(w) && !slices.Contains(want, w) {
			want = append(want, w)
		}
	})
	if len(want) == 0 {
		return nil, nil
	}
	if err := v.checkFTSFormat(ctx); errors.Is(err, errFTSFormat) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	out := Expansions{}
	for _, w := range want {
		n, err := v.prefixPages(ctx, 0, w, maxExpandPages)
		if err != nil {
			return nil, err
		}
		if n > maxExpandPages {
			continue
		}
		var terms []string
		seen := map[string]bool{}
		// Besides the pages that start a term with the prefix, prefixTerms reads up to two
		// pages around them in each segment.
		err = v.prefixTerms(ctx, 0, w, n+512, func(t string) {
			if strings.HasPrefix(t, w) && !seen[t] {
				seen[t] = true
				terms = append(terms, t)
			}
		})
		if errors.Is(err, errFTSFormat) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if len(terms) > 0 && len(terms) <= maxExpandTerms {
			slices.Sort(terms)
			out[w] = terms
		}
	}
	return out, nil
}

// plainASCII reports whether w is lower-case ASCII letters and digits only: the index
// holds such a prefix's terms exactly as typed.
func plainASCII(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

package search

import (
	"context"
	"fmt"
	"mundaneum/backend/highlight"
	"mundaneum/backend/query"
	"mundaneum/backend/vocab"
	"strings"

	"mundaneum/backend/index"
	"mundaneum/backend/store"
)

// The third look at the best hits, on their text: bm25 counts the query's words wherever
// they stand, so a long page that uses each of them somewhere outranks the paragraph where
// they stand together, and a page whose heading asks the question the user typed ("How do
// I ignore changes to a tracked file?") gets no credit for it. For the first ProxDepth
// hits of the second stage, the page's text is read (as the snippets read it) and:
//
//   - proximity: the most distinct query words found within a window of proxWindow tokens
//     of the body, as a share of the query's words (squared: all words together counts
//     far more than half of them);
//   - heading: one heading of the page holds every query word.
//
// score ×= 1 + Proximity·share² + HeadingAll·[a heading has them all]. Queries of one word
// are left alone (nothing to be near).

func (w Weights) textFactor(t textSignals) float64 {
	x := 1 + w.Proximity*t.Near*t.Near
	if t.Heading {
		x += w.HeadingAll
	}
	return x
}

// proximity applies the third stage to hits (best first); it returns the texts it read,
// which the snippets of the same hits reuse.
func (s *Searcher) proximity(ctx context.Context, root query.Node, expand vocab.Expansions, hits []hit) (pageTexts, error) {
	if s.w.Proximity == 0 && s.w.HeadingAll == 0 || len(hits) == 0 {
		return nil, nil
	}
	terms := queryTerms(root, s.w)
	if len(terms) < 2 {
		return nil, nil
	}
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.id
	}
	ins, err := store.IndexTexts(ctx, s.db, ids) // body and headings: what links say is not read
	if err != nil {
		return nil, fmt.Errorf("proximity: %w", err)
	}
	texts := make(pageTexts, len(ins))
	h := highlight.New(root, s.w.forms(), expand)
	sig := make(map[int64]textSignals, len(ins))
	for _, in := range ins {
		texts[in.ID] = in
		d, ok := index.DocOf(in)
		if !ok {
			continue
		}
		sig[d.ID] = textSignalsOf(terms, h, d.Body, d.Headings)
	}
	for i := range hits {
		if t, ok := sig[hits[i].id]; ok {
			hits[i].text, hits[i].third = t, s.w.textFactor(t)
			hits[i].score *= hits[i].third
		}
	}
	return texts, nil
}

// pageTexts are pages' texts as store.IndexTexts read them, by page id.
type pageTexts map[int64]store.IndexInput

// textSignalsOf measures one page's body and headings against the terms.
func textSignalsOf(terms []term, h *highlight.Highlighter, body, headings string) textSignals {
	var t textSignals
	spans := h.Spans(body)
	// Each matched token's term (-1: none); the window slides over matched tokens only.
	type pos struct{ at, term int }
	var hits []pos
	for i, sp := range spans {
		if !sp.Hit {
			continue
		}
		for k, tm := range terms {
			if tm.in([]string{sp.Key}) {
				hits = append(hits, pos{i, k})
				break
			}
		}
	}
	count := make([]int, len(terms))
	distinct, best, lo := 0, 0, 0
	for _, p := range hits {
		if count[p.term] == 0 {
			distinct++
		}
		count[p.term]++
		for hits[lo].at <= p.at-proxWindow {
			if count[hits[lo].term]--; count[hits[lo].term] == 0 {
				distinct--
			}
			lo++
		}
		best = max(best, distinct)
	}
	t.Near = float64(best) / float64(len(terms))
	for _, line := range strings.Split(headings, "\n") {
		toks := h.Spans(line)
		all := true
		for _, tm := range terms {
			found := false
			for _, sp := range toks {
				if sp.Hit && tm.in([]string{sp.Key}) {
					found = true
					break
				}
			}
			if !found {
				all = false
				break
			}
		}
		if all && len(toks) > 0 {
			t.Heading = true
			break
		}
	}
	return t
}

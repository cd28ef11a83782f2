package highlight

import "mundaneum/backend/query"

// Matcher tells how well a text matches a query, reading both as search does: the query's
// positive words with their stem forms, prefixes and approximate words (the Highlighter's
// rules, which are the compiler's), the text cut into tokens as FTS5's tokenizer cuts it and
// folded as it folds them. The query-directed crawl scores links with it (frontier.Toward),
// so that the pages it goes for first are those search would find.
type Matcher struct {
	terms []*Highlighter // one per word of the query
}

// NewMatcher reads q in the query language; a query without positive words matches nothing.
func NewMatcher(q string) *Matcher {
	m := &Matcher{}
	root := query.Parse(q).Root
	add := func(t *query.Text) {
		for i, w := range t.Words {
			one := &query.Text{Words: []string{w}, Field: t.Field, Fuzzy: t.Fuzzy,
				Prefix: t.Prefix && i == len(t.Words)-1, Phrase: t.Phrase}
			m.terms = append(m.terms, New(one, DefaultForms, nil))
		}
	}
	EachWanted(root, add)
	return m
}

// EachWanted calls f with every text a query asks for: its words and NEAR groups, not
// those under a NOT. Ranking and the live crawl's matching score by these.
func EachWanted(root query.Node, f func(*query.Text)) {
	if root == nil {
		return
	}
	query.Walk(root, false, func(n query.Node, negated bool) {
		if negated {
			return
		}
		switch x := n.(type) {
		case *query.Text:
			f(x)
		case *query.Near:
			for i := range x.Groups {
				f(&x.Groups[i])
			}
		}
	})
}

// Empty reports whether the query has no word to match.
func (m *Matcher) Empty() bool { return len(m.terms) == 0 }

// Score is the share of the query's words that text holds, from 0 (none) to 1 (all).
func (m *Matcher) Score(text string) float64 {
	if len(m.terms) == 0 || text == "" {
		return 0
	}
	found := make([]bool, len(m.terms))
	n := 0
	for _, tok := range query.Tokens(text) {
		f := fold(tok)
		for i, h := range m.terms {
			if !found[i] && h.Match(f) {
				found[i] = true
				n++
			}
		}
		if n == len(m.terms) {
			break
		}
	}
	return float64(n) / float64(len(m.terms))
}

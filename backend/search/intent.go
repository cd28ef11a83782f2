package search

import (
	"mundaneum/backend/query"
	"mundaneum/backend/tokenize"
)

// The query as the user meant it. Two readings of a parsed query change before it is
// compiled, both written down here so that a reader sees every one:
//
//  1. Filler words of how-to phrasing ("how do i", "to", "a", "the") stop being required.
//     Under the implicit AND they pulled in only the long pages that happen to hold every
//     one of them (the book index, release notes) and dropped the page that does the task
//     but never says "how". They are dropped from a plain query of words as long as a
//     word that is not filler remains; quoted phrases keep them, and a query made only of
//     filler is left as typed.
//  2. An exclusion of a single character ("-x", "-S") is read as the word: in tool
//     documentation it is a command-line option (`git log -S pickaxe`, `cherry-pick -x`),
//     and as an exclusion it is useless (nearly every page holds every letter as a token).
//     Longer words after "-" stay exclusions.
//
// intent returns the node to compile and a note for each reading it changed.

// fillerWords are the words of how-to and question phrasing that carry no topic.
var fillerWords = map[string]bool{
	"how": true, "do": true, "does": true, "did": true, "i": true, "to": true, "a": true,
	"an": true, "the": true, "can": true, "could": true, "should": true, "would": true,
	"my": true, "me": true, "we": true, "you": true, "is": true, "are": true, "be": true,
	"what": true, "which": true, "why": true, "way": true, "best": true, "there": true,
}

func intent(root query.Node) (query.Node, []string) {
	var notes []string
	root = optionWords(root, &notes)
	if n, dropped := dropFiller(root); dropped {
		root = n // silently, as every engine's stop words: the results show what matched
	}
	return root, notes
}

// meant applies intent to a parsed query, adding its notes.
func (s *Searcher) meant(root query.Node, n *query.Notes) query.Node {
	if root == nil || !s.w.Intent {
		return root
	}
	root, list := intent(root)
	for _, x := range list {
		n.Add(x)
	}
	return root
}

// optionWords turns NOT of a single character into that character as a word.
func optionWords(n query.Node, notes *[]string) query.Node {
	switch x := n.(type) {
	case *query.And:
		for i, c := range x.Nodes {
			x.Nodes[i] = optionWords(c, notes)
		}
	case *query.Not:
		if t, ok := x.Node.(*query.Text); ok && len(t.Words) == 1 && len([]rune(t.Words[0])) == 1 {
			*notes = append(*notes, "-"+t.Words[0]+" read as a word (an option), not an exclusion")
			return t
		}
	}
	return n
}

// dropFiller removes the filler words from the plain word nodes of a top-level AND (or a
// lone word node), when a word that is not filler stays.
func dropFiller(root query.Node) (query.Node, bool) {
	var texts []*query.Text
	switch x := root.(type) {
	case *query.Text:
		texts = []*query.Text{x}
	case *query.And:
		for _, c := range x.Nodes {
			if t, ok := c.(*query.Text); ok {
				texts = append(texts, t)
			}
		}
	default:
		return root, false
	}
	content, filler := 0, 0
	for _, t := range texts {
		if t.Phrase || t.Field != query.FieldAll {
			content++ // a phrase or a field's words are kept and count as content
			continue
		}
		for i, w := range t.Words {
			if fillerWords[tokenize.Fold(w)] && !(t.Prefix && i == len(t.Words)-1) {
				filler++
			} else {
				content++
			}
		}
	}
	if filler == 0 || content == 0 {
		return root, false
	}
	for _, t := range texts {
		if t.Phrase || t.Field != query.FieldAll {
			continue
		}
		kept := t.Words[:0:0]
		for i, w := range t.Words {
			if !fillerWords[tokenize.Fold(w)] || t.Prefix && i == len(t.Words)-1 {
				kept = append(kept, w)
			}
		}
		t.Words = kept
	}
	// Nodes left with no words go.
	if a, ok := root.(*query.And); ok {
		nodes := a.Nodes[:0:0]
		for _, c := range a.Nodes {
			if t, ok := c.(*query.Text); ok && len(t.Words) == 0 {
				continue
			}
			nodes = append(nodes, c)
		}
		a.Nodes = nodes
		if len(nodes) == 1 {
			return nodes[0], true
		}
	}
	return root, true
}

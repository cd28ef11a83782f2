package search

import (
	"mundaneum/backend/highlight"
	"mundaneum/backend/querysql"
	"mundaneum/backend/vocab"
	"strconv"
	"strings"

	"mundaneum/backend/query"
)

type compiler struct {
	w      Weights
	args   []any
	regs   []*regexLeaf
	notes  *query.Notes
	atoms  []string         // what fts has quoted since atoms was last reset (see conjunct)
	absent map[string]bool  // stem forms to leave out (see compileWithout)
	expand vocab.Expansions // long prefixes and approximate words asked as the OR of their terms
}

// universe: the pages a query without top-level text ranges over. Duplicates are collapsed
// into the page they duplicate; non-HTML resources known from links are included.
const (
	// The unary + keeps pages_state out of the plan: most pages are fetched, so the state
	// is a poor index to drive a query from; the filters' own indexes are better.
	universeSQL       = `((+p.state = 'fetched' AND p.duplicate_of IS NULL AND p.noindex = 0) OR (+p.state = 'skipped' AND p.reason = 'type'))`
	universeStatusSQL = `((p.state IN ('fetched', 'failed', 'redirected') AND p.duplicate_of IS NULL AND p.noindex = 0) OR (p.state = 'skipped' AND p.reason IN ('type', 'robots')))`
)

// compile turns a syntax tree into a plan.
func compile(root query.Node, w Weights, n *query.Notes) *plan {
	return compileWithout(root, w, n, nil, nil)
}

// compileWithout compiles leaving out the stem forms (quoted, see compiler.phrase) the
// index is known not to hold: each would cost a seek per index segment in every statement.
func compileWithout(root query.Node, w Weights, n *query.Notes, absent map[string]bool, expand vocab.Expansions) *plan {
	c := &compiler{w: w, notes: n, absent: absent, expand: expand}
	pl := &plan{expand: expand}
	var conj []query.Node
	if a, ok := root.(*query.And); ok {
		conj = a.Nodes
	} else if root != nil {
		conj = []query.Node{root}
	}
	var pos, neg []string
	var rest []query.Node
	for _, x := range conj {
		c.atoms = nil
		if e, positive, ok := c.fts(x); ok {
			if positive {
				pos = append(pos, e)
				pl.conj = append(pl.conj, conjunct{expr: e, atoms: c.atoms})
			} else {
				neg = append(neg, e)
			}
			continue
		}
		rest = append(rest, x)
	}
	if len(pos) > 0 {
		pl.match, pl.negated = combine(pos, neg), len(neg) > 0
	} else {
		pl.conj = nil
		// No text to drive the statement: negated text joins the SQL conditions.
		rest = conj
	}
	for _, x := range rest {
		if r, neg := topRegexp(x); r != nil {
			pl.top = append(pl.top, topRegex{r, neg})
			continue
		}
		pl.where = append(pl.where, c.sql(x))
	}
	if pl.match == "" {
		statusy, positive := false, false
		var texts []string
		if root != nil {
			query.Walk(root, false, func(x query.Node, negated bool) {
				switch x := x.(type) {
				case *query.Filter:
					statusy = statusy || x.Field == "status" || x.Field == "is"
					positive = positive || !negated
				case *query.Regexp:
					positive = positive || !negated
				case *query.Text, *query.Near:
					if !negated {
						positive = true
						e, _, _ := c.fts(x)
						texts = append(texts, e)
					}
				}
			})
		}
		if root != nil && !positive {
			n.Add("the query only says what to leave out: showing every page without it")
		}
		u := universeSQL
		if statusy {
			u = universeStatusSQL
		}
		pl.where = append([]string{u}, pl.where...)
		if len(texts) > 0 {
			pl.rank = "(" + strings.Join(texts, " OR ") + ")"
		}
	}
	pl.args, pl.regexps = c.args, c.regs
	return pl
}

// combine builds (p1 AND p2 ...) NOT n1 NOT n2 ...
func combine(pos, neg []string) string {
	e := pos[0]
	if len(pos) > 1 {
		e = "(" + strings.Join(pos, " AND ") + ")"
	}
	for _, n := range neg {
		e = "(" + e + " NOT " + n + ")"
	}
	return e
}

// fts returns the FTS5 expression for n when n is text only. positive is false for a
// negation, which FTS5 can only express against something positive (a NOT b).
func (c *compiler) fts(n query.Node) (expr string, positive, ok bool) {
	switch x := n.(type) {
	case *query.Text:
		return c.ftsText(x), true, true
	case *query.Near:
		var gs []string
		for i := range x.Groups {
			g := x.Groups[i]
			g.Phrase = true // inside NEAR every group is a phrase, without stemming
			gs = append(gs, c.phrase(g.Words, g.Prefix))
		}
		return querysql.PageColumns(x.Field, "NEAR("+strings.Join(gs, " ")+", "+strconv.Itoa(x.Distance)+")"), true, true
	case *query.Not:
		e, p, ok := c.fts(x.Node)
		if !ok || !p {
			return "", false, false
		}
		return e, false, true
	case *query.And:
		var pos, neg []string
		for _, y := range x.Nodes {
			e, p, ok := c.fts(y)
			if !ok {
				return "", false, false
			}
			if p {
				pos = append(pos, e)
			} else {
				neg = append(neg, e)
			}
		}
		if len(pos) == 0 {
			return "", false, false
		}
		return combine(pos, neg), true, true
	case *query.Or:
		var es []string
		for _, y := range x.Nodes {
			e, p, ok := c.fts(y)
			if !ok || !p {
				return "", false, false
			}
			es = append(es, e)
		}
		return "(" + strings.Join(es, " OR ") + ")", true, true
	}
	return "", false, false
}

// ftsText quotes every word; a plain word (not a phrase, not a prefix, not in a URL) also
// matches the words of its stem (see highlight.Forms); a document with the word as typed
// matches both alternatives, so it ranks above one with another form only.
func (c *compiler) ftsText(t *query.Text) string {
	if t.Fuzzy > 0 && len(t.Words) == 1 {
		// word~N: the word and its terms within N edits (approx.go), one atom.
		w := strings.ToLower(t.Words[0])
		alts := []string{querysql.Quote(w)}
		terms, _ := c.expand.Approx(w, t.Fuzzy)
		for _, term := range terms {
			alts = append(alts, querysql.Quote(term))
		}
		e := "(" + strings.Join(alts, " OR ") + ")"
		c.atoms = append(c.atoms, e)
		return querysql.PageColumns(t.Field, e)
	}
	if t.Prefix && !t.Phrase && len(t.Words) == 1 {
		if terms := c.expand.Prefix(strings.ToLower(t.Words[0])); len(terms) > 0 {
			alts := make([]string, len(terms))
			for i, term := range terms {
				alts[i] = querysql.Quote(term)
			}
			e := "(" + strings.Join(alts, " OR ") + ")"
			c.atoms = append(c.atoms, e) // one atom: probed as one stream
			return querysql.PageColumns(t.Field, e)
		}
	}
	if t.Phrase || t.Prefix || len(t.Words) != 1 || !c.w.Stem || t.Field == query.FieldURL {
		return querysql.PageColumns(t.Field, c.phrase(t.Words, t.Prefix))
	}
	w := strings.ToLower(t.Words[0])
	forms := highlight.Forms(w, c.w.MaxVariants)
	if len(forms) == 0 {
		return querysql.PageColumns(t.Field, c.phrase([]string{w}, false))
	}
	var alts []string
	for range max(c.w.ExactRepeat, 1) {
		alts = append(alts, c.phrase([]string{w}, false))
	}
	for _, f := range forms {
		if !c.absent[querysql.Quote(f)] {
			alts = append(alts, c.phrase([]string{f}, false))
		}
	}
	return querysql.PageColumns(t.Field, "("+strings.Join(alts, " OR ")+")")
}

// phrase quotes words as one FTS5 phrase and notes its atoms: the doclists of its words
// (of its last word's prefix when prefix is set), which ranking it would read.
func (c *compiler) phrase(words []string, prefix bool) string {
	for i, w := range words {
		a := querysql.Quote(strings.ToLower(w))
		if prefix && i == len(words)-1 {
			a += "*"
		}
		c.atoms = append(c.atoms, a)
	}
	return querysql.Phrase(words, prefix)
}

// sql returns a condition on p for n, binding its values.
func (c *compiler) sql(n query.Node) string {
	if e, p, ok := c.fts(n); ok && p {
		c.args = append(c.args, e)
		return `p.id IN (SELECT rowid FROM page_fts WHERE page_fts MATCH ?)`
	}
	switch x := n.(type) {
	case *query.Not:
		return `NOT coalesce(` + c.sql(x.Node) + `, 0)`
	case *query.And:
		return c.join(x.Nodes, " AND ")
	case *query.Or:
		return c.join(x.Nodes, " OR ")
	case *query.Filter:
		cond, note := querysql.Page(x)
		if note != "" {
			c.notes.Add(note)
		}
		c.args = append(c.args, cond.Args...)
		return cond.SQL
	case *query.Regexp:
		r := &regexLeaf{node: x}
		c.regs = append(c.regs, r)
		c.args = append(c.args, r)
		return `p.id IN (SELECT value FROM json_each(?))`
	}
	return "0"
}

func (c *compiler) join(ns []query.Node, op string) string {
	parts := make([]string, len(ns))
	for i, x := range ns {
		parts[i] = c.sql(x)
	}
	return "(" + strings.Join(parts, op) + ")"
}

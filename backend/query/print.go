package query

import (
	"strconv"
	"strings"
)

// Print writes a syntax tree back in the query language: Parse(Print(n)) has the same tree
// as n for any tree Parse made (the fuzz target checks it). It is the canonical spelling of a
// query: operators in capitals, fields by their canonical names, filter values normalised.
func Print(n Node) string {
	var b strings.Builder
	printNode(&b, n, false)
	return b.String()
}

// printNode writes n; inAnd says whether n sits among the terms of an And, where an Or needs
// parentheses.
func printNode(b *strings.Builder, n Node, inAnd bool) {
	switch x := n.(type) {
	case *And:
		b.WriteByte('(')
		for i, c := range x.Nodes {
			if i > 0 {
				b.WriteByte(' ')
			}
			printNode(b, c, true)
		}
		b.WriteByte(')')
	case *Or:
		if inAnd {
			b.WriteByte('(')
		}
		for i, c := range x.Nodes {
			if i > 0 {
				b.WriteString(" OR ")
			}
			printNode(b, c, true)
		}
		if inAnd {
			b.WriteByte(')')
		}
	case *Not:
		b.WriteByte('-')
		if o, ok := x.Node.(*Or); ok {
			b.WriteByte('(')
			printNode(b, o, false)
			b.WriteByte(')')
		} else {
			printNode(b, x.Node, true)
		}
	case *Text:
		if x.Field != "" {
			b.WriteString(x.Field + ":")
		}
		printText(b, x)
	case *Near:
		if x.Field != "" {
			b.WriteString(x.Field + ":")
		}
		b.WriteString("NEAR(")
		for i := range x.Groups {
			if i > 0 {
				b.WriteByte(' ')
			}
			printText(b, &x.Groups[i])
		}
		b.WriteString(", " + strconv.Itoa(x.Distance) + ")")
	case *Filter:
		b.WriteString(x.Field + ":")
		if x.Value != "" && !strings.ContainsAny(x.Value, " \t\n\r\v\f\u0085\u00a0\"()") && isPlain(x.Value) {
			b.WriteString(x.Value)
		} else {
			b.WriteString(`"` + x.Value + `"`)
		}
	case *Regexp:
		b.WriteString(x.Field + ":/" + x.Pattern + "/")
	}
}

// printText writes a Text's words: a phrase quoted, then * or ~N. A word that reads as an
// operator (OR, AND, NOT) gets ~0, which makes it a word and changes nothing else.
func printText(b *strings.Builder, t *Text) {
	s := strings.Join(t.Words, " ")
	if t.Phrase || len(t.Words) != 1 {
		s = `"` + s + `"`
	} else if t.Fuzzy == 0 && !t.Prefix && (s == "OR" || s == "AND" || s == "NOT") {
		s += "~0"
	}
	b.WriteString(s)
	if t.Prefix {
		b.WriteByte('*')
	}
	if t.Fuzzy > 0 {
		b.WriteString("~" + strconv.Itoa(t.Fuzzy))
	}
}

// isPlain reports whether a filter value has no space the lexer would split it at.
func isPlain(v string) bool {
	for _, r := range v {
		if isSpace(r) {
			return false
		}
	}
	return true
}

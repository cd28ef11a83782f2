package query

import (
	"strconv"
	"strings"
)

// Node is one node of a parsed query: And, Or, Not, Text, Near, Filter or Regexp.
type Node interface {
	// String prints the node in a canonical, unambiguous form (for tests and debugging).
	String() string
}

// And matches what all of its nodes match (words side by side, or AND).
type And struct{ Nodes []Node }

// Or matches what any of its nodes matches.
type Or struct{ Nodes []Node }

// Not matches what its node does not (-x, NOT x).
type Not struct{ Node Node }

// Text fields: the columns of the full-text index a Text or Near may be limited to.
const (
	FieldAll     = ""        // every column
	FieldTitle   = "title"   // the page title
	FieldAnchor  = "anchor"  // text of links pointing at the page
	FieldBody    = "body"    // headings and text
	FieldHeading = "heading" // headings only
	FieldURL     = "url"     // the words of the URL
)

// Text matches words in the full-text index.
type Text struct {
	Field  string   // one of the Field constants
	Words  []string // the tokens, as FTS5's unicode61 tokenizer would see them
	Phrase bool     // the words must be adjacent, in order (quoted, or one token like o'reilly)
	Prefix bool     // the last word is a prefix (word*)
	Fuzzy  int      // word~N: also the words of the index within N edits (one word, 1 or 2)
}

// Near matches its groups (each a word or phrase) within Distance tokens of each other.
type Near struct {
	Field    string
	Groups   []Text
	Distance int
}

// Filter is a condition on a page's metadata rather than its text: site, ext, type, inlinks,
// linkto, before, after, status, is, lang, crawl. Value is validated and normalised by the
// parser (a date is YYYY-MM-DD, a site lower-case ASCII, and so on).
type Filter struct {
	Field string
	Value string
}

// Regexp matches a page whose URL or title matches an RE2 regular expression (url:/re/).
type Regexp struct {
	Field   string // "url" or "title"
	Pattern string
}

func (n *And) String() string { return "AND(" + joinNodes(n.Nodes) + ")" }
func (n *Or) String() string  { return "OR(" + joinNodes(n.Nodes) + ")" }
func (n *Not) String() string { return "NOT(" + n.Node.String() + ")" }

func (n *Text) String() string {
	var b strings.Builder
	if n.Field != "" {
		b.WriteString(n.Field + ":")
	}
	s := strings.Join(n.Words, " ")
	if n.Phrase {
		s = strconv.Quote(s)
	}
	b.WriteString(s)
	if n.Prefix {
		b.WriteByte('*')
	}
	if n.Fuzzy > 0 {
		b.WriteString("~" + strconv.Itoa(n.Fuzzy))
	}
	return b.String()
}

func (n *Near) String() string {
	var parts []string
	for i := range n.Groups {
		g := n.Groups[i]
		g.Field = ""
		parts = append(parts, g.String())
	}
	s := "NEAR(" + strings.Join(parts, " ") + ", " + strconv.Itoa(n.Distance) + ")"
	if n.Field != "" {
		s = n.Field + ":" + s
	}
	return s
}

func (n *Filter) String() string { return n.Field + ":" + strconv.Quote(n.Value) }
func (n *Regexp) String() string { return n.Field + ":/" + n.Pattern + "/" }

func joinNodes(ns []Node) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = n.String()
	}
	return strings.Join(parts, " ")
}

// Walk calls fn for n and every node below it, with whether the node sits under a Not.
func Walk(n Node, negated bool, fn func(n Node, negated bool)) {
	fn(n, negated)
	switch n := n.(type) {
	case *And:
		for _, c := range n.Nodes {
			Walk(c, negated, fn)
		}
	case *Or:
		for _, c := range n.Nodes {
			Walk(c, negated, fn)
		}
	case *Not:
		Walk(n.Node, !negated, fn)
	}
}

// simplify flattens nested And/Or, drops nils, unwraps single-child groups and double
// negations. It returns nil for an empty tree.
func simplify(n Node) Node {
	switch x := n.(type) {
	case nil:
		return nil
	case *And:
		var out []Node
		for _, c := range x.Nodes {
			c = simplify(c)
			if a, ok := c.(*And); ok {
				out = append(out, a.Nodes...)
			} else if c != nil {
				out = append(out, c)
			}
		}
		return group(out, false)
	case *Or:
		var out []Node
		for _, c := range x.Nodes {
			c = simplify(c)
			if o, ok := c.(*Or); ok {
				out = append(out, o.Nodes...)
			} else if c != nil {
				out = append(out, c)
			}
		}
		return group(out, true)
	case *Not:
		c := simplify(x.Node)
		if c == nil {
			return nil
		}
		if nn, ok := c.(*Not); ok {
			return nn.Node
		}
		return &Not{Node: c}
	}
	return n
}

func group(ns []Node, or bool) Node {
	switch len(ns) {
	case 0:
		return nil
	case 1:
		return ns[0]
	}
	if or {
		return &Or{Nodes: ns}
	}
	return &And{Nodes: ns}
}

// Drop returns n without the leaves for which drop is true (simplified: a group left with
// one node becomes that node, an empty one nil).
func Drop(n Node, drop func(Node) bool) Node {
	switch x := n.(type) {
	case nil:
		return nil
	case *And:
		out := &And{}
		for _, c := range x.Nodes {
			out.Nodes = append(out.Nodes, Drop(c, drop))
		}
		return simplify(out)
	case *Or:
		out := &Or{}
		for _, c := range x.Nodes {
			out.Nodes = append(out.Nodes, Drop(c, drop))
		}
		return simplify(out)
	case *Not:
		return simplify(&Not{Node: Drop(x.Node, drop)})
	}
	if drop(n) {
		return nil
	}
	return n
}

package search

import (
	vlib "mundaneum/backend/library"
	"mundaneum/backend/query"
)

// The query language (lex, parse, syntax tree, validation) lives in backend/query, a leaf
// package; these names keep search's code reading as it did.
type (
	Node   = query.Node
	And    = query.And
	Or     = query.Or
	Not    = query.Not
	Text   = query.Text
	Near   = query.Near
	Filter = query.Filter
	Regexp = query.Regexp
	Query  = query.Query
	notes  = query.Notes
)

// Text fields: the columns of the full-text index a Text or Near may be limited to.
const (
	FieldAll     = query.FieldAll
	FieldTitle   = query.FieldTitle
	FieldAnchor  = query.FieldAnchor
	FieldBody    = query.FieldBody
	FieldHeading = query.FieldHeading
	FieldURL     = query.FieldURL
)

var (
	walk   = query.Walk
	tokens = query.Tokens
	clip   = query.Clip
)

// Parse reads a query (see query.Parse) and checks its folder: paths with the library's own
// parser: a path the library cannot read is left out, with a note.
func Parse(q string) Query {
	x := query.Parse(q)
	var bad []string
	x.Root = query.Drop(x.Root, func(n Node) bool {
		f, ok := n.(*Filter)
		if !ok || f.Field != "folder" {
			return false
		}
		if _, err := vlib.ParsePath(f.Value); err != nil {
			bad = append(bad, "folder:"+clip(f.Value, 30)+" was left out: it takes a library's path like /Computing/Go")
			return true
		}
		return false
	})
	if len(bad) > 0 {
		n := &notes{List: x.Notes}
		for _, s := range bad {
			n.Add(s)
		}
		x.Notes = n.List
	}
	return x
}

const maxQueryRunes = query.MaxQueryRunes

package search

import (
	vlib "mundaneum/backend/library"
	"mundaneum/backend/query"
)

// Parse reads a query (see query.Parse) and checks its folder: paths with the library's own
// parser: a path the library cannot read is left out, with a note.
func Parse(q string) query.Query {
	x := query.Parse(q)
	var bad []string
	x.Root = query.Drop(x.Root, func(n query.Node) bool {
		f, ok := n.(*query.Filter)
		if !ok || f.Field != "folder" {
			return false
		}
		if _, err := vlib.ParsePath(f.Value); err != nil {
			bad = append(bad, "folder:"+query.Clip(f.Value, 30)+" was left out: it takes a library's path like /Computing/Go")
			return true
		}
		return false
	})
	if len(bad) > 0 {
		n := &query.Notes{List: x.Notes}
		for _, s := range bad {
			n.Add(s)
		}
		x.Notes = n.List
	}
	return x
}

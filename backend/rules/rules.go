// Package rules is the W3C webbot's constraint language (Kamvysselis and Frystyk Nielsen,
// 1996) and its model of a web element: rule atoms `CATEGORY FIELD:PATTERN` with the four
// categories `*` imperative, `+` directional, `-` rejection and `?` last resort, combined
// by `{AND ...}`, `{OR ...}` and `{NOT r1 [r2]}` over element lists exactly as the paper
// defines them, plus `{LOCAL field:pattern rule...}` blocks, the paper's local rules, that
// hold for the elements reached through a matching element.
//
// Parse reads rule text (errors carry a line and column), String prints the canonical
// form (Parse(r.String()) gives r back), and a Set decides an element's category value
// (first, next, last or rejected) and which atom decided it. A decision taken from the URL
// alone, before a fetch, says when it needs the page's fields (head, body, date...) to be
// final. The package imports no other project package.
package rules

// Category is a rule atom's category, in the paper's order of priority.
type Category byte

// The four categories.
const (
	Imperative  Category = '*' // followed first and always
	Directional Category = '+' // followed next, unless rejected
	Rejection   Category = '-' // never followed, unless an imperative rule matches
	LastResort  Category = '?' // followed only when nothing matching * or + is left
)

// Value is an element's category value (the paper's III.A table): what the rules made of it.
type Value uint8

// Category values. Untested is also the value of a decision that needs the fetched page.
const (
	Untested Value = iota
	First
	Next
	Last
	Rejected
)

var valueNames = [...]string{"untested", "first", "next", "last", "rejected"}

func (v Value) String() string {
	if int(v) < len(valueNames) {
		return valueNames[v]
	}
	return "untested"
}

// Followed reports whether an element of value v is followed (its page visited, its links taken).
func (v Value) Followed() bool { return v == First || v == Next || v == Last }

// tier is the value an accepted element gets from an atom of category c.
func (c Category) tier() Value {
	switch c {
	case Imperative:
		return First
	case Directional:
		return Next
	case LastResort:
		return Last
	}
	return Untested // a rejection atom gives no tier: it only filters
}

// stronger reports whether tier a ranks before tier b (First, Next, Last; Untested is none).
func stronger(a, b Value) bool {
	if a == Untested || a == Rejected {
		return false
	}
	if b == Untested || b == Rejected {
		return true
	}
	return a < b
}

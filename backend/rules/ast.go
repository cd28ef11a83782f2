package rules

import (
	"regexp"
	"strconv"
)

// Pos is a position in rule text: line and column (in characters), both from 1.
type Pos struct{ Line, Col int }

func (p Pos) String() string { return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col) }

// Node is a rule: an *Atom or an *Op.
type Node interface {
	// Position is where the rule starts in the text it was parsed from.
	Position() Pos
	// String is the rule in canonical form.
	String() string
	eval(e *Element) result
}

// Atom is a rule atom: CATEGORY FIELD:PATTERN.
type Atom struct {
	Cat   Category
	Field *Field
	Pat   Pattern
	Pos   Pos
	// Start and End are the atom's byte offsets in the text it was parsed from.
	Start, End int
}

// Position implements Node.
func (a *Atom) Position() Pos { return a.Pos }

// OpKind names a combination.
type OpKind string

// The combinations of rules.
const (
	And OpKind = "AND" // the elements every rule returns
	Or  OpKind = "OR"  // the elements any rule returns
	Not OpKind = "NOT" // the elements of the first not returned by the second; with one rule, of the list not returned by it
)

// Op is a combination of rules.
type Op struct {
	Kind OpKind
	Args []Node
	Pos  Pos
}

// Position implements Node.
func (o *Op) Position() Pos { return o.Pos }

// Local is a block of local rules: they hold, besides the global rules, for the elements
// reached through an element that the selector matches (that element's links, theirs, and
// so on down the tree). The selector is an atom without a category on a URL-only field.
type Local struct {
	Field *Field
	Pat   Pattern
	Rules []Node
	Pos   Pos
	// Start and End are the block's byte offsets in the text it was parsed from, braces included.
	Start, End int
}

// Set is a parsed rule text: global rules and blocks of local rules.
type Set struct {
	Rules  []Node
	Locals []*Local
}

// Empty reports whether the set has no rules at all.
func (s *Set) Empty() bool { return s == nil || (len(s.Rules) == 0 && len(s.Locals) == 0) }

// MaxLocals bounds the local blocks of a set (an element carries the active ones as a bit mask).
const MaxLocals = 64

// PatternKind says how a pattern matches.
type PatternKind uint8

// Pattern kinds.
const (
	Glob    PatternKind = iota // * any run of characters, ? one character, anchored at both ends, case-insensitive
	Regex                      // /RE2/, unanchored, as written
	Compare                    // <N, <=N, >N, >=N on a numeric field
)

// Pattern is an atom's pattern.
type Pattern struct {
	Kind PatternKind
	Src  string // as written: the glob (with its backslash escapes), the regex between the slashes, or the comparison

	glob *glob
	re   *regexp.Regexp
	op   string
	n    int64
}

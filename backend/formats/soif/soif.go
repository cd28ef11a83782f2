// Package soif reads and writes Harvest's Summary Object Interchange Format (Bowman et al.,
// 1994): a stream of templates, each a type, a URL and a list of byte-counted attributes,
//
//	@FILE { http://example.org/a.html
//	Title{7}:	A title
//	URL-References{24}:	http://example.org/b.html
//	}
//
// An attribute's value is exactly the number of bytes its count says, so any bytes (new
// lines, braces, binary data) travel unchanged; the line ends after them. Templates are
// separated by a blank line, as Harvest's Gatherers wrote them.
//
// The Writer writes that canonical form and the Reader reads it back: reading what the
// Writer wrote gives the same templates, and writing what the Reader read of a canonical
// stream gives the same bytes. The Reader streams (one template in memory at a time), caps
// each value and each template (Limits), and reports where a stream breaks by byte offset.
// It tolerates what Harvest's own parser tolerated around the template's first line (spaces
// and tabs, blank lines between templates), so real Gatherer output reads too; the template
// read from such a line writes back in canonical form.
package soif

import (
	"bytes"
	"fmt"
	"strings"
)

// Attr is one attribute: a name and its value's bytes.
type Attr struct {
	Name  string
	Value []byte
}

// Template is one summary object: its type (FILE, DOCUMENT, ...), its URL and its
// attributes, in order. Names compare without regard to case, as in Harvest; a name may
// repeat.
type Template struct {
	Type  string
	URL   string
	Attrs []Attr
}

// Get returns the value of the first attribute called name, without regard to case.
func (t *Template) Get(name string) ([]byte, bool) {
	for _, a := range t.Attrs {
		if strings.EqualFold(a.Name, name) {
			return a.Value, true
		}
	}
	return nil, false
}

// String returns the value of the first attribute called name as a string ("" if none).
func (t *Template) String(name string) string {
	v, _ := t.Get(name)
	return string(v)
}

// Add appends an attribute; an empty value is left out (SOIF has no use for it).
func (t *Template) Add(name string, value []byte) {
	if len(value) > 0 {
		t.Attrs = append(t.Attrs, Attr{Name: name, Value: value})
	}
}

// AddString appends an attribute with a string value (left out when empty).
func (t *Template) AddString(name, value string) {
	if value != "" {
		t.Attrs = append(t.Attrs, Attr{Name: name, Value: []byte(value)})
	}
}

// Size is the bytes of the template's values: what Limits.MaxTemplate bounds.
func (t *Template) Size() int64 {
	var n int64
	for _, a := range t.Attrs {
		n += int64(len(a.Value))
	}
	return n
}

// Equal reports whether two templates are the same, byte for byte.
func (t *Template) Equal(u *Template) bool {
	if t.Type != u.Type || t.URL != u.URL || len(t.Attrs) != len(u.Attrs) {
		return false
	}
	for i, a := range t.Attrs {
		if a.Name != u.Attrs[i].Name || !bytes.Equal(a.Value, u.Attrs[i].Value) {
			return false
		}
	}
	return true
}

// Limits bound what a Reader accepts of one template.
type Limits struct {
	MaxValue    int64 // bytes of one attribute's value
	MaxTemplate int64 // bytes of a template's values together
	MaxAttrs    int   // attributes of one template
}

// DefaultLimits are generous for page summaries and still keep one template's memory
// bounded.
var DefaultLimits = Limits{MaxValue: 16 << 20, MaxTemplate: 64 << 20, MaxAttrs: 4096}

// Caps of the names and the first line, which no real stream comes near.
const (
	maxName = 256
	maxURL  = 64 << 10
)

// FormatError is a stream the Reader could not read: what was wrong, and where.
type FormatError struct {
	Offset int64 // the byte of the stream where the problem is
	Err    error
}

func (e *FormatError) Error() string { return fmt.Sprintf("soif: byte %d: %v", e.Offset, e.Err) }
func (e *FormatError) Unwrap() error { return e.Err }

// validName: letters, digits and - _ . (Harvest's identifiers), 1 to maxName bytes.
func validName(s string) bool {
	if s == "" || len(s) > maxName {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// validURL: one line without leading or trailing white space (the first line of a
// template holds it), at most maxURL bytes.
func validURL(s string) bool {
	return s != "" && len(s) <= maxURL && !strings.ContainsAny(s, "\r\n") && strings.TrimSpace(s) == s &&
		!strings.ContainsAny(s[:1], " \t")
}

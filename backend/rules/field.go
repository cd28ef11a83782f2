package rules

import (
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// Stage says when a field's value is known.
type Stage int

// Stages.
const (
	BeforeFetch Stage = iota // from the URL and the link that reached it
	AfterFetch               // from the fetched page
)

// Field is a field an atom can test. Adding a field is one call of Register with the
// function that reads it from an element (the paper's Url_Get$field).
type Field struct {
	Name    string
	Stage   Stage
	Numeric bool // patterns may compare: <N, <=N, >N, >=N
	Doc     string
	Get     func(e *Element) string
	id      int
}

var (
	fieldList  []*Field
	fieldIndex = map[string]*Field{}
)

// Register adds a field. It panics on a duplicate or a name containing a colon.
func Register(f Field) {
	if f.Name == "" || strings.ContainsAny(f.Name, ": \t\n{}") || fieldIndex[f.Name] != nil {
		panic("rules: bad or duplicate field " + strconv.Quote(f.Name))
	}
	f.id = len(fieldList)
	fieldList = append(fieldList, &f)
	fieldIndex[f.Name] = &f
}

// FieldNamed returns the field called name, or nil.
func FieldNamed(name string) *Field { return fieldIndex[strings.ToLower(name)] }

// FieldNames lists the names of the fields of a stage (all of them for a negative stage), sorted.
func FieldNames(stage Stage) []string {
	var out []string
	for _, f := range fieldList {
		if stage < 0 || f.Stage == stage {
			out = append(out, f.Name)
		}
	}
	sort.Strings(out)
	return out
}

// Element is a web element, the thing rules are applied to: a document reached by a link.
// The fields after the fetch are read only when Fetched is set.
type Element struct {
	URL    string // canonical URL
	Anchor string // text of the link that reached it
	Depth  int    // links from the seed

	Fetched bool
	Status  int
	Type    string // media type
	Title   string
	Head    string // the head's metadata as text: title, description, keywords, author
	Body    string // extracted text
	Date    string // Last-Modified, as the server sent it

	u      *url.URL
	values []string // lower-cased field values, read once
	got    []bool
}

// value returns the lower-cased value of f for glob matching, computed once.
func (e *Element) value(f *Field) string {
	if e.values == nil {
		e.values = make([]string, len(fieldList))
		e.got = make([]bool, len(fieldList))
	}
	if !e.got[f.id] {
		e.values[f.id] = strings.ToLower(f.Get(e))
		e.got[f.id] = true
	}
	return e.values[f.id]
}

// Reset forgets the cached field values (after the element's fields changed).
func (e *Element) Reset() { e.values, e.got, e.u = nil, nil, nil }

func (e *Element) parsed() *url.URL {
	if e.u == nil {
		u, err := url.Parse(e.URL)
		if err != nil {
			u = &url.URL{}
		}
		e.u = u
	}
	return e.u
}

// Head makes the head field from a page's metadata: title, description, keywords and
// author, one a line.
func Head(title, description, keywords, author string) string {
	var b strings.Builder
	for _, p := range []string{title, description, keywords, author} {
		if p == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p)
	}
	return b.String()
}

func init() {
	Register(Field{Name: "url", Doc: "the canonical URL", Get: func(e *Element) string { return e.URL }})
	Register(Field{Name: "host", Doc: "the host name", Get: func(e *Element) string { return e.parsed().Hostname() }})
	Register(Field{Name: "path", Doc: "the path (with the query)", Get: func(e *Element) string {
		return e.parsed().RequestURI()
	}})
	Register(Field{Name: "anchor", Doc: "the text of the link that reached the page", Get: func(e *Element) string { return e.Anchor }})
	Register(Field{Name: "depth", Numeric: true, Doc: "links from the seed", Get: func(e *Element) string { return strconv.Itoa(e.Depth) }})
	Register(Field{Name: "status", Stage: AfterFetch, Numeric: true, Doc: "the HTTP status", Get: func(e *Element) string { return strconv.Itoa(e.Status) }})
	Register(Field{Name: "type", Stage: AfterFetch, Doc: "the media type, e.g. text/html", Get: func(e *Element) string { return e.Type }})
	Register(Field{Name: "title", Stage: AfterFetch, Doc: "the page title", Get: func(e *Element) string { return e.Title }})
	Register(Field{Name: "head", Stage: AfterFetch, Doc: "the head's metadata: title, description, keywords, author", Get: func(e *Element) string { return e.Head }})
	Register(Field{Name: "body", Stage: AfterFetch, Doc: "the page's text", Get: func(e *Element) string { return e.Body }})
	Register(Field{Name: "date", Stage: AfterFetch, Doc: "Last-Modified as sent, e.g. Tue, 03 Dec 1996 10:00:00 GMT", Get: func(e *Element) string { return e.Date }})
}

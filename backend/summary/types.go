package summary

import (
	"fmt"
	"slices"
	"strings"
)

// Types is the set of document types a crawl downloads and summarises, by Kind.Type.
type Types map[string]bool

// DefaultTypes are the types a crawl downloads unless told otherwise: web pages, plain
// text and PDF.
var DefaultTypes = []string{"html", "txt", "pdf"}

// AllTypes lists every registered type name, sorted.
func AllTypes() []string {
	var out []string
	for _, k := range kinds {
		if !slices.Contains(out, k.Type) {
			out = append(out, k.Type)
		}
	}
	slices.Sort(out)
	return out
}

// ParseTypes reads a comma- or space-separated list of type names ("pdf,txt,md"); "all"
// names every type, "default" the defaults. HTML is always included: a crawl follows pages.
// An empty list gives the defaults.
func ParseTypes(s string) (Types, error) {
	t := Types{"html": true}
	names := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ',' || r == ' ' })
	if len(names) == 0 {
		names = DefaultTypes
	}
	all := AllTypes()
	for _, n := range names {
		switch {
		case n == "all":
			for _, a := range all {
				t[a] = true
			}
		case n == "default":
			for _, a := range DefaultTypes {
				t[a] = true
			}
		case slices.Contains(all, n):
			t[n] = true
		default:
			return nil, fmt.Errorf("unknown document type %q (known: %s)", n, strings.Join(all, ", "))
		}
	}
	return t, nil
}

// Has reports whether the type name is in the set.
func (t Types) Has(name string) bool { return t[name] }

// String lists the set, sorted and comma-separated.
func (t Types) String() string {
	var out []string
	for n, ok := range t {
		if ok {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return strings.Join(out, ",")
}

// Accepts reports whether a response of this media type (lower case, no parameters) is
// worth downloading: one of the set's types declares it, or it is a generic type
// (application/octet-stream, none at all) and the set holds a type that sniffing can
// recognise in it.
func (t Types) Accepts(mediaType string) bool {
	for _, k := range kinds {
		if t[k.Type] && slices.Contains(k.Media, mediaType) {
			return true
		}
	}
	if genericMedia[mediaType] {
		for _, k := range kinds {
			if t[k.Type] && (k.Binary || mediaType == "text/plain" || mediaType == "application/xml" || mediaType == "text/xml") {
				return true
			}
		}
	}
	return false
}

// AcceptsExt reports whether a URL with this extension (lower case, no dot) names a
// document of one of the set's types, so that a crawl follows links to it.
func (t Types) AcceptsExt(ext string) bool {
	for _, k := range kinds {
		if t[k.Type] && slices.Contains(k.Exts, ext) {
			return true
		}
	}
	return false
}

// Document reports whether the set's type name is a document rather than a page: one whose
// body may be larger than a page's (a PDF, an archive).
func Document(mediaType string) bool {
	for _, k := range kinds {
		if k.Binary && slices.Contains(k.Media, mediaType) {
			return true
		}
	}
	return genericMedia[mediaType] && mediaType != "" && !strings.HasPrefix(mediaType, "text/") &&
		!strings.HasSuffix(mediaType, "xml")
}

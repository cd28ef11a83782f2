package bookmarks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

// Mundaneum's JSON tree: everything the library holds, for backups and for moving a
// library between workspaces.
//
//	{"format": "mundaneum-library", "version": 1, "title": "Library",
//	 "root": {"kind": "library", "title": "Library", "children": [
//	   {"kind": "pointer", "title": "Go", "url": "https://go.dev/", "tags": ["go"],
//	    "added": "2024-05-01T10:00:00Z"},
//	   {"kind": "report", "title": "Notes", "body": "# Markdown"},
//	   {"kind": "view", "title": "Films", "view": {"name": "films", "query": "ext:mpg"}}]}}
//
// The reader streams the tokens so that it can name the line of any error.

// JSONFormat is the "format" of a JSON tree.
const JSONFormat = "mundaneum-library"

type jsonView struct {
	Name  string `json:"name"`
	Query string `json:"query"`
}

type jsonEntry struct {
	Kind       Kind         `json:"kind"`
	Title      string       `json:"title"`
	URL        string       `json:"url,omitempty"`
	Notes      string       `json:"notes,omitempty"`
	Body       string       `json:"body,omitempty"`
	Tags       []string     `json:"tags,omitempty"`
	Added      string       `json:"added,omitempty"`
	Modified   string       `json:"modified,omitempty"`
	Purpose    string       `json:"purpose,omitempty"`
	CreateOnly bool         `json:"createOnly,omitempty"`
	Author     string       `json:"author,omitempty"`
	Email      string       `json:"email,omitempty"`
	Image      string       `json:"image,omitempty"`
	Order      string       `json:"order,omitempty"`
	View       *jsonView    `json:"view,omitempty"`
	Children   []*jsonEntry `json:"children,omitempty"`
}

type jsonDoc struct {
	Format  string     `json:"format"`
	Version int        `json:"version"`
	Title   string     `json:"title,omitempty"`
	Root    *jsonEntry `json:"root"`
}

// WriteJSON writes doc as a JSON tree.
func WriteJSON(w io.Writer, doc *Document) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(jsonDoc{Format: JSONFormat, Version: 1, Title: doc.Title, Root: toJSON(doc.Root)})
}

func toJSON(e *Entry) *jsonEntry {
	j := &jsonEntry{Kind: e.Kind, Title: e.Title, URL: e.URL, Notes: e.Notes, Body: e.Body, Tags: e.Tags,
		Added: isoTime(e.Added), Modified: isoTime(e.Modified), Purpose: e.Purpose, CreateOnly: e.CreateOnly,
		Author: e.Author, Email: e.Email, Image: e.Image, Order: e.Order}
	if e.Kind == View {
		j.View = &jsonView{Name: e.ViewName, Query: e.ViewQuery}
	}
	for _, c := range e.Children {
		j.Children = append(j.Children, toJSON(c))
	}
	return j
}

func isoTime(sec int64) string {
	if sec <= 0 {
		return ""
	}
	return time.Unix(sec, 0).UTC().Format(time.RFC3339)
}

// ReadJSON reads a JSON tree.
func ReadJSON(data []byte) (*Document, error) {
	if err := checkInput("json", data); err != nil {
		return nil, err
	}
	r := &jsonReader{data: data, dec: json.NewDecoder(bytes.NewReader(data)), count: counter{format: "json"}}
	doc, err := r.document()
	if err != nil {
		return nil, r.wrap(err)
	}
	return doc, nil
}

type jsonReader struct {
	data  []byte
	dec   *json.Decoder
	count counter
}

// fail makes an *Error at the decoder's position.
func (r *jsonReader) fail(format string, args ...any) error {
	return &Error{Format: "json", Line: lineAt(r.data, int(r.dec.InputOffset())), Msg: fmt.Sprintf(format, args...)}
}

// wrap gives a decoding error the line where it happened.
func (r *jsonReader) wrap(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return &Error{Format: "json", Line: lineAt(r.data, int(syn.Offset)), Msg: syn.Error()}
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return &Error{Format: "json", Line: lineAt(r.data, int(typ.Offset)), Msg: fmt.Sprintf("%q must be %s, not %s", typ.Field, typ.Type, typ.Value)}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{Format: "json", Line: lineAt(r.data, len(r.data)), Msg: "the file ends too early: is it cut short?"}
	}
	return &Error{Format: "json", Line: lineAt(r.data, int(r.dec.InputOffset())), Msg: err.Error()}
}

func (r *jsonReader) delim(want json.Delim) error {
	t, err := r.dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != want {
		return r.fail("expected %q here", string(want))
	}
	return nil
}

func (r *jsonReader) key() (string, error) {
	t, err := r.dec.Token()
	if err != nil {
		return "", err
	}
	k, ok := t.(string)
	if !ok {
		return "", r.fail("expected a field name")
	}
	return k, nil
}

func (r *jsonReader) document() (*Document, error) {
	if err := r.delim('{'); err != nil {
		return nil, err
	}
	doc := &Document{Format: "json"}
	for r.dec.More() {
		k, err := r.key()
		if err != nil {
			return nil, err
		}
		switch k {
		case "format":
			var f string
			if err := r.dec.Decode(&f); err != nil {
				return nil, err
			}
			if f != JSONFormat {
				return nil, r.fail("format %q is not %q", clip(f, 40), JSONFormat)
			}
		case "version":
			var v int
			if err := r.dec.Decode(&v); err != nil {
				return nil, err
			}
			if v != 1 {
				return nil, r.fail("version %d is not one this Mundaneum reads (1)", v)
			}
		case "title":
			if err := r.dec.Decode(&doc.Title); err != nil {
				return nil, err
			}
		case "root":
			if doc.Root, err = r.entry(0); err != nil {
				return nil, err
			}
		default:
			var skip json.RawMessage
			if err := r.dec.Decode(&skip); err != nil {
				return nil, err
			}
		}
	}
	if err := r.delim('}'); err != nil {
		return nil, err
	}
	if _, err := r.dec.Token(); !errors.Is(err, io.EOF) {
		return nil, r.fail("more after the end of the tree")
	}
	if doc.Root == nil {
		return nil, &Error{Format: "json", Line: 1, Msg: `no "root": this is not a Mundaneum library tree`}
	}
	if doc.Root.Kind != Folder {
		return nil, &Error{Format: "json", Line: doc.Root.Line, Msg: `the root must be of kind "library"`}
	}
	return doc, nil
}

func (r *jsonReader) entry(depth int) (*Entry, error) {
	if depth > MaxDepth {
		return nil, r.fail("libraries nested more than %d deep", MaxDepth)
	}
	if err := r.delim('{'); err != nil {
		return nil, err
	}
	e := &Entry{Line: lineAt(r.data, int(r.dec.InputOffset())-1)}
	if err := r.count.add(e.Line); err != nil {
		return nil, err
	}
	var added, modified json.RawMessage
	var view *jsonView
	for r.dec.More() {
		k, err := r.key()
		if err != nil {
			return nil, err
		}
		var dst any
		switch k {
		case "kind":
			dst = &e.Kind
		case "title":
			dst = &e.Title
		case "url":
			dst = &e.URL
		case "notes":
			dst = &e.Notes
		case "body":
			dst = &e.Body
		case "tags":
			dst = &e.Tags
		case "added":
			dst = &added
		case "modified":
			dst = &modified
		case "purpose":
			dst = &e.Purpose
		case "createOnly":
			dst = &e.CreateOnly
		case "author":
			dst = &e.Author
		case "email":
			dst = &e.Email
		case "image":
			dst = &e.Image
		case "order":
			dst = &e.Order
		case "view":
			dst = &view
		case "children":
			if err := r.delim('['); err != nil {
				return nil, err
			}
			for r.dec.More() {
				c, err := r.entry(depth + 1)
				if err != nil {
					return nil, err
				}
				e.Children = append(e.Children, c)
			}
			if err := r.delim(']'); err != nil {
				return nil, err
			}
			continue
		default:
			dst = new(json.RawMessage)
		}
		if err := r.dec.Decode(dst); err != nil {
			var typ *json.UnmarshalTypeError
			if errors.As(err, &typ) {
				return nil, r.fail("%q must be %s, not %s", k, typ.Type, typ.Value)
			}
			return nil, err
		}
	}
	if err := r.delim('}'); err != nil {
		return nil, err
	}
	switch e.Kind {
	case Folder, Link, Report:
	case View:
		if view == nil || view.Name == "" || view.Query == "" {
			return nil, &Error{Format: "json", Line: e.Line, Msg: `a view needs "view": {"name": ..., "query": ...}`}
		}
		e.ViewName, e.ViewQuery = view.Name, view.Query
	default:
		return nil, &Error{Format: "json", Line: e.Line, Msg: fmt.Sprintf("kind %q is not library, pointer, report or view", clip(string(e.Kind), 40))}
	}
	if len(e.Children) > 0 && e.Kind != Folder {
		return nil, &Error{Format: "json", Line: e.Line, Msg: fmt.Sprintf("a %s has no children: only a library does", e.Kind)}
	}
	for _, f := range []string{e.Title, e.URL, e.Notes, e.Body, e.Purpose, e.Image} {
		if len(f) > MaxField {
			return nil, &Error{Format: "json", Line: e.Line, Msg: fmt.Sprintf("a field longer than %d MiB", MaxField>>20)}
		}
	}
	var err error
	if e.Added, err = jsonTime(added); err != nil {
		return nil, &Error{Format: "json", Line: e.Line, Msg: "added: " + err.Error()}
	}
	if e.Modified, err = jsonTime(modified); err != nil {
		return nil, &Error{Format: "json", Line: e.Line, Msg: "modified: " + err.Error()}
	}
	return e, nil
}

// jsonTime reads a time given as RFC 3339 text or unix seconds.
func jsonTime(raw json.RawMessage) (int64, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if s == "" {
			return 0, nil
		}
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return 0, fmt.Errorf("%q is not an RFC 3339 time", clip(s, 40))
		}
		return t.Unix(), nil
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s is not a time", clip(string(raw), 40))
	}
	return n, nil
}

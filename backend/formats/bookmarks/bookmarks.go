// Package bookmarks reads and writes the interchange formats of a tree of links: the
// Netscape bookmark file every browser imports and exports, a pasted list of URLs or
// Markdown links, and Mundaneum's JSON tree (which keeps everything the library holds).
// It is a leaf: it imports no other package of the project.
//
// Every reader takes hostile input: it is bounded in size, depth and entries, never
// panics, and fails with an *Error that names the line. Entries it cannot take (a
// bookmark with no address) are left out and listed as Problems, also by line; whether an
// address is one worth keeping (http or https) is the caller's decision.
package bookmarks

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// Kind is what an entry is.
type Kind string

// The kinds of entry.
const (
	Folder Kind = "library" // a folder (a library)
	Link   Kind = "pointer" // a bookmark: a title and a URL
	Report Kind = "report"  // a title and Markdown text (JSON tree only)
	View   Kind = "view"    // a saved search placed in the tree (JSON tree only)
)

// Entry is one folder, link, report or view, with its children in order.
type Entry struct {
	Kind  Kind
	Title string
	URL   string
	// Notes is a link's or folder's description (Netscape's <DD>).
	Notes string
	// Keyword is a link's keyword (Firefox's SHORTCUTURL), FeedURL a live bookmark's feed
	// (Firefox's FEEDURL): kept for a round trip through the Netscape format.
	Keyword, FeedURL string
	Body             string // a report's Markdown
	Tags             []string
	// Added and Modified are unix seconds (0 when unknown).
	Added, Modified int64
	// The JSON tree's other fields.
	Purpose    string
	CreateOnly bool
	Author     string
	Email      string
	Image      string // a data: URL
	Order      string // a folder's order: title, date or manual
	ViewName   string
	ViewQuery  string
	Line       int // where the entry starts in the input (1-based)
	Children   []*Entry
}

// Problem is an entry left out of what was read, and why.
type Problem struct {
	Line   int
	Reason string
}

// Document is what a reader found.
type Document struct {
	Format   string // netscape, list or json
	Title    string // the document's title (Netscape's <H1>), if any
	Root     *Entry // a folder holding the top level
	Problems []Problem
	// Warnings are what was read and not kept as written, the entries themselves kept: a
	// date that is no date, and each attribute no field holds (once, with how many
	// entries carried it, at the line of the first).
	Warnings []Problem
}

// Error is a reader's failure: the input is not what it should be, at Line.
type Error struct {
	Format string
	Line   int
	Msg    string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s: line %d: %s", e.Format, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Format, e.Msg)
}

// Limits of every reader.
const (
	MaxBytes   = 64 << 20  // input size
	MaxDepth   = 64        // folders within folders
	MaxEntries = 1_000_000 // entries of all kinds
	MaxField   = 1 << 20   // one title, URL, description or body
)

// Read sniffs the format of data (Netscape HTML, a JSON tree, else a list of links) and
// reads it.
func Read(data []byte) (*Document, error) {
	switch Sniff(data) {
	case "netscape":
		return ReadNetscape(data)
	case "json":
		return ReadJSON(data)
	}
	return ReadList(data)
}

// Sniff names the format of data: "netscape", "json" or "list".
func Sniff(data []byte) string {
	head := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	switch {
	case len(head) > 0 && head[0] == '{':
		return "json"
	case len(head) > 0 && head[0] == '<':
		return "netscape"
	}
	return "list"
}

// checkInput refuses input that no reader should take: too large, not UTF-8, or with NUL
// bytes; it names the first bad line.
func checkInput(format string, data []byte) error {
	if len(data) > MaxBytes {
		return &Error{Format: format, Msg: fmt.Sprintf("the file is larger than %d MiB", MaxBytes>>20)}
	}
	if utf8.Valid(data) && bytes.IndexByte(data, 0) < 0 {
		return nil
	}
	line := 1
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return &Error{Format: format, Line: line, Msg: "the text is not UTF-8 (save the file as UTF-8)"}
		case r == 0:
			return &Error{Format: format, Line: line, Msg: "a NUL byte: this is not a text file"}
		case r == '\n':
			line++
		}
		i += n
	}
	return nil
}

// lineAt is the 1-based line of byte offset off in data.
func lineAt(data []byte, off int) int {
	off = min(max(off, 0), len(data))
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

// counter bounds the entries a reader makes.
type counter struct {
	format string
	n      int
}

func (c *counter) add(line int) error {
	c.n++
	if c.n > MaxEntries {
		return &Error{Format: c.format, Line: line, Msg: fmt.Sprintf("more than %d entries", MaxEntries)}
	}
	return nil
}

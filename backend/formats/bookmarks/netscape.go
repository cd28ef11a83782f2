package bookmarks

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"

	xhtml "golang.org/x/net/html"
)

// The Netscape bookmark file (NETSCAPE-Bookmark-file-1): an HTML list whose folders are
// <DT><H3>title</H3> followed by their own <DL>, whose bookmarks are <DT><A HREF ...>title</A>,
// each optionally followed by <DD>description. Browsers add ADD_DATE and LAST_MODIFIED
// (unix seconds) and some (Firefox, Pinboard, linkding) TAGS="a,b".
//
// The reader tokenises with golang.org/x/net/html and keeps the structure by hand: it is
// lenient about what browsers leave out (closing </DT>, <p>) and strict about what means the
// file is broken or cut short: a folder or bookmark never closed, folders nested too deep.

// ReadNetscape reads a Netscape bookmark file.
func ReadNetscape(data []byte) (*Document, error) {
	if err := checkInput("netscape", data); err != nil {
		return nil, err
	}
	r := &nsReader{doc: &Document{Format: "netscape", Root: &Entry{Kind: Folder, Line: 1}}, count: counter{format: "netscape"}}
	if err := r.read(data); err != nil {
		return nil, err
	}
	return r.doc, nil
}

type nsFrame struct {
	folder *Entry
	line   int // where its <DL> is
	named  bool
}

type nsReader struct {
	doc     *Document
	count   counter
	stack   []nsFrame
	pending *Entry // a folder whose <H3> was read, waiting for its <DL>
	last    *Entry // the entry a <DD> describes
	// capture collects the text of an <A>, <H3>, <H1> or <DD>.
	capture    *strings.Builder
	captureTag string
	captureTo  *Entry // nil for <H1>
	captureAt  int
	skip       bool // the <A> being read has no address
	sawList    bool
}

func (r *nsReader) fail(line int, format string, args ...any) error {
	return &Error{Format: "netscape", Line: line, Msg: fmt.Sprintf(format, args...)}
}

// depth is how many folders are open.
func (r *nsReader) depth() int {
	n := 0
	for _, f := range r.stack {
		if f.named {
			n++
		}
	}
	return n
}

func (r *nsReader) current() *Entry {
	if len(r.stack) == 0 {
		return r.doc.Root
	}
	return r.stack[len(r.stack)-1].folder
}

func (r *nsReader) read(data []byte) error {
	z := xhtml.NewTokenizer(bytes.NewReader(data))
	z.SetMaxBuf(2 * MaxField)
	line := 1
	for {
		tt := z.Next()
		at := line
		line += bytes.Count(z.Raw(), []byte{'\n'})
		switch tt {
		case xhtml.ErrorToken:
			err := z.Err()
			if errors.Is(err, io.EOF) {
				return r.finish(at)
			}
			if errors.Is(err, xhtml.ErrBufferExceeded) {
				return r.fail(at, "a tag or text longer than %d MiB", 2*MaxField>>20)
			}
			return r.fail(at, "%v", err)
		case xhtml.TextToken:
			if r.capture != nil {
				if r.capture.Len()+len(z.Raw()) > MaxField {
					return r.fail(r.captureAt, "a title or description longer than %d MiB", MaxField>>20)
				}
				r.capture.Write(z.Text())
			}
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			attrs := map[string]string{}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				attrs[string(k)] = string(v)
			}
			if err := r.start(string(name), attrs, at); err != nil {
				return err
			}
		case xhtml.EndTagToken:
			name, _ := z.TagName()
			if err := r.end(string(name), at); err != nil {
				return err
			}
		}
	}
}

func (r *nsReader) begin(tag string, to *Entry, line int) {
	r.capture, r.captureTag, r.captureTo, r.captureAt = &strings.Builder{}, tag, to, line
}

// close ends the text being collected, if any, and gives it to its entry.
func (r *nsReader) close() {
	if r.capture == nil {
		return
	}
	text := r.capture.String()
	switch r.captureTag {
	case "dd":
		if r.captureTo != nil {
			r.captureTo.Notes = strings.TrimSpace(text)
		}
	case "h1":
		r.doc.Title = oneLine(text)
	default:
		r.captureTo.Title = oneLine(text)
	}
	r.capture, r.captureTo = nil, nil
}

func (r *nsReader) add(e *Entry) error {
	if err := r.count.add(e.Line); err != nil {
		return err
	}
	cur := r.current()
	cur.Children = append(cur.Children, e)
	return nil
}

func (r *nsReader) start(tag string, attrs map[string]string, line int) error {
	switch tag {
	case "h1":
		r.close()
		r.begin("h1", nil, line)
	case "h3":
		r.close()
		f := &Entry{Kind: Folder, Line: line, Added: unixSeconds(attrs["add_date"]), Modified: unixSeconds(attrs["last_modified"])}
		if err := r.add(f); err != nil {
			return err
		}
		r.pending, r.last = f, f
		r.begin("h3", f, line)
	case "a":
		r.close()
		e := &Entry{Kind: Link, Line: line, URL: strings.TrimSpace(attrs["href"]), Added: unixSeconds(attrs["add_date"]),
			Modified: unixSeconds(attrs["last_modified"]), Tags: splitTags(attrs["tags"])}
		if len(e.URL) > MaxField {
			return r.fail(line, "an address longer than %d MiB", MaxField>>20)
		}
		r.skip = e.URL == ""
		if r.skip {
			r.doc.Problems = append(r.doc.Problems, Problem{Line: line, Reason: "a bookmark with no address"})
		} else if err := r.add(e); err != nil {
			return err
		}
		r.last = e
		r.begin("a", e, line)
	case "dd":
		r.close()
		r.begin("dd", r.last, line)
		r.last = nil // one description per entry
	case "dl":
		r.close()
		r.sawList = true
		if r.pending != nil && r.depth() >= MaxDepth {
			return r.fail(line, "folders nested more than %d deep", MaxDepth)
		}
		if r.pending == nil && len(r.stack) >= 2*MaxDepth {
			return r.fail(line, "lists nested more than %d deep", 2*MaxDepth)
		}
		if r.pending != nil {
			r.stack = append(r.stack, nsFrame{folder: r.pending, line: line, named: true})
		} else {
			r.stack = append(r.stack, nsFrame{folder: r.current(), line: line})
		}
		r.pending, r.last = nil, nil
	case "dt", "hr":
		if r.captureTag == "dd" {
			r.close()
		}
	}
	return nil
}

func (r *nsReader) end(tag string, line int) error {
	switch tag {
	case "a", "h3", "h1":
		if r.captureTag == tag && r.capture != nil {
			r.close()
		}
	case "dl":
		r.close()
		if len(r.stack) == 0 {
			r.doc.Problems = append(r.doc.Problems, Problem{Line: line, Reason: "a </DL> that closes no folder"})
			return nil
		}
		r.stack = r.stack[:len(r.stack)-1]
		r.pending, r.last = nil, nil
	}
	return nil
}

func (r *nsReader) finish(line int) error {
	if r.capture != nil && r.captureTag != "dd" {
		return r.fail(r.captureAt, "the <%s> that starts here is never closed: is the file cut short?", strings.ToUpper(r.captureTag))
	}
	r.close()
	if n := len(r.stack); n > 0 {
		f := r.stack[n-1]
		what := "the list"
		if f.named {
			what = fmt.Sprintf("the folder %q", clip(f.folder.Title, 60))
		}
		return r.fail(f.line, "%s that opens here is never closed (no </DL>): is the file cut short?", what)
	}
	if !r.sawList && r.count.n == 0 {
		return r.fail(1, "no bookmarks here: this is not a Netscape bookmark file (browsers export one with \"Export bookmarks to HTML\")")
	}
	return nil
}

// oneLine collapses runs of white space (new lines included) into single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// splitTags reads a TAGS attribute ("a,b, c").
func splitTags(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range strings.Split(s, ",") {
		t = oneLine(t)
		if t != "" && !seen[strings.ToLower(t)] {
			seen[strings.ToLower(t)] = true
			out = append(out, t)
		}
	}
	return out
}

// unixSeconds reads an ADD_DATE: unix seconds, or milli- or microseconds as some exporters
// write them. Anything else is 0 (unknown).
func unixSeconds(s string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	switch {
	case err != nil || n <= 0:
		return 0
	case n > 1e14:
		return n / 1e6
	case n > 1e11:
		return n / 1e3
	}
	return n
}

// WriteNetscape writes doc's folders and links as a Netscape bookmark file (reports and
// views have no place in it: the caller turns what it can into links first).
func WriteNetscape(w io.Writer, doc *Document) error {
	bw := bufio.NewWriter(w)
	title := doc.Title
	if title == "" {
		title = "Bookmarks"
	}
	bw.WriteString(`<!DOCTYPE NETSCAPE-Bookmark-file-1>
<!-- This is an automatically generated file.
     It will be read and overwritten.
     DO NOT EDIT! -->
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'none'; img-src data: *; object-src 'none'">
<TITLE>Bookmarks</TITLE>
<H1>` + html.EscapeString(title) + "</H1>\n\n")
	writeNSList(bw, doc.Root, 0)
	return bw.Flush()
}

func writeNSList(w *bufio.Writer, folder *Entry, depth int) {
	indent := strings.Repeat("    ", depth)
	w.WriteString(indent + "<DL><p>\n")
	for _, e := range folder.Children {
		switch e.Kind {
		case Folder:
			w.WriteString(indent + "    <DT><H3" + nsDates(e) + ">" + html.EscapeString(e.Title) + "</H3>\n")
			if e.Notes != "" {
				w.WriteString(indent + "    <DD>" + html.EscapeString(e.Notes) + "\n")
			}
			writeNSList(w, e, depth+1)
		case Link:
			w.WriteString(indent + `    <DT><A HREF="` + html.EscapeString(e.URL) + `"` + nsDates(e))
			if len(e.Tags) > 0 {
				w.WriteString(` TAGS="` + html.EscapeString(strings.Join(e.Tags, ",")) + `"`)
			}
			w.WriteString(">" + html.EscapeString(e.Title) + "</A>\n")
			if e.Notes != "" {
				w.WriteString(indent + "    <DD>" + html.EscapeString(e.Notes) + "\n")
			}
		}
	}
	w.WriteString(indent + "</DL><p>\n")
}

func nsDates(e *Entry) string {
	s := ""
	if e.Added > 0 {
		s += ` ADD_DATE="` + strconv.FormatInt(e.Added, 10) + `"`
	}
	if e.Modified > 0 {
		s += ` LAST_MODIFIED="` + strconv.FormatInt(e.Modified, 10) + `"`
	}
	return s
}

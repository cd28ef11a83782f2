package bookmarks

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"html"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	xhtml "golang.org/x/net/html"
)

// The Netscape bookmark file (NETSCAPE-Bookmark-file-1): an HTML list whose folders are
// <DT><H3>title</H3> followed by their own <DL>, whose bookmarks are <DT><A HREF ...>title</A>,
// each optionally followed by <DD>description. Browsers add ADD_DATE and LAST_MODIFIED
// (unix seconds; linkding's in milli- and microseconds too, Shaarli's sometimes as an Apache
// log's "10/Oct/2000:13:55:36 +0300") and some TAGS: separated by commas (Firefox,
// Pinboard, linkding) or by spaces (Shaarli). A file whose TAGS hold a comma anywhere, or
// that carries the Content-Security-Policy meta Firefox's and Mundaneum's exports write,
// separates by commas (a tag may hold spaces); any other by white space. Firefox's
// SHORTCUTURL (a keyword) and FEEDURL (a live bookmark's feed) are kept; every other
// attribute with something to say (a favicon, PRIVATE="1", ...) is named in the document's
// Warnings.
//
// The reader tokenises with golang.org/x/net/html and keeps the structure by hand: it is
// lenient about what browsers leave out (closing </DT>, <p>) and strict about what means the
// file is broken or cut short: a folder or bookmark never closed, folders nested too deep.

// ReadNetscape reads a Netscape bookmark file.
func ReadNetscape(data []byte) (*Document, error) {
	if err := checkInput("netscape", data); err != nil {
		return nil, err
	}
	r := &nsReader{doc: &Document{Format: "netscape", Root: &Entry{Kind: Folder, Line: 1}}, count: counter{format: "netscape"},
		rawTags: map[*Entry]string{}, dropped: map[string]*droppedAttr{}}
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
	// Tags are split once the whole file has said how (see the package comment).
	rawTags map[*Entry]string
	commas  bool
	// dropped are the attributes no field holds, by name, in the order first seen.
	dropped map[string]*droppedAttr
	order   []string
}

type droppedAttr struct{ n, line int }

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
	case "meta":
		if strings.EqualFold(attrs["http-equiv"], "content-security-policy") {
			r.commas = true // Firefox's export (and Mundaneum's)
		}
	case "h3":
		r.close()
		f := &Entry{Kind: Folder, Line: line, Added: r.date(attrs, "add_date", line), Modified: r.date(attrs, "last_modified", line)}
		r.unkept(attrs, line, "add_date", "last_modified")
		if err := r.add(f); err != nil {
			return err
		}
		r.pending, r.last = f, f
		r.begin("h3", f, line)
	case "a":
		r.close()
		e := &Entry{Kind: Link, Line: line, URL: strings.TrimSpace(attrs["href"]), Added: r.date(attrs, "add_date", line),
			Modified: r.date(attrs, "last_modified", line), Keyword: oneLine(attrs["shortcuturl"]),
			FeedURL: strings.TrimSpace(attrs["feedurl"])}
		if len(e.URL) > MaxField || len(e.FeedURL) > MaxField {
			return r.fail(line, "an address longer than %d MiB", MaxField>>20)
		}
		if t := attrs["tags"]; t != "" {
			r.rawTags[e] = t
			r.commas = r.commas || strings.Contains(t, ",")
		}
		r.unkept(attrs, line, "href", "add_date", "last_modified", "tags", "shortcuturl", "feedurl")
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
	for e, raw := range r.rawTags {
		if r.commas {
			e.Tags = splitTags(raw)
		} else {
			e.Tags = splitTags(strings.Join(strings.Fields(raw), ","))
		}
	}
	for _, name := range r.order {
		d := r.dropped[name]
		what := attrNames[name]
		if what == "" {
			what = strings.ToUpper(name)
		} else {
			what += " (" + strings.ToUpper(name) + ")"
		}
		entries := "entries"
		if d.n == 1 {
			entries = "entry"
		}
		r.doc.Warnings = append(r.doc.Warnings, Problem{Line: d.line,
			Reason: fmt.Sprintf("the %s of %d %s left out, the first here: nothing keeps it", what, d.n, entries)})
	}
	slices.SortStableFunc(r.doc.Warnings, func(a, b Problem) int { return a.Line - b.Line })
	return nil
}

// attrNames say what the attributes browsers and bookmark services add mean, for the
// warning that leaves them out.
var attrNames = map[string]string{"icon": "favicon", "icon_uri": "favicon address", "private": "private flag",
	"toread": "to-read flag", "post_data": "POST data of a keyword search", "web_panel": "sidebar flag",
	"last_charset": "character set", "last_visit": "last visit time", "personal_toolbar_folder": "toolbar folder flag",
	"unfiled_bookmarks_folder": "unsorted bookmarks flag"}

// unkept notes the attributes of an entry that no field holds, except those that say
// nothing (empty, "0", "false") and Firefox's internal ID.
func (r *nsReader) unkept(attrs map[string]string, line int, kept ...string) {
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		v := strings.TrimSpace(attrs[name])
		if slices.Contains(kept, name) || name == "id" || v == "" || v == "0" || strings.EqualFold(v, "false") {
			continue
		}
		d := r.dropped[name]
		if d == nil {
			if len(r.dropped) >= maxDropped {
				continue
			}
			d = &droppedAttr{line: line}
			r.dropped[name] = d
			r.order = append(r.order, name)
		}
		d.n++
	}
}

// maxDropped bounds the distinct attributes a file may be warned about.
const maxDropped = 64

// date reads a date attribute; one that is there and is no date is a warning (the entry
// is kept, its date unknown).
func (r *nsReader) date(attrs map[string]string, name string, line int) int64 {
	s := strings.TrimSpace(attrs[name])
	if s == "" {
		return 0
	}
	if n, ok := parseDate(s); ok {
		return n
	}
	if len(r.doc.Warnings) < maxWarnings {
		r.doc.Warnings = append(r.doc.Warnings, Problem{Line: line,
			Reason: fmt.Sprintf("%s %q is not a date: left out (the import's time stands in)", strings.ToUpper(name), clip(s, 60))})
	}
	return 0
}

// maxWarnings bounds the dates a file may be warned about.
const maxWarnings = 1000

// dateLayouts are the textual dates bookmark files hold: Shaarli's test files (an Apache
// log's), RFC 3339 and the HTTP and e-mail forms, and plain ISO dates.
var dateLayouts = []string{"02/Jan/2006:15:04:05 -0700", time.RFC3339, time.RFC1123Z, time.RFC1123, time.RFC850,
	time.ANSIC, "2006-01-02 15:04:05", "2006-01-02T15:04:05", "20060102_150405", "2006-01-02"}

// parseDate reads an ADD_DATE or LAST_MODIFIED: unix seconds (milli- or microseconds as
// some exporters write them) or a textual date; zero or negative numbers are unknown
// dates.
func parseDate(s string) (int64, bool) {
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return unixSeconds(s), true
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil && t.Unix() > 0 {
			return t.Unix(), true
		}
	}
	return 0, false
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
			if e.Keyword != "" {
				w.WriteString(` SHORTCUTURL="` + html.EscapeString(e.Keyword) + `"`)
			}
			if e.FeedURL != "" {
				w.WriteString(` FEEDURL="` + html.EscapeString(e.FeedURL) + `"`)
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

// Package wwww reads and writes the archive of the World Wide Web Worm (McBryan, 1994,
// section 3.2.1): a text file with one line per fact a crawl learnt.
//
//	T html title           an HTML file opened for reading, with its title
//	R url html anchor      a URL referenced by an opened HTML file, with its anchor text
//	I url html text        an inlined image of an opened HTML file, with the text around it
//	C html                 an opened HTML file whose references are all processed
//
// A file without a title gets the title "Zero Length Title", as in the paper; the Reader
// turns it back into an empty title. The fields are separated by one space; URLs hold none,
// so the text is the rest of the line. A rerun of the crawl skips every HTML file with a C
// line (section 3.2.2).
//
// It is a leaf: it imports no other package of the project. The Reader takes hostile input:
// lines are bounded, a line it cannot read is reported by number and skipped.
package wwww

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Kinds of line.
const (
	Title    = 'T'
	Ref      = 'R'
	Image    = 'I'
	Complete = 'C'
)

// ZeroLengthTitle is what the archive says for an HTML file without a title.
const ZeroLengthTitle = "Zero Length Title"

// MaxLine bounds a line, in bytes; longer lines are reported and skipped.
const MaxLine = 64 << 10

// Line is one line of an archive.
type Line struct {
	Kind byte   // Title, Ref, Image or Complete
	URL  string // T and C: the HTML file; R and I: the referenced URL
	HTML string // R and I: the HTML file that references URL
	Text string // T: the title; R: the anchor text; I: the text associated with the image
	N    int    // line number (from 1), when read
}

// LineError is a line the Reader could not read; reading goes on after it.
type LineError struct {
	N   int
	Err error
}

func (e *LineError) Error() string { return fmt.Sprintf("wwww: line %d: %v", e.N, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// Reader reads an archive a line at a time.
type Reader struct {
	r   *bufio.Reader
	n   int
	err error
}

// NewReader returns a Reader of r.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReaderSize(r, 64<<10)} }

// Next returns the next line, io.EOF after the last, or a *LineError for a line that cannot
// be read (call Next again to go on). Blank lines are skipped.
func (r *Reader) Next() (Line, error) {
	for {
		if r.err != nil {
			return Line{}, r.err
		}
		raw, long, err := r.line()
		if err != nil && !errors.Is(err, io.EOF) {
			r.err = fmt.Errorf("wwww: %w", err)
			return Line{}, r.err
		}
		if errors.Is(err, io.EOF) && len(raw) == 0 && !long {
			r.err = io.EOF
			return Line{}, io.EOF
		}
		r.n++
		if long {
			return Line{}, &LineError{N: r.n, Err: fmt.Errorf("longer than %d bytes", MaxLine)}
		}
		s := strings.TrimRight(string(raw), "\r\n")
		if strings.TrimSpace(s) == "" {
			continue
		}
		l, perr := parse(s)
		if perr != nil {
			return Line{}, &LineError{N: r.n, Err: perr}
		}
		l.N = r.n
		return l, nil
	}
}

// line reads one line; long reports one over MaxLine (consumed, not returned).
func (r *Reader) line() (raw []byte, long bool, err error) {
	for {
		frag, err := r.r.ReadSlice('\n')
		if !long && len(raw)+len(frag) <= MaxLine {
			raw = append(raw, frag...)
		} else {
			long, raw = true, nil
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return raw, long, err
	}
}

func parse(s string) (Line, error) {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if len(s) < 2 || !isSpace(rune(s[1])) {
		return Line{}, fmt.Errorf("not a T, R, I or C line: %q", clip(s))
	}
	kind := s[0]
	rest := s[2:]
	field := func() string {
		rest = strings.TrimLeftFunc(rest, isSpace)
		i := strings.IndexFunc(rest, isSpace)
		if i < 0 {
			i = len(rest)
		}
		f := rest[:i]
		rest = rest[i:]
		return f
	}
	var l Line
	switch kind {
	case Title:
		l = Line{Kind: kind, URL: field(), Text: oneLine(rest)}
		if l.Text == ZeroLengthTitle {
			l.Text = ""
		}
	case Ref, Image:
		l = Line{Kind: kind, URL: field()}
		l.HTML = field()
		l.Text = oneLine(rest)
		if l.HTML == "" {
			return Line{}, fmt.Errorf("%c line without the HTML file that references %q", kind, clip(l.URL))
		}
	case Complete:
		l = Line{Kind: kind, URL: field()}
		if strings.TrimSpace(rest) != "" {
			//lint:ignore ST1005 "C" is the line type's name, as in the format's spec
			return Line{}, fmt.Errorf("C line with more than a URL: %q", clip(s))
		}
	default:
		return Line{}, fmt.Errorf("unknown line type %q", string(kind))
	}
	if l.URL == "" {
		return Line{}, fmt.Errorf("%c line without a URL", kind)
	}
	return l, nil
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// Writer writes an archive.
type Writer struct {
	w   *bufio.Writer
	err error
}

// NewWriter returns a Writer to w; call Flush at the end.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriterSize(w, 64<<10)} }

// Write writes one line. A URL must not be empty or hold white space; text has its line
// breaks and runs of white space collapsed.
func (w *Writer) Write(l Line) error {
	if w.err != nil {
		return w.err
	}
	if err := checkURL(l.URL); err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteByte(l.Kind)
	b.WriteByte(' ')
	b.WriteString(l.URL)
	switch l.Kind {
	case Title:
		t := oneLine(l.Text)
		if t == "" {
			t = ZeroLengthTitle
		}
		b.WriteByte(' ')
		b.WriteString(t)
	case Ref, Image:
		if err := checkURL(l.HTML); err != nil {
			return err
		}
		b.WriteByte(' ')
		b.WriteString(l.HTML)
		if t := oneLine(l.Text); t != "" {
			b.WriteByte(' ')
			b.WriteString(t)
		}
	case Complete:
	default:
		return fmt.Errorf("wwww: unknown line type %q", string(l.Kind))
	}
	if b.Len() > MaxLine-1 { // cut the text, on a rune boundary
		n := MaxLine - 1
		for n > 0 && !utf8.RuneStart(b.Bytes()[n]) {
			n--
		}
		if l.Kind == Complete || n <= len(l.URL)+len(l.HTML)+3 {
			return fmt.Errorf("wwww: line for %s longer than %d bytes", clip(l.URL), MaxLine)
		}
		b.Truncate(n)
	}
	b.WriteByte('\n')
	_, w.err = w.w.Write(b.Bytes())
	return w.err
}

// Flush writes what is buffered.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	w.err = w.w.Flush()
	return w.err
}

func checkURL(u string) error {
	if u == "" || strings.IndexFunc(u, isSpace) >= 0 {
		return fmt.Errorf("wwww: URL %q is empty or holds white space", clip(u))
	}
	return nil
}

func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f'
}

// oneLine collapses white space (line breaks included) to single spaces.
func oneLine(s string) string { return strings.Join(strings.FieldsFunc(s, isSpace), " ") }

package soif

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// Writer writes templates in canonical form. It buffers: call Flush at the end.
type Writer struct {
	w   *bufio.Writer
	n   int64
	err error
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10)}
}

// Offset is how many bytes have been written so far.
func (w *Writer) Offset() int64 { return w.n }

// Write writes one template. A type or attribute name that is not letters, digits and
// - _ . or a URL that is not one trimmed line is refused (the stream would not read back).
func (w *Writer) Write(t *Template) error {
	if w.err != nil {
		return w.err
	}
	if !validName(t.Type) {
		return fmt.Errorf("soif: template type %q is not a name", t.Type)
	}
	if !validURL(t.URL) {
		return fmt.Errorf("soif: template URL %q is not one line", t.URL)
	}
	for _, a := range t.Attrs {
		if !validName(a.Name) {
			return fmt.Errorf("soif: attribute name %q is not a name", a.Name)
		}
	}
	w.put("@", t.Type, " { ", t.URL, "\n")
	var num [20]byte
	for _, a := range t.Attrs {
		w.put(a.Name, "{", string(strconv.AppendInt(num[:0], int64(len(a.Value)), 10)), "}:\t")
		w.putBytes(a.Value)
		w.put("\n")
	}
	w.put("}\n\n")
	return w.err
}

func (w *Writer) put(ss ...string) {
	for _, s := range ss {
		if w.err != nil {
			return
		}
		var n int
		n, w.err = w.w.WriteString(s)
		w.n += int64(n)
	}
}

func (w *Writer) putBytes(b []byte) {
	if w.err != nil {
		return
	}
	var n int
	n, w.err = w.w.Write(b)
	w.n += int64(n)
}

// Flush writes out what is buffered.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	w.err = w.w.Flush()
	return w.err
}

package warc

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Writer writes WARC/1.1 records.
type Writer struct {
	w    io.Writer
	gz   *gzip.Writer // nil: uncompressed
	buf  bytes.Buffer
	n    int64 // bytes written
	errd error
}

// NewWriter returns a Writer to w; with compress, each record is its own gzip member (so
// that readers can seek to any record, as CDX indexes do).
func NewWriter(w io.Writer, compress bool) *Writer {
	wr := &Writer{w: w}
	if compress {
		wr.gz, _ = gzip.NewWriterLevel(io.Discard, gzip.DefaultCompression)
	}
	return wr
}

// Offset is how many bytes have been written: the offset of the next record.
func (w *Writer) Offset() int64 { return w.n }

// WriteRecord writes one record with block as its content. It fills in WARC-Record-ID,
// Content-Length and WARC-Block-Digest when h lacks them; WARC-Type and WARC-Date are the
// caller's. Field values must not hold line breaks.
func (w *Writer) WriteRecord(h Header, block []byte) error {
	if w.errd != nil {
		return w.errd
	}
	if h.Type() == "" || h.Get("WARC-Date") == "" {
		return fmt.Errorf("warc: a record needs WARC-Type and WARC-Date")
	}
	if h.RecordID() == "" {
		h.Set("WARC-Record-ID", NewRecordID())
	}
	h.Set("Content-Length", strconv.Itoa(len(block)))
	if h.Get("WARC-Block-Digest") == "" {
		h.Set("WARC-Block-Digest", Digest(block))
	}
	w.buf.Reset()
	w.buf.WriteString("WARC/1.1\r\n")
	for _, f := range h {
		if strings.ContainsAny(f.Name, "\r\n:") || strings.ContainsAny(f.Value, "\r\n") {
			return fmt.Errorf("warc: field %q holds a line break", f.Name)
		}
		w.buf.WriteString(canonicalName(f.Name))
		w.buf.WriteString(": ")
		w.buf.WriteString(f.Value)
		w.buf.WriteString("\r\n")
	}
	w.buf.WriteString("\r\n")
	w.buf.Write(block)
	w.buf.WriteString("\r\n\r\n")
	cw := &countWriter{w: w.w}
	var err error
	if w.gz == nil {
		_, err = cw.Write(w.buf.Bytes())
	} else {
		w.gz.Reset(cw)
		if _, err = w.gz.Write(w.buf.Bytes()); err == nil {
			err = w.gz.Close()
		}
	}
	w.n += cw.n
	if err != nil {
		w.errd = fmt.Errorf("warc: write: %w", err)
	}
	return w.errd
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Fields encodes application/warc-fields: "Name: value" lines (values on one line).
func Fields(fs []Field) []byte {
	var b bytes.Buffer
	for _, f := range fs {
		b.WriteString(f.Name)
		b.WriteString(": ")
		b.WriteString(strings.NewReplacer("\r", " ", "\n", " ").Replace(f.Value))
		b.WriteString("\r\n")
	}
	return b.Bytes()
}

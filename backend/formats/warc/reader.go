package warc

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// FormatError is a record the Reader could not read. The Reader has moved past it: calling
// Next again reads the record after it.
type FormatError struct {
	Offset int64 // where the bad record (or gzip member) starts in the file
	Err    error
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("warc: record at byte %d: %v", e.Offset, e.Err)
}
func (e *FormatError) Unwrap() error { return e.Err }

// Record is one record. Body reads its block; it is valid until the next call to Next.
type Record struct {
	Version string // "WARC/1.1", "WARC/1.0", ...
	Header  Header
	// ContentLength is the block's declared length.
	ContentLength int64
	// Offset is where the record starts in the file: the start of its gzip member in a
	// file compressed a member per record (what CDX indexes name), else the byte in the
	// uncompressed stream.
	Offset int64
	// Body is the block. A block cut short by the end of the file reads as
	// io.ErrUnexpectedEOF.
	Body io.Reader
}

// Reader reads the records of a WARC file in order.
type Reader struct {
	raw  *countReader  // the file
	gz   *gzip.Reader  // nil for a plain file
	cur  *bufio.Reader // the uncompressed stream of the current member (or the file)
	pos  int64         // bytes of cur consumed
	body *blockReader  // the current record's block, maybe not read to its end
	// memberStart is the raw offset of the current gzip member.
	memberStart int64
	// pendingLine is a version line found while resynchronising.
	pendingLine []byte
	err         error // sticky: an I/O error of the file itself
}

// NewReader returns a Reader of r, which may be gzip-compressed.
func NewReader(r io.Reader) (*Reader, error) {
	raw := &countReader{r: bufio.NewReaderSize(r, 64<<10)}
	rd := &Reader{raw: raw}
	magic, err := raw.r.Peek(2)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("warc: %w", err)
	}
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		rd.gz = new(gzip.Reader)
		if err := rd.nextMember(); err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		return rd, nil
	}
	rd.cur = bufio.NewReaderSize(raw, 64<<10)
	return rd, nil
}

// nextMember starts reading the gzip member at the file's current position; io.EOF at the
// end of the file.
func (r *Reader) nextMember() error {
	for {
		if _, err := r.raw.r.Peek(1); err != nil {
			if errors.Is(err, io.EOF) {
				return io.EOF
			}
			return r.fail(err)
		}
		r.memberStart = r.raw.n
		err := r.gz.Reset(r.raw)
		if err == nil {
			r.gz.Multistream(false)
			if r.cur == nil {
				r.cur = bufio.NewReaderSize(r.gz, 64<<10)
			} else {
				r.cur.Reset(r.gz)
			}
			r.pos = 0
			return nil
		}
		if errors.Is(err, io.EOF) && r.raw.n == r.memberStart {
			return io.EOF
		}
		// Not a gzip header here (junk between members): find the next one.
		if err := r.skipToMagic(r.memberStart + 1); err != nil {
			return err
		}
	}
}

// skipToMagic moves the file to the next gzip header at or after offset from.
func (r *Reader) skipToMagic(from int64) error {
	if r.raw.n < from {
		if _, err := io.CopyN(io.Discard, r.raw, from-r.raw.n); err != nil {
			if errors.Is(err, io.EOF) {
				return io.EOF
			}
			return r.fail(err)
		}
	}
	for {
		b, err := r.raw.r.Peek(3)
		if len(b) < 3 {
			if err == nil || errors.Is(err, io.EOF) {
				r.raw.discard(len(b))
				return io.EOF
			}
			return r.fail(err)
		}
		if b[0] == 0x1f && b[1] == 0x8b && b[2] == 8 {
			return nil
		}
		// Skip to the next 0x1f in what is buffered.
		buf, _ := r.raw.r.Peek(r.raw.r.Buffered())
		i := bytes.IndexByte(buf[1:], 0x1f)
		if i < 0 {
			r.raw.discard(len(buf))
		} else {
			r.raw.discard(i + 1)
		}
	}
}

func (r *Reader) fail(err error) error {
	r.err = fmt.Errorf("warc: %w", err)
	return r.err
}

// Next returns the next record, io.EOF after the last, or a *FormatError for a record that
// cannot be read (call Next again to go on). Any other error is the file's and is final.
func (r *Reader) Next() (*Record, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.cur == nil {
		return nil, io.EOF
	}
	if b := r.body; b != nil {
		// Finish the previous block; in a compressed file a bad member shows here.
		r.body = nil
		_, err := io.Copy(io.Discard, b)
		if err == nil {
			err = r.skipBlockEnd()
		}
		if err != nil {
			if err := r.afterBadBlock(b, err); err != nil {
				return nil, err
			}
			if r.cur == nil {
				return nil, io.EOF
			}
		}
	}
	for {
		rec, err := r.readRecord()
		switch {
		case err == nil:
			return rec, nil
		case errors.Is(err, io.EOF) && r.gz != nil:
			if err := r.nextMember(); err != nil {
				return nil, err
			}
		case errors.Is(err, io.EOF):
			return nil, io.EOF
		default:
			var fe *FormatError
			if errors.As(err, &fe) {
				return nil, err
			}
			return nil, r.badMember(err)
		}
	}
}

// afterBadBlock moves on after a block that could not be read to its end: a truncated
// record, or in a compressed file a corrupt member (reading goes on at the next member). It
// reports the record unless its reader was already told by an error from Body.
func (r *Reader) afterBadBlock(b *blockReader, err error) error {
	var fe *FormatError
	if r.gz == nil {
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			return r.fail(err)
		}
		fe = &FormatError{Offset: b.offset, Err: fmt.Errorf("record cut short: %d bytes of its block missing", b.left)}
	} else if e := r.badMember(err); !errors.As(e, &fe) {
		return e
	}
	if b.failed {
		return nil
	}
	return fe
}

// badMember reports a read error of the uncompressed stream: in a compressed file a corrupt
// or cut member, after which reading goes on at the next member; in a plain file the file's
// own.
func (r *Reader) badMember(err error) error {
	if r.gz == nil {
		return r.fail(err)
	}
	if r.err != nil {
		return r.err
	}
	off := r.memberStart
	if e := r.skipToMagic(max(r.raw.n, off+1)); e != nil && !errors.Is(e, io.EOF) {
		return e
	}
	r.pendingLine = nil
	if e := r.nextMember(); errors.Is(e, io.EOF) {
		r.cur = nil
	} else if e != nil {
		return e
	}
	what := "corrupt gzip member"
	if errors.Is(err, io.ErrUnexpectedEOF) {
		what = "gzip member cut short"
	}
	return &FormatError{Offset: off, Err: fmt.Errorf("%s: %w", what, err)}
}

// readRecord parses a record header at the current position. io.EOF: no more records in
// this stream.
func (r *Reader) readRecord() (*Record, error) {
	var start int64
	line, err := r.versionLine()
	if err != nil {
		return nil, err
	}
	if r.gz != nil {
		start = r.memberStart
	} else {
		start = r.pos - int64(len(line))
	}
	rec := &Record{Version: string(bytes.TrimRight(line, "\r\n")), Offset: start}
	bad := func(format string, a ...any) (*Record, error) {
		r.resync()
		return nil, &FormatError{Offset: start, Err: fmt.Errorf(format, a...)}
	}
	total := 0
	for {
		l, err := r.readLine(MaxHeaderBytes - total)
		if err != nil {
			if errors.Is(err, errLineTooLong) {
				return bad("header longer than %d bytes", MaxHeaderBytes)
			}
			if errors.Is(err, io.EOF) {
				return bad("file ends inside the record header")
			}
			return nil, err
		}
		total += len(l)
		l = bytes.TrimRight(l, "\r\n")
		if len(l) == 0 {
			break
		}
		if (l[0] == ' ' || l[0] == '\t') && len(rec.Header) > 0 { // a continuation line
			f := &rec.Header[len(rec.Header)-1]
			f.Value += " " + string(bytes.TrimSpace(l))
			continue
		}
		name, value, ok := bytes.Cut(l, []byte(":"))
		if !ok || len(bytes.TrimSpace(name)) == 0 {
			return bad("header line %q has no name", clip(l))
		}
		if len(rec.Header) >= MaxHeaderFields {
			return bad("more than %d header fields", MaxHeaderFields)
		}
		rec.Header = append(rec.Header, Field{Name: canonicalName(string(bytes.TrimSpace(name))),
			Value: string(bytes.TrimSpace(value))})
	}
	cl := rec.Header.Get("Content-Length")
	n, err := strconv.ParseInt(strings.TrimSpace(cl), 10, 64)
	if err != nil || n < 0 {
		return bad("bad or missing Content-Length %q", clip([]byte(cl)))
	}
	rec.ContentLength = n
	r.body = &blockReader{r: r, left: n, offset: start}
	rec.Body = r.body
	return rec, nil
}

// versionLine reads up to and including the next "WARC/" line, skipping blank lines (and,
// with a note, anything else, which only a damaged file has). io.EOF: none left.
func (r *Reader) versionLine() ([]byte, error) {
	if l := r.pendingLine; l != nil {
		r.pendingLine = nil
		return l, nil
	}
	skipped := int64(0)
	var skipStart int64
	for {
		l, err := r.readLine(MaxHeaderBytes)
		if errors.Is(err, errLineTooLong) {
			if skipped == 0 {
				skipStart = r.pos - int64(len(l))
			}
			skipped += int64(len(l))
			continue
		}
		if err != nil {
			if skipped > 0 && errors.Is(err, io.EOF) {
				return nil, &FormatError{Offset: skipStart, Err: fmt.Errorf("%d bytes that are not a record", skipped)}
			}
			return nil, err
		}
		if bytes.HasPrefix(l, []byte("WARC/")) {
			if skipped > 0 {
				r.pendingLine = l
				return nil, &FormatError{Offset: skipStart, Err: fmt.Errorf("%d bytes that are not a record", skipped)}
			}
			return l, nil
		}
		if len(bytes.TrimRight(l, "\r\n")) == 0 && skipped == 0 {
			continue
		}
		if skipped == 0 {
			skipStart = r.pos - int64(len(l))
		}
		skipped += int64(len(l))
	}
}

// resync moves to the next version line after a bad header, so that the next record is read
// whole; what lies between is reported with it.
func (r *Reader) resync() {
	for {
		l, err := r.readLine(MaxHeaderBytes)
		if err != nil && !errors.Is(err, errLineTooLong) {
			return
		}
		if bytes.HasPrefix(l, []byte("WARC/")) {
			r.pendingLine = l
			return
		}
	}
}

// skipBlockEnd reads the CRLF CRLF that ends a record (tolerating bare or missing newlines).
func (r *Reader) skipBlockEnd() error {
	for i := 0; i < 4; i++ {
		b, err := r.cur.Peek(1)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if b[0] != '\r' && b[0] != '\n' {
			return nil
		}
		r.cur.ReadByte()
		r.pos++
	}
	return nil
}

var errLineTooLong = errors.New("line too long")

// readLine reads a line with its newline, at most limit bytes of it: a longer line is
// consumed and returned cut, with errLineTooLong.
func (r *Reader) readLine(limit int) ([]byte, error) {
	var out []byte
	cut := false
	for {
		frag, err := r.cur.ReadSlice('\n')
		r.pos += int64(len(frag))
		switch {
		case len(out)+len(frag) <= limit:
			out = append(out, frag...)
		case len(out) < limit:
			out = append(out, frag[:limit-len(out)]...)
			cut = true
		default:
			cut = cut || len(frag) > 0
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case cut && (err == nil || errors.Is(err, io.EOF)):
			return out, errLineTooLong
		case err == nil:
			return out, nil
		case errors.Is(err, io.EOF) && len(out) > 0:
			return out, nil
		default:
			return out, err
		}
	}
}

// blockReader reads a record's block: exactly left bytes, io.ErrUnexpectedEOF if the
// stream ends first.
type blockReader struct {
	r      *Reader
	left   int64
	offset int64 // of the record
	failed bool  // Read returned an error other than io.EOF
}

func (b *blockReader) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.cur.Read(p)
	b.left -= int64(n)
	b.r.pos += int64(n)
	if errors.Is(err, io.EOF) {
		if b.left > 0 {
			err = io.ErrUnexpectedEOF
		} else {
			err = nil
		}
	}
	if err != nil {
		b.failed = true
	}
	return n, err
}

// countReader counts the bytes read from the file.
type countReader struct {
	r *bufio.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

func (c *countReader) discard(n int) {
	d, _ := c.r.Discard(n)
	c.n += int64(d)
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}

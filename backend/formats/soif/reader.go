package soif

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Reader reads templates one at a time from a stream.
type Reader struct {
	r   *bufio.Reader
	lim Limits
	off int64 // bytes consumed
	err error // sticky: a broken stream stays broken
}

// NewReader returns a Reader of r with the given limits (zero fields: DefaultLimits').
func NewReader(r io.Reader, lim Limits) *Reader {
	if lim.MaxValue <= 0 {
		lim.MaxValue = DefaultLimits.MaxValue
	}
	if lim.MaxTemplate <= 0 {
		lim.MaxTemplate = DefaultLimits.MaxTemplate
	}
	if lim.MaxAttrs <= 0 {
		lim.MaxAttrs = DefaultLimits.MaxAttrs
	}
	return &Reader{r: bufio.NewReaderSize(r, 64<<10), lim: lim}
}

// Offset is how many bytes of the stream have been read.
func (r *Reader) Offset() int64 { return r.off }

// Next returns the next template, io.EOF after the last one, or a *FormatError saying where
// the stream broke (and the same error on every later call: nothing after a break can be
// trusted, since its byte counts may be anyone's).
func (r *Reader) Next() (*Template, error) {
	if r.err != nil {
		return nil, r.err
	}
	t, err := r.next()
	if err != nil {
		r.err = err
	}
	return t, err
}

func (r *Reader) fail(at int64, format string, args ...any) error {
	return &FormatError{Offset: at, Err: fmt.Errorf(format, args...)}
}

// line reads up to and including '\n', at most max bytes; io.EOF only before any byte.
func (r *Reader) line(max int) ([]byte, error) {
	var out []byte
	for {
		frag, err := r.r.ReadSlice('\n')
		if len(out)+len(frag) > max {
			return nil, r.fail(r.off, "a line longer than %d bytes", max)
		}
		out = append(out, frag...)
		if err == nil {
			r.off += int64(len(out))
			return out, nil
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(err, io.EOF) {
			if len(out) == 0 {
				return nil, io.EOF
			}
			return nil, r.fail(r.off+int64(len(out)), "the stream ends inside a line")
		}
		return nil, err
	}
}

func (r *Reader) next() (*Template, error) {
	// Blank lines between templates.
	var head []byte
	start := r.off
	for {
		l, err := r.line(maxURL + 2*maxName + 16)
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(l)) > 0 {
			head = l
			break
		}
		start = r.off
	}
	t, err := parseHead(head)
	if err != nil {
		return nil, r.fail(start, "%v", err)
	}
	var total int64
	for {
		at := r.off
		if p, _ := r.r.Peek(2); string(p) == "}\n" {
			r.r.Discard(2)
			r.off += 2
			return t, nil
		}
		// The name, its count and the delimiter: Name{N}:<tab>
		pre, err := r.r.ReadSlice('\t')
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, r.fail(at, "an attribute name longer than %d bytes", maxName)
		}
		if bytes.IndexByte(pre, '\n') >= 0 {
			return nil, r.fail(at, "expected Name{size}:<tab>value or } to end the template of %s", quote(t.URL))
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, r.fail(at+int64(len(pre)), "the stream ends inside the template of %s", quote(t.URL))
			}
			return nil, err
		}
		r.off += int64(len(pre))
		name, size, perr := parseAttrHead(pre[:len(pre)-1])
		if perr != nil {
			return nil, r.fail(at, "%v", perr)
		}
		if size > r.lim.MaxValue {
			return nil, r.fail(at, "attribute %s of %d bytes: more than the %d allowed", name, size, r.lim.MaxValue)
		}
		if total += size; total > r.lim.MaxTemplate {
			return nil, r.fail(at, "template of %s: more than the %d bytes allowed", quote(t.URL), r.lim.MaxTemplate)
		}
		if len(t.Attrs) >= r.lim.MaxAttrs {
			return nil, r.fail(at, "template of %s: more than %d attributes", quote(t.URL), r.lim.MaxAttrs)
		}
		val, err := r.value(size)
		if err != nil {
			return nil, err
		}
		t.Attrs = append(t.Attrs, Attr{Name: name, Value: val})
	}
}

// value reads size bytes and the new line after them.
func (r *Reader) value(size int64) ([]byte, error) {
	at := r.off
	val := make([]byte, 0, min(size, 1<<20)) // grown as bytes arrive, not as the count claims
	buf := bytes.NewBuffer(val)
	n, err := io.CopyN(buf, r.r, size)
	r.off += n
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, r.fail(r.off, "the stream ends inside a value of %d bytes begun at byte %d", size, at)
		}
		return nil, err
	}
	c, err := r.r.ReadByte()
	if err != nil {
		return nil, r.fail(r.off, "the stream ends after a value, before its new line")
	}
	if c != '\n' {
		return nil, r.fail(r.off, "a value of %d bytes begun at byte %d is not followed by a new line (its byte count is wrong?)", size, at)
	}
	r.off++
	return buf.Bytes(), nil
}

// parseHead parses "@TYPE { URL\n", with spaces or tabs around the brace.
func parseHead(l []byte) (*Template, error) {
	l = bytes.TrimRight(l, "\r\n")
	l = bytes.TrimLeft(l, " \t")
	if len(l) == 0 || l[0] != '@' {
		return nil, errors.New("expected @TYPE { URL to begin a template")
	}
	rest := l[1:]
	i := bytes.IndexAny(rest, " \t{")
	if i <= 0 {
		return nil, errors.New("expected @TYPE { URL to begin a template")
	}
	typ := string(rest[:i])
	rest = bytes.TrimLeft(rest[i:], " \t")
	if len(rest) == 0 || rest[0] != '{' {
		return nil, fmt.Errorf("template type %s is not followed by {", quote(typ))
	}
	url := string(bytes.TrimSpace(rest[1:]))
	if !validName(typ) {
		return nil, fmt.Errorf("template type %s is not a name", quote(typ))
	}
	if !validURL(url) {
		return nil, errors.New("a template without a URL")
	}
	return &Template{Type: typ, URL: url}, nil
}

// parseAttrHead parses "Name{N}:" (the tab after it already cut).
func parseAttrHead(b []byte) (string, int64, error) {
	open := bytes.IndexByte(b, '{')
	if open <= 0 || len(b) < open+4 || !bytes.HasSuffix(b, []byte("}:")) {
		return "", 0, fmt.Errorf("expected Name{size}:<tab>, found %s", quote(string(b)))
	}
	name := string(b[:open])
	if !validName(name) {
		return "", 0, fmt.Errorf("attribute name %s is not a name", quote(name))
	}
	digits := b[open+1 : len(b)-2]
	if len(digits) == 0 || len(digits) > 18 {
		return "", 0, fmt.Errorf("attribute %s: size %s is not a number", name, quote(string(digits)))
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return "", 0, fmt.Errorf("attribute %s: size %s is not a number", name, quote(string(digits)))
		}
	}
	if len(digits) > 1 && digits[0] == '0' {
		return "", 0, fmt.Errorf("attribute %s: size %s has a leading zero", name, quote(string(digits)))
	}
	n, err := strconv.ParseInt(string(digits), 10, 64)
	if err != nil {
		return "", 0, fmt.Errorf("attribute %s: size %s is not a number", name, quote(string(digits)))
	}
	return name, n, nil
}

// quote shows a piece of the stream in an error, cut short.
func quote(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return strconv.Quote(s)
}

package fetch

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
)

// wireReader counts the body bytes read from the network and reports io.EOF after
// limit bytes, so nothing past the cap is ever read.
type wireReader struct {
	r     io.Reader
	n     int64
	limit int64
	err   error // first error other than io.EOF from r
}

func (w *wireReader) Read(p []byte) (int, error) {
	if w.n >= w.limit {
		return 0, io.EOF
	}
	if rem := w.limit - w.n; int64(len(p)) > rem {
		p = p[:rem]
	}
	n, err := w.r.Read(p)
	w.n += int64(n)
	if err != nil && err != io.EOF && w.err == nil {
		w.err = err
	}
	return n, err
}

// drain reads and discards up to max bytes so the connection can be reused.
func (w *wireReader) drain(max int64) (int64, error) {
	return io.CopyN(io.Discard, w, max)
}

// readBody reads and decodes the body of hresp through wire within lim. On
// ErrTooLarge or ErrBomb it also returns the prefix read so far.
func readBody(wire *wireReader, hresp *http.Response, lim *limits) ([]byte, error) {
	enc, err := contentEncoding(hresp.Header)
	if err != nil {
		return nil, err
	}
	if enc == "" {
		hint := 32 << 10
		if cl := hresp.ContentLength; cl >= 0 && cl <= lim.maxBody {
			hint = int(cl) + 1 // +1 lets the final read see io.EOF without growing
		}
		buf, over, err := readCapped(wire, lim.maxBody, hint)
		if err != nil {
			return nil, err
		}
		if over {
			return buf, ErrTooLarge
		}
		return buf, nil
	}

	br := bufioPool.Get().(*bufio.Reader)
	br.Reset(wire)
	defer func() {
		br.Reset(nil)
		bufioPool.Put(br)
	}()
	hint := 64 << 10
	if cl := hresp.ContentLength; cl >= 0 {
		hint = int(min(4*cl, lim.maxDecoded+1))
	}
	var buf []byte
	var over bool
	dec, release, err := newDecoder(enc, br)
	if err == nil {
		buf, over, err = readCapped(dec, lim.maxDecoded, hint)
		release()
	}
	switch {
	case over:
		return buf, ErrBomb
	case wire.n > lim.maxBody:
		return buf, ErrTooLarge
	case wire.err != nil:
		return nil, wire.err
	case err != nil && wire.n == 0 && len(buf) == 0:
		return []byte{}, nil // an empty body labelled as encoded: nothing to decode
	case err != nil:
		return nil, fmt.Errorf("%w: %s: %w", ErrBadEncoding, enc, err)
	}
	// See the end of the wire body so the transport can reuse the connection.
	_, _ = wire.drain(drainMax)
	return buf, nil
}

// contentEncoding returns the single non-identity content coding of h, "" for
// none, or an error for an unknown or stacked coding.
func contentEncoding(h http.Header) (string, error) {
	enc := ""
	for _, v := range h.Values("Content-Encoding") {
		for part := range strings.SplitSeq(v, ",") {
			t := strings.ToLower(strings.TrimSpace(part))
			if t == "" || t == "identity" {
				continue
			}
			if enc != "" {
				return "", fmt.Errorf("%w: stacked content-encodings %q", ErrBadEncoding, h.Values("Content-Encoding"))
			}
			enc = t
		}
	}
	switch enc {
	case "", "gzip", "x-gzip", "deflate", "br":
		return enc, nil
	}
	return "", fmt.Errorf("%w: unsupported content-encoding %q", ErrBadEncoding, enc)
}

// readCapped reads r to EOF into a buffer presized to hint. If r holds more than
// limit bytes it stops after limit+1 and returns the first limit bytes and true.
func readCapped(r io.Reader, limit int64, hint int) ([]byte, bool, error) {
	capMax := limit + 1
	if hint < 512 {
		hint = 512
	}
	if int64(hint) > capMax {
		hint = int(capMax)
	}
	buf := make([]byte, 0, hint)
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) >= capMax {
				return buf[:limit], true, nil
			}
			nc := min(2*int64(cap(buf)), capMax)
			nb := make([]byte, len(buf), nc)
			copy(nb, buf)
			buf = nb
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			if int64(len(buf)) > limit {
				return buf[:limit], true, nil
			}
			return buf, false, nil
		}
		if err != nil {
			return buf, false, err
		}
	}
}

var (
	bufioPool  = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 16<<10) }}
	gzipPool   sync.Pool // *gzip.Reader
	zlibPool   sync.Pool // io.ReadCloser implementing zlib.Resetter
	flatePool  sync.Pool // io.ReadCloser implementing flate.Resetter
	brotliPool sync.Pool // *brotli.Reader
)

// newDecoder returns a reader decoding enc from br and a func returning it to its
// pool once reading is done.
func newDecoder(enc string, br *bufio.Reader) (io.Reader, func(), error) {
	switch enc {
	case "gzip", "x-gzip":
		zr, _ := gzipPool.Get().(*gzip.Reader)
		if zr == nil {
			zr = new(gzip.Reader)
		}
		if err := zr.Reset(br); err != nil {
			gzipPool.Put(zr)
			return nil, nil, err
		}
		zr.Multistream(false) // trailing junk after the member is ignored, as browsers do
		return zr, func() { gzipPool.Put(zr) }, nil
	case "deflate":
		if isZlib(br) {
			if v, ok := zlibPool.Get().(io.ReadCloser); ok {
				if err := v.(zlib.Resetter).Reset(br, nil); err != nil {
					zlibPool.Put(v)
					return nil, nil, err
				}
				return v, func() { zlibPool.Put(v) }, nil
			}
			zr, err := zlib.NewReader(br)
			if err != nil {
				return nil, nil, err
			}
			return zr, func() { zlibPool.Put(zr) }, nil
		}
		// Raw DEFLATE, as some servers send for "deflate" (RFC 9110 says zlib).
		if v, ok := flatePool.Get().(io.ReadCloser); ok {
			if err := v.(flate.Resetter).Reset(br, nil); err != nil {
				flatePool.Put(v)
				return nil, nil, err
			}
			return v, func() { flatePool.Put(v) }, nil
		}
		fr := flate.NewReader(br)
		return fr, func() { flatePool.Put(fr) }, nil
	case "br":
		if v, ok := brotliPool.Get().(*brotli.Reader); ok {
			if err := v.Reset(br); err != nil {
				brotliPool.Put(v)
				return nil, nil, err
			}
			return v, func() { brotliPool.Put(v) }, nil
		}
		r := brotli.NewReader(br)
		return r, func() { brotliPool.Put(r) }, nil
	}
	return nil, nil, errors.New("unsupported content-encoding " + enc)
}

// isZlib reports whether br starts with a zlib header (RFC 1950): compression
// method 8, window at most 32 KiB, and a header checksum divisible by 31.
func isZlib(br *bufio.Reader) bool {
	b, err := br.Peek(2)
	if err != nil || len(b) < 2 {
		return false
	}
	cmf, flg := b[0], b[1]
	return cmf&0x0f == 8 && cmf>>4 <= 7 && (uint16(cmf)<<8|uint16(flg))%31 == 0
}

// DecodeBody reads a response body that was stored as it came off the wire (an archive's
// record), undoing its Content-Encoding as Do does, within the same caps: at most maxBody
// bytes read and maxDecoded decoded (ErrTooLarge, ErrBomb).
func DecodeBody(h http.Header, r io.Reader, maxBody, maxDecoded int64) ([]byte, error) {
	wire := &wireReader{r: r, limit: maxBody + 1}
	return readBody(wire, &http.Response{Header: h, ContentLength: -1}, &limits{maxBody: maxBody, maxDecoded: maxDecoded})
}

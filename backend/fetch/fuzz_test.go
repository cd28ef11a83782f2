package fetch

import (
	"bytes"
	"errors"
	"net/http"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
)

// The Content-Encoding values the fuzzer tries: every coding DecodeBody reads, identity,
// none, and what it must refuse.
var fuzzEncodings = []string{"", "identity", "gzip", "x-gzip", "deflate", "br", "gzip, br", "compress"}

// Small caps, so that bombs and overruns are reached quickly.
const fuzzMaxBody, fuzzMaxDecoded = 64 << 10, 256 << 10

// encodeAs writes data in a coding (deflate as zlib or as raw DEFLATE, as servers send it),
// at the fastest level: the fuzzer runs it on every input.
func encodeAs(enc string, raw bool, data []byte) []byte {
	var b bytes.Buffer
	switch enc {
	case "gzip", "x-gzip":
		w, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
		w.Write(data)
		w.Close()
	case "deflate":
		if raw {
			w, _ := flate.NewWriter(&b, flate.BestSpeed)
			w.Write(data)
			w.Close()
		} else {
			w, _ := zlib.NewWriterLevel(&b, zlib.BestSpeed)
			w.Write(data)
			w.Close()
		}
	case "br":
		w := brotli.NewWriterLevel(&b, brotli.BestSpeed)
		w.Write(data)
		w.Close()
	default:
		b.Write(data)
	}
	return b.Bytes()
}

// FuzzDecodeBody: any bytes under any Content-Encoding decode within the caps or fail with
// an error, never a panic or more than maxDecoded bytes; identity is the bytes themselves;
// and whatever the fuzzer's bytes are, encoding them and decoding gives them back.
func FuzzDecodeBody(f *testing.F) {
	zeros := make([]byte, 1<<20)
	for i, enc := range fuzzEncodings {
		f.Add([]byte("<title>plain</title>"), uint8(i))
		f.Add(encodeAs(enc, false, []byte("<title>encoded</title>")), uint8(i))
		f.Add(encodeAs(enc, true, []byte("<title>raw deflate</title>")), uint8(i))
		f.Add(encodeAs(enc, false, zeros), uint8(i)) // a bomb beyond maxDecoded
		if g := encodeAs(enc, false, []byte("cut short in the middle of the stream")); len(g) > 4 {
			f.Add(g[:len(g)/2], uint8(i))
		}
	}
	f.Add([]byte{0x78, 0x9c}, uint8(4)) // a zlib header and nothing else
	f.Add([]byte{}, uint8(2))           // an empty body labelled gzip
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		enc := fuzzEncodings[int(which)%len(fuzzEncodings)]
		h := http.Header{}
		if enc != "" {
			h.Set("Content-Encoding", enc)
		}
		out, err := DecodeBody(h, bytes.NewReader(data), fuzzMaxBody, fuzzMaxDecoded)
		if len(out) > fuzzMaxDecoded {
			t.Fatalf("%s: %d bytes decoded, cap %d", enc, len(out), fuzzMaxDecoded)
		}
		switch {
		case err == nil, errors.Is(err, ErrBomb), errors.Is(err, ErrTooLarge), errors.Is(err, ErrBadEncoding):
		default:
			t.Fatalf("%s: an error of no known kind: %v", enc, err)
		}
		if (enc == "" || enc == "identity") && len(data) <= fuzzMaxBody && (err != nil || !bytes.Equal(out, data)) {
			t.Fatalf("identity: %d bytes in, %d out, %v", len(data), len(out), err)
		}
		// The round trip: the fuzzer's bytes as content, encoded as a server would.
		if len(data) > fuzzMaxDecoded {
			return
		}
		for _, e := range []string{"gzip", "deflate", "br"} {
			for _, raw := range []bool{false, true} {
				if raw && e != "deflate" {
					continue
				}
				wire := encodeAs(e, raw, data)
				if len(wire) > fuzzMaxBody {
					continue
				}
				got, err := DecodeBody(http.Header{"Content-Encoding": {e}}, bytes.NewReader(wire), fuzzMaxBody, fuzzMaxDecoded)
				if err != nil || !bytes.Equal(got, data) {
					t.Fatalf("%s (raw %v): %d bytes encoded to %d decode to %d, %v", e, raw, len(data), len(wire), len(got), err)
				}
			}
		}
	})
}

package fetch

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
)

func gzipBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zlibBytes(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func flateBytes(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.DefaultCompression)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func brotliBytes(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	w := brotli.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func TestDoEncodings(t *testing.T) {
	page := []byte(strings.Repeat("<p>Hello, wörld of the Worm.</p>\n", 500))
	tests := []struct {
		name    string
		enc     string
		body    []byte
		want    []byte
		wantErr error
	}{
		{"identity", "", page, page, nil},
		{"identity token", "identity", page, page, nil},
		{"gzip", "gzip", gzipBytes(t, page), page, nil},
		{"x-gzip upper case", "X-GZIP", gzipBytes(t, page), page, nil},
		{"deflate zlib", "deflate", zlibBytes(t, page), page, nil},
		{"deflate raw", "deflate", flateBytes(t, page), page, nil},
		{"br", "br", brotliBytes(t, page), page, nil},
		{"gzip empty body", "gzip", nil, []byte{}, nil},
		{"br empty body", "br", nil, []byte{}, nil},
		{"gzip then identity", "gzip, identity", gzipBytes(t, page), page, nil},
		{"unknown encoding", "compress", page, nil, ErrBadEncoding},
		{"stacked encodings", "gzip, br", page, nil, ErrBadEncoding},
		{"corrupt gzip", "gzip", []byte("\x1f\x8b\x08\x00garbage-garbage-garbage"), nil, ErrBadEncoding},
		{"gzip cut short", "gzip", gzipBytes(t, page)[:100], nil, ErrBadEncoding},
		{"not brotli", "br", page, nil, ErrBadEncoding},
	}
	c := newClient(Config{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(serveBytes("text/html; charset=utf-8", tt.enc, tt.body))
			defer srv.Close()
			resp, err := c.Do(context.Background(), Request{URL: srv.URL + "/"})
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				if Classify(err) != CodeBadEncoding {
					t.Errorf("Classify = %q", Classify(err))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(resp.Body, tt.want) || !resp.Wanted || resp.Truncated {
				t.Fatalf("body %d bytes (wanted %v truncated %v), want %d", len(resp.Body), resp.Wanted, resp.Truncated, len(tt.want))
			}
			if resp.WireBytes != int64(len(tt.body)) {
				t.Errorf("WireBytes = %d, want %d", resp.WireBytes, len(tt.body))
			}
			if resp.MediaType != "text/html" || resp.ContentLength != int64(len(tt.body)) {
				t.Errorf("MediaType %q ContentLength %d", resp.MediaType, resp.ContentLength)
			}
		})
	}
}

var (
	bombOnce sync.Once
	bomb     []byte
)

// gzipBomb is 1 GiB of zeros gzipped (about 1.3 MB), built once.
func gzipBomb(t testing.TB) []byte {
	bombOnce.Do(func() {
		var buf bytes.Buffer
		w, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
		zero := make([]byte, 1<<20)
		for range 1024 {
			w.Write(zero)
		}
		w.Close()
		bomb = buf.Bytes()
	})
	return bomb
}

func TestDoGzipBomb(t *testing.T) {
	payload := gzipBomb(t)
	srv := httptest.NewServer(serveBytes("text/html", "gzip", payload))
	defer srv.Close()
	c := newClient(Config{}) // default caps: 10 MiB wire, 40 MiB decoded
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	resp, err := c.Do(context.Background(), Request{URL: srv.URL})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrBomb) || Classify(err) != CodeBomb {
		t.Fatalf("err = %v, want ErrBomb", err)
	}
	if resp == nil || !resp.Truncated || int64(len(resp.Body)) != 4*DefaultMaxBody {
		t.Fatalf("want a truncated response holding the 40 MiB prefix")
	}
	// Fail fast: only the first fraction of the 1.3 MB stream was read...
	if resp.WireBytes >= int64(len(payload)) {
		t.Errorf("read %d wire bytes of %d: did not stop early", resp.WireBytes, len(payload))
	}
	// ...and memory stayed near the cap, far from the 1 GiB the body expands to.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 160<<20 {
		t.Errorf("allocated %d MiB decoding the bomb", alloc>>20)
	}
}

func TestDoBombSmallCap(t *testing.T) {
	srv := httptest.NewServer(serveBytes("text/html", "br", brotliBytes(t, make([]byte, 8<<20))))
	defer srv.Close()
	c := newClient(Config{MaxBody: 1 << 20, MaxDecoded: 1 << 20})
	resp, err := c.Do(context.Background(), Request{URL: srv.URL})
	if !errors.Is(err, ErrBomb) || resp == nil || len(resp.Body) != 1<<20 {
		t.Fatalf("err = %v resp = %v", err, resp != nil)
	}
}

func TestDoHugeBody(t *testing.T) {
	const maxBody = 1 << 20
	big := bytes.Repeat([]byte("0123456789abcdef"), (5<<20)/16)
	for _, chunked := range []bool{false, true} {
		t.Run(fmt.Sprintf("chunked=%v", chunked), func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				if !chunked {
					w.Header().Set("Content-Length", strconv.Itoa(len(big)))
				}
				w.Write(big)
			}))
			defer srv.Close()
			c := newClient(Config{MaxBody: maxBody})
			resp, err := c.Do(context.Background(), Request{URL: srv.URL})
			if !errors.Is(err, ErrTooLarge) || Classify(err) != CodeTooLarge {
				t.Fatalf("err = %v, want ErrTooLarge", err)
			}
			if resp == nil || !resp.Truncated || !bytes.Equal(resp.Body, big[:maxBody]) {
				t.Fatal("want the MaxBody prefix in a truncated response")
			}
			if resp.WireBytes != maxBody+1 {
				t.Errorf("WireBytes = %d, want %d", resp.WireBytes, maxBody+1)
			}
		})
	}
}

func TestDoHugeCompressedBody(t *testing.T) {
	// Random-ish text compresses little: the wire cap trips before the decoded cap.
	var sb strings.Builder
	for i := range 200000 {
		sb.WriteString(strconv.Itoa(i * 7919 % 100003))
	}
	gz := gzipBytes(t, []byte(sb.String()))
	srv := httptest.NewServer(serveBytes("text/html", "gzip", gz))
	defer srv.Close()
	c := newClient(Config{MaxBody: int64(len(gz) / 4)})
	resp, err := c.Do(context.Background(), Request{URL: srv.URL})
	if !errors.Is(err, ErrTooLarge) || resp == nil || !resp.Truncated {
		t.Fatalf("err = %v", err)
	}
	if !strings.HasPrefix(sb.String(), string(resp.Body)) || len(resp.Body) == 0 {
		t.Error("body is not a prefix of the decoded page")
	}
}

func TestDoSlowDrip(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(200)
		for {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}))
	defer srv.Close()
	c := newClient(Config{Timeout: 400 * time.Millisecond})
	resp, err := c.Do(context.Background(), Request{URL: srv.URL})
	if err == nil || resp != nil {
		t.Fatal("want the whole-request timeout to stop a dripping body")
	}
	if Classify(err) != CodeTimeout {
		t.Errorf("Classify = %q (%v), want timeout", Classify(err), err)
	}
}

func TestDoStalledHeaders(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c := newClient(Config{Timeout: 200 * time.Millisecond})
	_, err := c.Do(context.Background(), Request{URL: srv.URL})
	if Classify(err) != CodeTimeout {
		t.Errorf("Classify = %q (%v), want timeout", Classify(err), err)
	}
}

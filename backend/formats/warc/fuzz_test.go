package warc

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReader: any input, plain or gzip, is read to its end without a panic or a loop, every
// record's block is at most its Content-Length, and errors other than *FormatError, io.EOF
// and a block cut short never appear (the input is in memory: no I/O can fail).
func FuzzReader(f *testing.F) {
	f.Add(write(f, false, [2]string{"response", "HTTP/1.1 200 OK\r\n\r\nhi"}, [2]string{"metadata", "a: b\r\n"}))
	f.Add(write(f, true, [2]string{"response", "HTTP/1.1 200 OK\r\n\r\nhi"}, [2]string{"revisit", ""}))
	f.Add([]byte("WARC/1.0\r\nContent-Length: 5\r\n\r\nab"))
	f.Add([]byte("WARC/1.1\r\n X\r\nContent-Length: 0\r\n\r\n"))
	files, _ := filepath.Glob("testdata/*.warc*")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil && len(b) < 64<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("NewReader on bytes: %v", err)
		}
		for i := 0; ; i++ {
			if i > 2*len(data)+10 {
				t.Fatal("Next does not end")
			}
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			var fe *FormatError
			if errors.As(err, &fe) {
				if fe.Offset < 0 || fe.Offset > int64(len(data)) {
					t.Fatalf("error offset %d of %d", fe.Offset, len(data))
				}
				continue
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			if len(rec.Header) > MaxHeaderFields {
				t.Fatalf("%d fields", len(rec.Header))
			}
			n, err := io.Copy(io.Discard, rec.Body)
			if n > rec.ContentLength {
				t.Fatalf("block of %d bytes, Content-Length %d", n, rec.ContentLength)
			}
			if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && len(data) > 0 && data[0] != 0x1f {
				t.Fatalf("block read: %v", err)
			}
		}
	})
}

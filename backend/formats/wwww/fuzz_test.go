package wwww

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// FuzzReader: any input is read to its end without a panic; every line read writes back
// and reads again as the same line.
func FuzzReader(f *testing.F) {
	f.Add([]byte("T http://mach/home.html Home\nR http://mach/photo.gif http://mach/home.html Photo\nC http://mach/home.html\n"))
	f.Add([]byte("I a b\nT x Zero Length Title\r\nX y\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		for i := 0; ; i++ {
			if i > len(data)+2 {
				t.Fatal("Next does not end")
			}
			l, err := r.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			var le *LineError
			if errors.As(err, &le) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			w := NewWriter(&buf)
			if err := w.Write(l); err != nil {
				t.Fatalf("line %+v read but not written: %v", l, err)
			}
			w.Flush()
			back, err := NewReader(&buf).Next()
			l.N, back.N = 0, 0
			if err != nil || back != l {
				t.Fatalf("line %+v written as %q, read back as %+v (%v)", l, buf.String(), back, err)
			}
		}
	})
}

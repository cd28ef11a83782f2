package soif

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"
)

// FuzzReader: any input is read to an end (EOF or a FormatError) without a panic, within
// the limits; every template read writes back and reads again as the same template, and
// the canonical form is a fixed point (written, read and written again: the same bytes).
func FuzzReader(f *testing.F) {
	if b, err := os.ReadFile("testdata/harvest.soif"); err == nil {
		f.Add(b)
	}
	f.Add([]byte("@FILE { http://a/\nT{1}:\tx\n}\n\n@DOC { u\n}\n"))
	f.Add([]byte("@FILE { http://a/\nT{3}:\t}\n}\n}\n"))
	f.Add([]byte("@FILE { http://a/\nT{99999}:\tx"))
	lim := Limits{MaxValue: 1 << 12, MaxTemplate: 1 << 14, MaxAttrs: 64}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data), lim)
		var ts []*Template
		for i := 0; ; i++ {
			if i > len(data)+1 {
				t.Fatal("Next does not end")
			}
			tp, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			var fe *FormatError
			if errors.As(err, &fe) {
				if fe.Offset < 0 || fe.Offset > int64(len(data)) {
					t.Fatalf("offset %d outside the input of %d bytes", fe.Offset, len(data))
				}
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if tp.Size() > lim.MaxTemplate || len(tp.Attrs) > lim.MaxAttrs {
				t.Fatalf("template over the limits: %d bytes, %d attributes", tp.Size(), len(tp.Attrs))
			}
			ts = append(ts, tp)
		}
		var buf bytes.Buffer
		w := NewWriter(&buf)
		for _, tp := range ts {
			if err := w.Write(tp); err != nil {
				t.Fatalf("template %+v read but not written: %v", tp, err)
			}
		}
		w.Flush()
		canon := append([]byte(nil), buf.Bytes()...)
		back := NewReader(bytes.NewReader(canon), lim)
		var buf2 bytes.Buffer
		w2 := NewWriter(&buf2)
		for i := 0; ; i++ {
			tp, err := back.Next()
			if errors.Is(err, io.EOF) {
				if i != len(ts) {
					t.Fatalf("%d templates back of %d", i, len(ts))
				}
				break
			}
			if err != nil {
				t.Fatalf("canonical form does not read: %v\n%q", err, canon)
			}
			if i >= len(ts) || !tp.Equal(ts[i]) {
				t.Fatalf("template %d read back as %+v", i, tp)
			}
			w2.Write(tp)
		}
		w2.Flush()
		if !bytes.Equal(buf2.Bytes(), canon) {
			t.Fatal("canonical form is not a fixed point")
		}
	})
}

package soif

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

func readAll(t *testing.T, data []byte, lim Limits) ([]*Template, error) {
	t.Helper()
	r := NewReader(bytes.NewReader(data), lim)
	var out []*Template
	for {
		tp, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, tp)
	}
}

func writeAll(t *testing.T, ts []*Template) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, tp := range ts {
		if err := w.Write(tp); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The paper's Figure 3 (with byte counts that match its values) reads, and writes back
// byte for byte.
func TestHarvestFigure(t *testing.T) {
	data, err := os.ReadFile("testdata/harvest.soif")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := readAll(t, data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 || ts[0].Type != "FILE" || ts[0].URL != "http://harvest.cs.colorado.edu/harvest/user-manual/node99.html" {
		t.Fatalf("read %+v", ts)
	}
	if got := ts[0].String("AUTHOR"); got != "Darren Hardy\nWed Feb 15 13:27:56 MST 1995" {
		t.Fatalf("author %q", got)
	}
	if got := writeAll(t, ts); !bytes.Equal(got, data) {
		t.Fatalf("written back as\n%q\nnot\n%q", got, data)
	}
}

// Any bytes travel: new lines, braces, tabs, NULs, invalid UTF-8, things that look like
// the next attribute or the end of the template.
func TestRoundTripBytes(t *testing.T) {
	ts := []*Template{
		{Type: "DOCUMENT", URL: "http://a.example/x?y={z}", Attrs: []Attr{
			{Name: "Title", Value: []byte("}\n@FILE { http://evil/\nTitle{3}:\tno\n}")},
			{Name: "Full-Text", Value: []byte{0, 0xff, 0xfe, '\n', '\t', '}'}},
			{Name: "x", Value: []byte("\n")},
			{Name: "Title", Value: []byte("a repeated name keeps its place")},
		}},
		{Type: "FILE", URL: "https://b.example/"},
	}
	data := writeAll(t, ts)
	back, err := readAll(t, data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(ts) {
		t.Fatalf("%d templates back, want %d", len(back), len(ts))
	}
	for i := range ts {
		if !back[i].Equal(ts[i]) {
			t.Fatalf("template %d back as %+v", i, back[i])
		}
	}
	if again := writeAll(t, back); !bytes.Equal(again, data) {
		t.Fatal("not written back byte for byte")
	}
}

// What Harvest's parser tolerated reads; it writes back canonical.
func TestLenientHead(t *testing.T) {
	in := "\n\n  @FILE{http://a/ \t\nT{1}:\tx\n}\n@FILE\t{\thttp://b/\n}\n"
	ts, err := readAll(t, []byte(in), Limits{})
	if err != nil || len(ts) != 2 || ts[0].URL != "http://a/" || ts[1].URL != "http://b/" {
		t.Fatalf("%+v %v", ts, err)
	}
	want := "@FILE { http://a/\nT{1}:\tx\n}\n\n@FILE { http://b/\n}\n\n"
	if got := string(writeAll(t, ts)); got != want {
		t.Fatalf("%q", got)
	}
}

func TestBrokenStreams(t *testing.T) {
	lim := Limits{MaxValue: 100, MaxTemplate: 150, MaxAttrs: 3}
	cases := []struct {
		name, in string
		offset   int64
		says     string
	}{
		{"no head", "Title{1}:\tx\n}\n", 0, "@TYPE"},
		{"no url", "@FILE {\n}\n", 0, "without a URL"},
		{"bad type", "@FI/LE { http://a/\n}\n", 0, "not a name"},
		{"count too short", "@FILE { http://a/\nT{1}:\txy\n}\n", 25, "not followed by a new line"},
		{"count too long", "@FILE { http://a/\nT{5}:\txy\n}\n", 29, "before its new line"},
		{"cut in a value", "@FILE { http://a/\nT{9}:\tab", 26, "ends inside a value"},
		{"cut before the end", "@FILE { http://a/\nT{1}:\tx\n", 26, "ends inside the template"},
		{"no tab", "@FILE { http://a/\nT{1}: x\n}\n", 18, "expected Name{size}"},
		{"not a number", "@FILE { http://a/\nT{x}:\tx\n}\n", 18, "not a number"},
		{"negative", "@FILE { http://a/\nT{-1}:\tx\n}\n", 18, "not a number"},
		{"leading zero", "@FILE { http://a/\nT{01}:\tx\n}\n", 18, "leading zero"},
		{"huge count", "@FILE { http://a/\nT{999999999999999999}:\tx\n}\n", 18, "allowed"},
		{"value over limit", "@FILE { http://a/\nT{101}:\tx\n}\n", 18, "allowed"},
		{"template over limit", "@FILE { http://a/\nA{80}:\t" + strings.Repeat("a", 80) + "\nB{80}:\t" + strings.Repeat("b", 80) + "\n}\n", 106, "allowed"},
		{"too many attributes", "@FILE { http://a/\nA{1}:\ta\nB{1}:\tb\nC{1}:\tc\nD{1}:\td\n}\n", 42, "more than 3 attributes"},
		{"bad name", "@FILE { http://a/\nA B{1}:\ta\n}\n", 18, "not a name"},
		{"end without new line", "@FILE { http://a/\n}", 19, "ends inside the template"},
		{"garbage line", "@FILE { http://a/\n}\nhello\n", 20, "@TYPE"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := readAll(t, []byte(c.in), lim)
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("err %v, want a FormatError", err)
			}
			if fe.Offset != c.offset || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("error %q at %d, want %q at %d", err, fe.Offset, c.says, c.offset)
			}
			// The error sticks.
			r := NewReader(strings.NewReader(c.in), lim)
			for {
				if _, err := r.Next(); err != nil {
					if errors.Is(err, io.EOF) {
						t.Fatal("EOF after a broken stream")
					}
					if _, err2 := r.Next(); err2 != err {
						t.Fatalf("second Next: %v", err2)
					}
					break
				}
			}
		})
	}
}

func TestWriterRefuses(t *testing.T) {
	for _, tp := range []*Template{
		{Type: "", URL: "http://a/"},
		{Type: "A B", URL: "http://a/"},
		{Type: "FILE", URL: ""},
		{Type: "FILE", URL: "http://a/\nT{1}:\tx"},
		{Type: "FILE", URL: " http://a/"},
		{Type: "FILE", URL: "http://a/", Attrs: []Attr{{Name: "a{1}", Value: []byte("x")}}},
	} {
		if err := NewWriter(io.Discard).Write(tp); err == nil {
			t.Errorf("%+v written", tp)
		}
	}
}

// A stream is read with one template in memory: a long stream of small templates reads
// with the value limits of one.
func TestStreaming(t *testing.T) {
	pr, pw := io.Pipe()
	go func() {
		w := NewWriter(pw)
		for i := 0; i < 20000; i++ {
			w.Write(&Template{Type: "FILE", URL: "http://a/", Attrs: []Attr{{Name: "T", Value: bytes.Repeat([]byte("x"), 100)}}})
		}
		pw.CloseWithError(w.Flush())
	}()
	r := NewReader(pr, Limits{MaxValue: 100, MaxTemplate: 100})
	n := 0
	for {
		_, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 20000 {
		t.Fatal(n)
	}
}

package bookmarks

import (
	"bytes"
	"os"
	"testing"
)

// checkDoc holds what every reader promises of what it returns: a tree within the limits,
// with lines inside the input.
func checkDoc(t *testing.T, data []byte, d *Document) {
	lines := bytes.Count(data, []byte{'\n'}) + 1
	var walk func(e *Entry, depth int)
	n := 0
	walk = func(e *Entry, depth int) {
		if depth > MaxDepth+1 {
			t.Fatalf("depth %d", depth)
		}
		if e.Line < 1 || e.Line > lines {
			t.Fatalf("entry at line %d of %d", e.Line, lines)
		}
		for _, c := range e.Children {
			n++
			walk(c, depth+1)
		}
	}
	walk(d.Root, 0)
	if n > MaxEntries {
		t.Fatalf("%d entries", n)
	}
}

func seeds(f *testing.F) {
	for _, name := range []string{"firefox.html", "chromium.html", "mixed.html"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// FuzzNetscape: any input is read or refused with an *Error, and what is read writes out
// and reads back.
func FuzzNetscape(f *testing.F) {
	seeds(f)
	f.Add([]byte("<DL><p><DT><H3>a</H3><DL><p></DL>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ReadNetscape(data)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%T %v", err, err)
			}
			return
		}
		checkDoc(t, data, d)
		var buf bytes.Buffer
		if err := WriteNetscape(&buf, d); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadNetscape(buf.Bytes()); err != nil {
			t.Fatalf("reading what was written: %v", err)
		}
	})
}

// FuzzList: any input is read or refused with an *Error.
func FuzzList(f *testing.F) {
	f.Add([]byte("# Go\n- [Go](https://go.dev/) the site\nhttps://a.example/(x))."))
	f.Add([]byte("[a](<https://x y>) [b](https://z \"t\")"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ReadList(data)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%T %v", err, err)
			}
			return
		}
		checkDoc(t, data, d)
	})
}

// FuzzJSON: any input is read or refused with an *Error, and what is read round-trips.
func FuzzJSON(f *testing.F) {
	f.Add([]byte(`{"format":"mundaneum-library","version":1,"root":{"kind":"library","title":"L","children":[{"kind":"pointer","title":"a","url":"https://a/","tags":["x"],"added":"2024-01-01T00:00:00Z"},{"kind":"view","title":"v","view":{"name":"n","query":"q"}}]}}`))
	f.Add([]byte(`{"root":{"kind":"library","children":[{"kind":"report","body":"x","added":17}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ReadJSON(data)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%T %v", err, err)
			}
			return
		}
		checkDoc(t, data, d)
		var buf bytes.Buffer
		if err := WriteJSON(&buf, d); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadJSON(buf.Bytes()); err != nil {
			t.Fatalf("reading what was written: %v\n%s", err, buf.String())
		}
	})
}

package wwww

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

func readAll(t testing.TB, data string) ([]Line, []*LineError) {
	r := NewReader(strings.NewReader(data))
	var lines []Line
	var bad []*LineError
	for i := 0; ; i++ {
		if i > len(data)+2 {
			t.Fatal("Next does not end")
		}
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			return lines, bad
		}
		var le *LineError
		if errors.As(err, &le) {
			bad = append(bad, le)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
}

// The paper's own example reads as the paper explains it.
func TestPaperExample(t *testing.T) {
	in := "T http://mach/home.html McBryan's Home Page\n" +
		"R http://mach/photo.gif http://mach/home.html McBryan's Photo\n" +
		"I http://mach/photo.html http://mach/home.html McBryan's photo\n" +
		"T http://mach/untitled.html Zero Length Title\n" +
		"C http://mach/home.html\n"
	lines, bad := readAll(t, in)
	want := []Line{
		{Kind: Title, URL: "http://mach/home.html", Text: "McBryan's Home Page", N: 1},
		{Kind: Ref, URL: "http://mach/photo.gif", HTML: "http://mach/home.html", Text: "McBryan's Photo", N: 2},
		{Kind: Image, URL: "http://mach/photo.html", HTML: "http://mach/home.html", Text: "McBryan's photo", N: 3},
		{Kind: Title, URL: "http://mach/untitled.html", Text: "", N: 4},
		{Kind: Complete, URL: "http://mach/home.html", N: 5},
	}
	if len(bad) != 0 || !reflect.DeepEqual(lines, want) {
		t.Fatalf("got %+v, bad %v", lines, bad)
	}
	// Written back, it is the same file.
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, l := range lines {
		if err := w.Write(l); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	if buf.String() != in {
		t.Errorf("written back:\n%s\nwant:\n%s", buf.String(), in)
	}
}

func TestBadLines(t *testing.T) {
	in := "X http://a/ what\n" + // unknown kind
		"T\n" + // no URL
		"R http://a/\n" + // no citing HTML
		"C http://a/ extra\n" + // C with text
		"Thttp://a/ t\n" + // no space
		"\n   \n" + // blank lines are skipped
		"T " + strings.Repeat("x", MaxLine) + "\n" + // too long
		"R http://b/ http://a/\n" + // no anchor: fine
		"T http://a/  spaced   title  \r\n" // CRLF and padding
	lines, bad := readAll(t, in)
	if len(bad) != 6 {
		t.Errorf("%d bad lines: %v", len(bad), bad)
	}
	if len(lines) != 2 || lines[0].Text != "" || lines[1].Text != "spaced title" || lines[1].N != 10 {
		t.Errorf("lines %+v", lines)
	}
	for i, want := range []int{1, 2, 3, 4, 5, 8} {
		if i < len(bad) && bad[i].N != want {
			t.Errorf("bad line %d numbered %d, want %d", i, bad[i].N, want)
		}
	}
}

func TestWriterRefusesWhatCannotBeRead(t *testing.T) {
	w := NewWriter(io.Discard)
	for _, l := range []Line{
		{Kind: Title, URL: ""},
		{Kind: Title, URL: "http://a/ b"},
		{Kind: Ref, URL: "http://a/", HTML: ""},
		{Kind: 'Z', URL: "http://a/"},
	} {
		if err := w.Write(l); err == nil {
			t.Errorf("wrote %+v", l)
		}
	}
	var buf bytes.Buffer
	w = NewWriter(&buf)
	w.Write(Line{Kind: Ref, URL: "http://a/", HTML: "http://b/", Text: "two\nlines\r\n and  more"})
	w.Write(Line{Kind: Title, URL: "http://a/", Text: strings.Repeat("é", MaxLine)})
	w.Flush()
	lines, bad := readAll(t, buf.String())
	if len(bad) != 0 || len(lines) != 2 || lines[0].Text != "two lines and more" || !strings.HasPrefix(lines[1].Text, "ééé") {
		t.Errorf("%+v %v", lines, bad)
	}
}

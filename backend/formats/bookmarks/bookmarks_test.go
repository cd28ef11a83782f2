package bookmarks

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

// flat lists a tree as "path|title|url|tags|notes" lines, for comparing trees.
func flat(e *Entry, path string, out *[]string) {
	for _, c := range e.Children {
		switch c.Kind {
		case Folder:
			*out = append(*out, "F "+path+"/"+c.Title+"|"+c.Notes)
			flat(c, path+"/"+c.Title, out)
		default:
			*out = append(*out, "L "+path+"|"+c.Title+"|"+c.URL+"|"+strings.Join(c.Tags, ",")+"|"+c.Notes)
		}
	}
}

func flatten(d *Document) []string {
	var out []string
	flat(d.Root, "", &out)
	return out
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestNetscapeFirefox(t *testing.T) {
	d, err := Read(readFile(t, "firefox.html"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Format != "netscape" || d.Title != "Bookmarks Menu" {
		t.Errorf("format %q title %q", d.Format, d.Title)
	}
	want := []string{
		"L |Recent Tags|place:parent=menu________&sort=12&maxResults=10&excludeQueries=1||",
		"F /Mozilla Firefox|Firefox help & community",
		"L /Mozilla Firefox|Get Help|https://support.mozilla.org/products/firefox|help,mozilla|",
		"L /Mozilla Firefox|About Us|https://www.mozilla.org/about/||The Mozilla manifesto\nand more on a second line",
		"F /Bookmarks Toolbar|",
		"L /Bookmarks Toolbar|HTML: HyperText Markup Language | MDN|https://developer.mozilla.org/en-US/docs/Web/HTML|web,html,docs|",
		"L /Bookmarks Toolbar|Bookmarklet|javascript:void(document.body.style.background='red')||",
		"L /Bookmarks Toolbar|bücher|https://xn--bcher-kva.example/||",
	}
	if got := flatten(d); !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	mdn := d.Root.Children[2].Children[0]
	if mdn.Added != 1700100007 || mdn.Line != 23 {
		t.Errorf("microsecond ADD_DATE read as %d, line %d", mdn.Added, mdn.Line)
	}
}

func TestNetscapeHostileAndNested(t *testing.T) {
	d, err := ReadNetscape(readFile(t, "chromium.html"))
	if err != nil {
		t.Fatal(err)
	}
	got := flatten(d)
	for _, w := range []string{
		"F /Bookmarks bar/Ünïcödé & Ελληνικά|",
		"F /Bookmarks bar/Ünïcödé & Ελληνικά/Empty folder|",
		`L /Bookmarks bar|"><script>alert(document.domain)</script>|https://example.net/"onmouseover="alert(1)||`,
		"L /Bookmarks bar/Ünïcödé & Ελληνικά|Café – “quotes” ‘single’|https://example.com/path?q=caf%C3%A9&lang=fr||",
	} {
		if !contains(got, w) {
			t.Errorf("missing %q in\n%s", w, strings.Join(got, "\n"))
		}
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestNetscapeRoundTrip: what the writer writes, the reader reads back the same, for every
// fixture (hostile titles and URLs included).
func TestNetscapeRoundTrip(t *testing.T) {
	for _, name := range []string{"firefox.html", "chromium.html", "mixed.html"} {
		d, err := ReadNetscape(readFile(t, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var buf bytes.Buffer
		if err := WriteNetscape(&buf, d); err != nil {
			t.Fatal(err)
		}
		d2, err := ReadNetscape(buf.Bytes())
		if err != nil {
			t.Fatalf("%s: reading what was written: %v\n%s", name, err, buf.String())
		}
		if a, b := flatten(d), flatten(d2); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: round trip changed the tree:\n%s\n---\n%s", name, strings.Join(a, "\n"), strings.Join(b, "\n"))
		}
		if strings.Contains(buf.String(), "<script>") {
			t.Errorf("%s: the writer let a <script> through", name)
		}
	}
}

func TestNetscapeErrorsNameTheLine(t *testing.T) {
	cases := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"cut short", "<DL><p>\n<DT><H3>A</H3>\n<DL><p>\n<DT><A HREF=\"https://a/\">a</A>\n", 3, "never closed"},
		{"anchor never closed", "<DL><p>\n<DT><A HREF=\"https://a/\">a\n", 2, "never closed"},
		{"not bookmarks", "<html><body><p>hello</p></body></html>", 1, "not a Netscape bookmark file"},
		{"not utf-8", "<DL><p>\n<DT><A HREF=\"https://a/\">caf\xe9</A>\n</DL>", 2, "not UTF-8"},
		{"nul", "<DL><p>\n\n<DT>\x00", 3, "NUL"},
		{"too deep", strings.Repeat("<DT><H3>x</H3>\n<DL><p>\n", 70), 130, "nested more than"},
	}
	for _, c := range cases {
		_, err := ReadNetscape([]byte(c.in))
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: got %v, want an *Error", c.name, err)
			continue
		}
		if e.Line != c.line || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%s: got line %d %q, want line %d %q", c.name, e.Line, e.Msg, c.line, c.msg)
		}
	}
}

func TestNetscapeProblems(t *testing.T) {
	d, err := ReadNetscape([]byte("<DL><p>\n<DT><A>no address</A>\n<DT><A HREF=\"https://a/\">a</A>\n</DL><p>\n</DL>\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Problems) != 2 || d.Problems[0].Line != 2 || d.Problems[1].Line != 5 {
		t.Errorf("problems %+v", d.Problems)
	}
	if got := flatten(d); len(got) != 1 {
		t.Errorf("entries %v", got)
	}
}

func TestList(t *testing.T) {
	in := "# Go\n" +
		"- [The Go site](https://go.dev/) — where it starts\n" +
		"* https://pkg.go.dev/ Go packages\n" +
		"Some prose without a link.\n" +
		"## Tools\n" +
		"1. <https://github.com/golang/tools> and [gopls](https://go.dev/gopls \"the server\")\n" +
		"# Other\n" +
		"See (https://en.wikipedia.org/wiki/Go_(programming_language)).\n" +
		"[broken](https://x.example/\n" +
		"![an image](https://example.com/i.png)\n"
	d, err := ReadList([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"F /Go|",
		"L /Go|The Go site|https://go.dev/||where it starts",
		"L /Go|Go packages|https://pkg.go.dev/||",
		"F /Go/Tools|",
		"L /Go/Tools||https://github.com/golang/tools||",
		"L /Go/Tools|gopls|https://go.dev/gopls||",
		"F /Other|",
		"L /Other|See ( ).|https://en.wikipedia.org/wiki/Go_(programming_language)||",
	}
	if got := flatten(d); !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(d.Problems) != 1 || d.Problems[0].Line != 9 {
		t.Errorf("problems %+v", d.Problems)
	}
	if _, err := ReadList([]byte("just words\nand more words\n")); err == nil {
		t.Error("a list without links was read")
	}
}

func TestJSONRoundTrip(t *testing.T) {
	d, err := ReadNetscape(readFile(t, "chromium.html"))
	if err != nil {
		t.Fatal(err)
	}
	d.Root.Children = append(d.Root.Children,
		&Entry{Kind: Report, Title: "Notes <b>", Body: "# Title\n\n<script>alert(1)</script>", Added: 1700000000, Author: "Ann", Email: "a@b.c"},
		&Entry{Kind: View, Title: "Films", ViewName: "films", ViewQuery: "ext:mpg site:fi"},
		&Entry{Kind: Folder, Title: "Departments", CreateOnly: true, Purpose: "One per department", Order: "manual"})
	var buf bytes.Buffer
	if err := WriteJSON(&buf, d); err != nil {
		t.Fatal(err)
	}
	if Sniff(buf.Bytes()) != "json" {
		t.Fatal("the JSON tree is not sniffed as json")
	}
	d2, err := Read(buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if a, b := flatten(d), flatten(d2); !reflect.DeepEqual(a, b) {
		t.Errorf("round trip changed the tree:\n%s\n---\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	n := len(d2.Root.Children)
	r, v, f := d2.Root.Children[n-3], d2.Root.Children[n-2], d2.Root.Children[n-1]
	if r.Body != d.Root.Children[n-3].Body || r.Added != 1700000000 || r.Author != "Ann" {
		t.Errorf("report %+v", r)
	}
	if v.ViewName != "films" || v.ViewQuery != "ext:mpg site:fi" || !f.CreateOnly || f.Purpose == "" || f.Order != "manual" {
		t.Errorf("view %+v folder %+v", v, f)
	}
}

func TestJSONErrorsNameTheLine(t *testing.T) {
	cases := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"syntax", "{\"root\": {\"kind\": \"library\",\n\"title\": \"x\",,\n}}", 2, "invalid character"},
		{"type", "{\"root\": {\"kind\": \"library\",\n\"children\": [\n{\"kind\": \"pointer\", \"tags\": \"a,b\"}]}}", 3, "\"tags\" must be"},
		{"kind", "{\"root\": {\"kind\": \"library\", \"children\": [\n\n  {\"kind\": \"folder\"}]}}", 3, "not library"},
		{"children of a pointer", "{\"root\": {\"kind\": \"library\", \"children\": [\n{\"kind\": \"pointer\", \"children\": [{\"kind\": \"pointer\"}]}]}}", 2, "no children"},
		{"cut short", "{\"root\": {\"kind\": \"library\", \"children\": [\n{\"kind\": \"pointer\"", 2, "cut short"},
		{"no root", "{\"format\": \"mundaneum-library\"}", 1, "no \"root\""},
		{"other format", "{\"format\": \"chrome\"}", 1, "is not"},
		{"view", "{\"root\": {\"kind\": \"library\", \"children\": [\n{\"kind\": \"view\"}]}}", 2, "a view needs"},
		{"date", "{\"root\": {\"kind\": \"library\", \"children\": [\n{\"kind\": \"pointer\", \"added\": \"yesterday\"}]}}", 2, "RFC 3339"},
	}
	for _, c := range cases {
		_, err := ReadJSON([]byte(c.in))
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: got %v, want an *Error", c.name, err)
			continue
		}
		if e.Line != c.line || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%s: got line %d %q, want line %d %q", c.name, e.Line, e.Msg, c.line, c.msg)
		}
	}
	deep := strings.Repeat(`{"kind": "library", "children": [`, 70)
	if _, err := ReadJSON([]byte(`{"root": ` + deep)); err == nil || !strings.Contains(err.Error(), "nested") {
		t.Errorf("deep nesting: %v", err)
	}
}

func TestSniff(t *testing.T) {
	for in, want := range map[string]string{
		"\xef\xbb\xbf  <!DOCTYPE NETSCAPE-Bookmark-file-1>": "netscape",
		"\n{\"root\": {}}":              "json",
		"[Go](https://go.dev/)":         "list",
		"https://go.dev/\nhttps://a.b/": "list",
	} {
		if got := Sniff([]byte(in)); got != want {
			t.Errorf("Sniff(%q) = %s, want %s", in, got, want)
		}
	}
}

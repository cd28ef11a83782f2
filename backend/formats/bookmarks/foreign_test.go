package bookmarks

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// Other projects' own test files (testdata/foreign, with their licences): what each wrote is
// read as it meant it, and what no field holds is said, not dropped in silence.

func TestShaarliFiles(t *testing.T) {
	d, err := ReadNetscape(readFile(t, "foreign/shaarli_netscape_basic.htm"))
	if err != nil {
		t.Fatal(err)
	}
	// Shaarli separates tags with spaces; its dates may be an Apache log's.
	want := []string{
		"L |Secret stuff|https://private.tld|private,secret|Super-secret stuff you're not supposed to know about",
		"L |Public stuff|http://public.tld|public,hello,world|",
	}
	if got := flatten(d); !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if at := time.Date(2000, 10, 10, 13, 55, 36, 0, time.FixedZone("", 3*3600)).Unix(); d.Root.Children[0].Added != at {
		t.Errorf("10/Oct/2000:13:55:36 +0300 read as %d, want %d", d.Root.Children[0].Added, at)
	}
	if d.Root.Children[1].Added != 1456433748 {
		t.Errorf("unix ADD_DATE read as %d", d.Root.Children[1].Added)
	}
	// The private flag has no field: said once, with how many and where first.
	if !hasWarning(d, 8, "private") {
		t.Errorf("warnings %+v", d.Warnings)
	}

	// Commas in the file: commas separate its tags.
	d, err = ReadNetscape(readFile(t, "foreign/shaarli_netscape_nested.htm"))
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Root.Children[0].Tags; !reflect.DeepEqual(got, []string{"tag1", "tag2"}) {
		t.Errorf("nested tags %q", got)
	}
}

func TestLinkdingFile(t *testing.T) {
	d, err := ReadNetscape(readFile(t, "foreign/linkding_simple_valid_import_file_with_duplicated_tag.html"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"L |test title 1|https://example.com/1|tag1|test description 1",
		"L |test title 2|https://example.com/2|tag1,tag2|test description 2",
		"L |test title 3|https://example.com/3|tag1,tag2,tag3|test description 3",
	}
	if got := flatten(d); !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, e := range d.Root.Children {
		if e.Added != 1616337559 {
			t.Errorf("%s: ADD_DATE read as %d", e.Title, e.Added)
		}
	}
	if len(d.Warnings) != 0 { // PRIVATE="0" TOREAD="0" say nothing
		t.Errorf("warnings %+v", d.Warnings)
	}
}

func TestFirefoxOwnTestFile(t *testing.T) {
	d, err := ReadNetscape(readFile(t, "foreign/mozilla_bookmarks.preplaces.html"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(flatten(d)); n != 12 {
		t.Errorf("%d entries:\n%s", n, strings.Join(flatten(d), "\n"))
	}
	post := d.Root.Children[1].Children[0]
	if post.Keyword != "test" || post.Notes != "item description" {
		t.Errorf("the keyword bookmark: %+v", post)
	}
	feed := d.Root.Children[3].Children[1]
	if feed.FeedURL != "http://en-US.fxfeeds.mozilla.com/en-US/firefox/headlines.xml" {
		t.Errorf("the live bookmark: %+v", feed)
	}
	for _, w := range []struct {
		line int
		what string
	}{{12, "favicon"}, {21, "POST"}, {21, "sidebar"}, {21, "character set"}, {24, "unsorted"}, {28, "toolbar"}} {
		if !hasWarning(d, w.line, w.what) {
			t.Errorf("no warning about %q at line %d: %+v", w.what, w.line, d.Warnings)
		}
	}
	for _, w := range d.Warnings {
		if strings.Contains(w.Reason, "(ID)") || strings.Contains(w.Reason, "SHORTCUTURL") || strings.Contains(w.Reason, "FEEDURL") {
			t.Errorf("warning about what is kept or means nothing: %+v", w)
		}
	}
	// Keywords and feed addresses survive a round trip through the writer.
	var buf strings.Builder
	if err := WriteNetscape(&buf, d); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{` SHORTCUTURL="test"`, ` FEEDURL="http://en-US.fxfeeds.mozilla.com/en-US/firefox/headlines.xml"`} {
		if !strings.Contains(buf.String(), s) {
			t.Errorf("written without %s", s)
		}
	}
}

// TestUnreadableDateSaid: an ADD_DATE that is no date is said, with its line.
func TestUnreadableDateSaid(t *testing.T) {
	d, err := ReadNetscape([]byte("<DL><p>\n<DT><A HREF=\"https://a.test/\" ADD_DATE=\"last tuesday\">a</A>\n</DL><p>\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Root.Children[0].Added != 0 || !hasWarning(d, 2, "last tuesday") {
		t.Errorf("added %d, warnings %+v", d.Root.Children[0].Added, d.Warnings)
	}
}

func hasWarning(d *Document, line int, what string) bool {
	for _, w := range d.Warnings {
		if w.Line == line && strings.Contains(w.Reason, what) {
			return true
		}
	}
	return false
}

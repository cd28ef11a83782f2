package extract

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestBlocks(t *testing.T) {
	page := `<html><head><title>T</title><style>p{}</style></head><body>
<nav><a href="/">Home</a> <a href="next.html">Next</a></nav>
<h1>The  card
 index</h1>
<p>Otlet's <em>cards</em> were filed<br>by number.</p>
<pre>
func main() {
	fmt.Println("hi")
}</pre>
<ul><li>one</li><li>two<ul><li>two-a</li></ul>still two</li></ul>
<ol start="3"><li>three</li><li><p>four</p><p>four, again</p></li></ol>
<blockquote><p>A quotation.</p></blockquote>
<dl><dt>UDC</dt><dd>Universal Decimal Classification</dd></dl>
<table><tr><th>Name</th><th>Year</th></tr><tr><td>RBU</td><td>1895 <b>(founded)</b></td></tr></table>
<div>Loose text <span>in a div</span></div>
<footer>Copyright</footer>
</body></html>`
	got := Blocks([]byte(page), nil, 0)
	want := []Block{
		{Kind: BlockHeading, Level: 1, Text: "The card index"},
		{Kind: BlockPara, Text: "Otlet's cards were filed\nby number."},
		{Kind: BlockPre, Text: "func main() {\n\tfmt.Println(\"hi\")\n}"},
		{Kind: BlockItem, Depth: 1, Marker: "•", Text: "one"},
		{Kind: BlockItem, Depth: 1, Marker: "•", Text: "two"},
		{Kind: BlockItem, Depth: 2, Marker: "•", Text: "two-a"},
		{Kind: BlockItem, Depth: 1, Text: "still two"},
		{Kind: BlockItem, Depth: 1, Marker: "3.", Text: "three"},
		{Kind: BlockItem, Depth: 1, Marker: "4.", Text: "four"},
		{Kind: BlockItem, Depth: 1, Text: "four, again"},
		{Kind: BlockQuote, Text: "A quotation."},
		{Kind: BlockTerm, Text: "UDC"},
		{Kind: BlockDef, Text: "Universal Decimal Classification"},
		{Kind: BlockRow, Head: true, Cells: []string{"Name", "Year"}},
		{Kind: BlockRow, Cells: []string{"RBU", "1895 (founded)"}},
		{Kind: BlockPara, Text: "Loose text in a div"},
	}
	g, _ := json.MarshalIndent(got, "", " ")
	w, _ := json.MarshalIndent(want, "", " ")
	if string(g) != string(w) {
		t.Errorf("Blocks =\n%s\nwant\n%s", g, w)
	}
}

func TestBlocksOfAPageThatIsAllChrome(t *testing.T) {
	got := Blocks([]byte(`<nav><ul><li>Home</li><li>About</li></ul></nav>`), nil, 0)
	if len(got) != 2 || got[0].Text != "Home" || got[1].Text != "About" {
		t.Errorf("Blocks = %+v", got)
	}
}

func TestBlocksAreBounded(t *testing.T) {
	page := strings.Repeat("<p>"+strings.Repeat("é", 50)+"</p>", 1000)
	got := Blocks([]byte(page), nil, 1001)
	n := 0
	for _, b := range got {
		n += len(b.Text)
		if !utf8.ValidString(b.Text) {
			t.Fatalf("invalid UTF-8: %q", b.Text)
		}
	}
	if n > 1001+len(got) || len(got) == 0 {
		t.Errorf("%d bytes in %d blocks for a budget of 1001", n, len(got))
	}
}

func FuzzBlocks(f *testing.F) {
	for _, s := range []string{"<p>x</p>", "<pre>\na\n</pre>", "<ul><li>a<ol><li>b", "<table><tr><td>a<table><td>b</table>",
		"<h1>a<h2>b", "<br><br>", "<nav>x</nav>", "<dl><dt>a<dd>b", "<blockquote>q", "\xff<p>\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		bs := Blocks([]byte(s), nil, 4096)
		if len(bs) > MaxBlocks {
			t.Fatalf("%d blocks", len(bs))
		}
		n := 0
		for _, b := range bs {
			n += len(b.Text)
			for _, c := range b.Cells {
				n += len(c)
				if !utf8.ValidString(c) {
					t.Fatalf("invalid UTF-8 cell %q", c)
				}
			}
			if !utf8.ValidString(b.Text) || len(b.Cells) > maxCells {
				t.Fatalf("bad block %+v", b)
			}
			if b.Kind != BlockRow && strings.TrimSpace(b.Text) == "" {
				t.Fatalf("empty block %+v from %q", b, s)
			}
		}
		if n > 2*4096+len(bs) {
			t.Fatalf("%d bytes of text for a budget of 4096", n)
		}
	})
}

package extract

import (
	"bytes"
	"net/url"
	"strconv"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Blocks are a page's text as a reader sees it: its headings, paragraphs, list items,
// preformatted code, quotations and table rows kept apart, in order, for the offline copy's
// Text tab (Text runs them together: it is what search reads). They come from the same
// pass as the Summary, so the chrome the Summary leaves out of Text (navigation bars,
// site headers and footers) is left out here too, and a page whose every word is chrome
// keeps that text.

// Kinds of Block.
const (
	BlockHeading = "heading" // Level 1-6
	BlockPara    = "p"       // a paragraph, or the text of any other block element
	BlockItem    = "li"      // a list item: Depth, Marker
	BlockPre     = "pre"     // preformatted text (code): whitespace kept
	BlockQuote   = "quote"   // a paragraph of a blockquote
	BlockTerm    = "dt"      // a term of a definition list
	BlockDef     = "dd"      // its definition
	BlockRow     = "row"     // a table row: Cells (Head: a row of th cells)
)

// Block is one unit of a page's text.
type Block struct {
	Kind   string   `json:"kind"`
	Text   string   `json:"text,omitempty"`   // whitespace-collapsed but for <br> (a newline) and pre
	Level  int      `json:"level,omitempty"`  // heading level
	Depth  int      `json:"depth,omitempty"`  // list nesting, 1 for a top-level list
	Marker string   `json:"marker,omitempty"` // "•" or "3." for a list item
	Cells  []string `json:"cells,omitempty"`
	Head   bool     `json:"head,omitempty"`
}

// Caps on Blocks.
const (
	MaxBlocks = 50000
	maxCells  = 64
)

// Blocks returns the blocks of a UTF-8 HTML document's text (at most maxText bytes of text
// in all: MaxText when 0).
func Blocks(body []byte, pageURL *url.URL, maxText int) []Block {
	if maxText <= 0 {
		maxText = MaxText
	}
	p := parserPool.Get().(*parser)
	defer parserPool.Put(p)
	p.reset(pageURL, maxText)
	b := &blockBuilder{left: maxText}
	p.blk = b
	defer func() { p.blk = nil }()
	p.z = html.NewTokenizer(bytes.NewReader(body))
	p.run()
	p.z = nil
	b.flush()
	if len(b.main) == 0 {
		return b.chrome
	}
	return b.main
}

// blockBuilder gathers blocks as the parser meets elements and text.
type blockBuilder struct {
	main, chrome []Block
	left         int // text bytes still allowed

	cur     []byte // the open block's text
	sep     bool   // a space is owed before the next word
	chromeT bool   // the open block's text is chrome

	heading  int  // the open heading's level
	pre      int  // depth in <pre>
	preStart bool // no text yet since <pre> opened
	quote    int  // depth in <blockquote>
	lists    []listState
	dt, dd   int

	table int // depth in <table>
	row   *Block
	cell  int // depth in <td>/<th> of the outermost table
}

type listState struct {
	ordered bool
	n       int // the open item's number
	emitted int // the number of the item whose marker was given
}

func (b *blockBuilder) out(chrome bool) *[]Block {
	if chrome {
		return &b.chrome
	}
	return &b.main
}

// flush ends the open block: its text becomes a block of the kind the open elements say.
func (b *blockBuilder) flush() {
	text := b.cur
	if b.pre == 0 {
		text = bytes.TrimRight(text, " \n")
	}
	b.cur, b.sep = b.cur[:0], false
	if len(bytes.TrimSpace(text)) == 0 {
		return
	}
	blocks := b.out(b.chromeT)
	if len(*blocks) >= MaxBlocks {
		return
	}
	bl := Block{Kind: BlockPara, Text: string(text)}
	switch {
	case b.pre > 0:
		bl.Kind = BlockPre
	case b.heading > 0:
		bl.Kind, bl.Level = BlockHeading, b.heading
	case len(b.lists) > 0:
		l := &b.lists[len(b.lists)-1]
		bl.Kind, bl.Depth = BlockItem, len(b.lists)
		switch {
		case l.emitted == l.n:
			// The item's second paragraph (or its text after a nested list): no marker.
		case l.ordered:
			bl.Marker = strconv.Itoa(max(l.n, 1)) + "."
		default:
			bl.Marker = "•"
		}
		l.emitted = l.n
	case b.dt > 0:
		bl.Kind = BlockTerm
	case b.dd > 0:
		bl.Kind = BlockDef
	case b.quote > 0:
		bl.Kind = BlockQuote
	}
	*blocks = append(*blocks, bl)
}

// blockElem reports whether an element starts and ends a block of text.
func blockElem(a atom.Atom) bool {
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return isBlock(a)
}

// start is called for every start tag (after the chrome is decided).
func (b *blockBuilder) start(p *parser, a atom.Atom, selfClosing bool) {
	if b.cell > 0 {
		// Inside a table cell everything is the cell's text; nested tables too.
		switch a {
		case atom.Br:
			b.newline()
		case atom.Td, atom.Th:
			if b.table == 1 {
				b.endCell()
				b.cell++
			} else {
				b.space()
			}
		case atom.Tr:
			if b.table == 1 {
				b.endRow()
				b.row = &Block{Kind: BlockRow, Head: true}
			} else {
				b.space()
			}
		case atom.Table:
			b.table++
			b.space()
		default:
			if isBlock(a) {
				b.space()
			}
		}
		return
	}
	if a == atom.Br {
		b.newline()
		return
	}
	if !blockElem(a) {
		return
	}
	b.flush()
	b.chromeT = p.chromeTag != 0
	if selfClosing {
		return
	}
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		b.heading = int(a.String()[1] - '0')
	case atom.Pre, atom.Listing:
		b.pre++
		b.preStart = true
	case atom.Blockquote:
		b.quote++
	case atom.Ul, atom.Ol, atom.Menu, atom.Dir:
		if len(b.lists) < 32 {
			st := listState{ordered: a == atom.Ol, emitted: -1}
			if start, _, _ := p.attr3("start", "", ""); st.ordered && start != nil {
				if n, err := strconv.Atoi(string(trimSpace(start))); err == nil && n > 0 && n < 1<<30 {
					st.n = n - 1
				}
			}
			b.lists = append(b.lists, st)
		}
	case atom.Li:
		if len(b.lists) > 0 {
			b.lists[len(b.lists)-1].n++
		}
	case atom.Dt:
		b.dt++
	case atom.Dd:
		b.dd++
	case atom.Table:
		b.table++
	case atom.Tr:
		if b.table == 1 {
			b.row = &Block{Kind: BlockRow, Head: true}
		}
	case atom.Td, atom.Th:
		if b.table == 1 {
			if b.row == nil {
				b.row = &Block{Kind: BlockRow, Head: true}
			}
			b.cell++
			if a == atom.Td {
				b.row.Head = false
			}
		}
	}
}

// end is called for every end tag.
func (b *blockBuilder) end(a atom.Atom) {
	if b.cell > 0 {
		switch a {
		case atom.Td, atom.Th:
			if b.table == 1 {
				b.endCell()
			}
			return
		case atom.Tr:
			if b.table == 1 {
				b.endCell()
				b.endRow()
			}
			return
		case atom.Table:
			if b.table > 1 {
				b.table--
				b.space()
				return
			}
			b.endCell()
			b.endRow()
			b.table = 0
			return
		}
		if isBlock(a) {
			b.space()
		}
		return
	}
	if !blockElem(a) {
		return
	}
	b.flush()
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		b.heading = 0
	case atom.Pre, atom.Listing:
		b.pre = max(b.pre-1, 0)
	case atom.Blockquote:
		b.quote = max(b.quote-1, 0)
	case atom.Ul, atom.Ol, atom.Menu, atom.Dir:
		if len(b.lists) > 0 {
			b.lists = b.lists[:len(b.lists)-1]
		}
	case atom.Dt:
		b.dt = max(b.dt-1, 0)
	case atom.Dd:
		b.dd = max(b.dd-1, 0)
	case atom.Tr:
		b.endRow()
	case atom.Table:
		b.endRow()
		b.table = max(b.table-1, 0)
	}
}

func (b *blockBuilder) endCell() {
	if b.cell == 0 {
		return
	}
	b.cell = 0
	text := string(bytes.TrimSpace(b.cur))
	b.cur, b.sep = b.cur[:0], false
	if b.row != nil && len(b.row.Cells) < maxCells {
		b.row.Cells = append(b.row.Cells, text)
	}
}

func (b *blockBuilder) endRow() {
	r := b.row
	b.row = nil
	if r == nil {
		return
	}
	empty := true
	for _, c := range r.Cells {
		if c != "" {
			empty = false
		}
	}
	if blocks := b.out(b.chromeT); !empty && len(*blocks) < MaxBlocks {
		*blocks = append(*blocks, *r)
	}
}

func (b *blockBuilder) space() {
	if len(b.cur) > 0 {
		b.sep = true
	}
}

func (b *blockBuilder) newline() {
	if b.pre > 0 {
		b.add([]byte{'\n'})
		return
	}
	b.cur = bytes.TrimRight(b.cur, " ")
	if len(b.cur) > 0 && b.left > 0 {
		b.cur = append(b.cur, '\n')
		b.left--
	}
	b.sep = false
}

// text adds text the reader sees (chrome says whether it is the chrome's).
func (b *blockBuilder) text(s []byte, chrome bool) {
	if b.cell == 0 && len(b.cur) == 0 {
		b.chromeT = chrome
	}
	if b.pre > 0 {
		if b.preStart && len(s) > 0 && s[0] == '\n' {
			s = s[1:] // the newline right after <pre> is not the text's
		}
		b.preStart = false
		b.add(s)
		return
	}
	for len(s) > 0 && b.left > 0 {
		r, n := utf8.DecodeRune(s)
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\u00a0' {
			b.space()
			s = s[n:]
			continue
		}
		if b.sep && len(b.cur) > 0 && b.cur[len(b.cur)-1] != '\n' {
			b.cur = append(b.cur, ' ')
			b.left--
		}
		b.sep = false
		b.cur = append(b.cur, s[:n]...)
		b.left -= n
		s = s[n:]
	}
}

// add appends text as it is (pre), within the budget, on a rune boundary.
func (b *blockBuilder) add(s []byte) {
	if len(s) > b.left {
		s = s[:b.left]
		for len(s) > 0 && !utf8.Valid(s) {
			s = s[:len(s)-1]
		}
	}
	b.cur = append(b.cur, s...)
	b.left -= len(s)
}

package rules

import "unicode/utf8"

// SpanKind says what a stretch of rule text is.
type SpanKind string

// Span kinds.
const (
	SpanCategory SpanKind = "category" // * + - ?
	SpanField    SpanKind = "field"
	SpanPunct    SpanKind = "punct" // : { }
	SpanKeyword  SpanKind = "keyword"
	SpanGlob     SpanKind = "glob"
	SpanRegex    SpanKind = "regex"
	SpanCompare  SpanKind = "compare"
	SpanComment  SpanKind = "comment"
	SpanError    SpanKind = "error" // from a syntax error to the end of its line
)

// Span is a stretch of rule text: byte offsets, end exclusive.
type Span struct {
	Kind       SpanKind
	Start, End int
}

// Highlight parses text and says what each stretch of it is, as far as it parses; after a
// syntax error the rest of that line is marked as the error. It returns the parse's error.
func Highlight(text string) ([]Span, *Set, error) {
	p := &parser{src: text, line: 1, col: 1}
	set, err := p.parse()
	if err != nil && len(text) <= MaxText {
		// Mark from the error's position to the end of its line.
		start := p.off
		if pe, ok := err.(*Error); ok {
			start = offsetOf(text, pe.Pos)
		}
		if start >= len(text) && len(text) > 0 {
			// At the end of the text: mark its last character, where more was expected.
			_, n := utf8.DecodeLastRuneInString(text)
			start = len(text) - n
		}
		end := start
		for end < len(text) && text[end] != '\n' {
			end++
		}
		if end == start && end < len(text) {
			end++
		}
		if end > start {
			p.spans = append(p.spans, Span{Kind: SpanError, Start: start, End: end})
		}
	}
	return p.spans, set, err
}

// offsetOf is the byte offset of a line and column (in characters) of text.
func offsetOf(text string, at Pos) int {
	line, col := 1, 1
	for i, r := range text {
		if line == at.Line && col == at.Col {
			return i
		}
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return len(text)
}

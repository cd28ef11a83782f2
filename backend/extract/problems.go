package extract

import "bytes"

// HTML problems recorded in Summary.Problems (WWWW logged missing titles and
// broken quotes and brackets; Mundaneum keeps them per page).
const (
	ProblemNoTitle         = "no-title"         // no <title> element
	ProblemEmptyTitle      = "empty-title"      // the first <title> has no text
	ProblemMultipleTitles  = "multiple-titles"  // more than one <title>
	ProblemUnclosedQuote   = "unclosed-quote"   // an attribute value swallowed markup or ran to the end
	ProblemUnclosedComment = "unclosed-comment" // a comment ran to the end of the document
	ProblemUnclosedElement = "unclosed-element" // <title>, <script>, <a>... never closed, or <a> inside <a>
	ProblemUnclosedTag     = "unclosed-tag"     // a tag missing its '>' (the next tag starts inside it, or the end comes first)
	ProblemBadBase         = "bad-base"         // <base href> unparseable or not http(s)
	ProblemBadLink         = "bad-link"         // a link target that looks like a web URL but does not parse
	// ProblemTruncated: the document was longer than the crawl's limit (its body, or its
	// text) and only its beginning is indexed.
	ProblemTruncated = "truncated"
)

// problemSet is a bit set of problems; list renders it in a fixed order.
type problemSet uint16

const (
	probNoTitle problemSet = 1 << iota
	probEmptyTitle
	probMultipleTitles
	probUnclosedQuote
	probUnclosedComment
	probUnclosedElement
	probUnclosedTag
	probBadBase
	probBadLink
	probTruncated
)

var problemNames = [...]string{
	ProblemNoTitle, ProblemEmptyTitle, ProblemMultipleTitles, ProblemUnclosedQuote,
	ProblemUnclosedComment, ProblemUnclosedElement, ProblemUnclosedTag, ProblemBadBase,
	ProblemBadLink, ProblemTruncated,
}

func (s problemSet) list() []string {
	if s == 0 {
		return nil
	}
	var out []string
	for i, name := range problemNames {
		if s&(1<<i) != 0 {
			out = append(out, name)
		}
	}
	return out
}

// tagProblem inspects the raw text of one tag for broken quoting. A well-formed
// tag "<...>" holds '<' or '>' only inside quoted values, so the common case is
// two byte scans. atEOF means the tag was cut off by the end of the document.
//
// An attribute value that contains '>' and then '<' followed by a letter, '/' or
// '!', or '>' followed by a newline, has swallowed the markup after a missing end
// quote. A '<' starting a tag outside any quotes means a missing '>'.
func tagProblem(raw []byte, atEOF bool) problemSet {
	if len(raw) < 2 {
		return 0
	}
	inner := raw[1:]
	if !atEOF {
		inner = inner[:len(inner)-1]
		if bytes.IndexByte(inner, '<') < 0 && bytes.IndexByte(inner, '>') < 0 {
			return 0
		}
	}
	for i := 0; i < len(inner); i++ {
		c := inner[i]
		if c == '<' && i+1 < len(inner) && startsTag(inner[i+1]) {
			return probUnclosedTag
		}
		if c != '=' {
			continue
		}
		j := i + 1
		for j < len(inner) && isSpace(inner[j]) {
			j++
		}
		if j >= len(inner) || (inner[j] != '"' && inner[j] != '\'') {
			continue
		}
		k := bytes.IndexByte(inner[j+1:], inner[j])
		if k < 0 {
			// The quote never closes: the value ran to the end of the tag, which
			// only happens at the end of the document.
			return probUnclosedQuote
		}
		if swallowed(inner[j+1 : j+1+k]) {
			return probUnclosedQuote
		}
		i = j + 1 + k
	}
	if atEOF {
		return probUnclosedTag
	}
	return 0
}

// swallowed reports whether a quoted attribute value looks like it contains
// markup that a missing end quote pulled in.
func swallowed(v []byte) bool {
	if bytes.IndexByte(v, '>') < 0 {
		return false
	}
	if bytes.Contains(v, []byte(">\n")) || bytes.Contains(v, []byte(">\r")) {
		return true
	}
	for {
		lt := bytes.IndexByte(v, '<')
		if lt < 0 || lt+1 >= len(v) {
			return false
		}
		if startsTag(v[lt+1]) {
			return true
		}
		v = v[lt+1:]
	}
}

func startsTag(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '/' || c == '!'
}

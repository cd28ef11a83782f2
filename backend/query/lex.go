package query

import (
	"slices"
	"strings"
	"unicode"

	"mundaneum/backend/tokenize"
)

// Limits that keep any input cheap to parse and to run.
const (
	MaxQueryRunes = 2000 // longer input is cut (exported: a saved view checks it)
	maxTokens     = 200  // further tokens are ignored
	maxDepth      = 20   // nesting of parentheses
	maxLeaves     = 40   // words, phrases and filters
	maxRegexLen   = 300  // bytes of a url:/re/ pattern
)

type tokKind int

const (
	tWord   tokKind = iota // a run of non-space characters (raw)
	tPhrase                // "quoted text" (raw, without the quotes)
	tLParen
	tRParen
	tOr    // OR |
	tAnd   // AND &&
	tNot   // NOT
	tMinus // - directly before a term
	tField // name: (text is the canonical field name)
	tRegex // /pattern/ after url: or title:
	tNear  // NEAR directly followed by (
)

type token struct {
	kind   tokKind
	text   string
	prefix bool // tPhrase: "..."*
}

// fieldNames maps what users type to canonical field names.
var fieldNames = map[string]string{
	"title": FieldTitle, "intitle": FieldTitle,
	"anchor": FieldAnchor, "anchors": FieldAnchor, "inanchor": FieldAnchor,
	"body": FieldBody, "text": FieldBody, "intext": FieldBody,
	"heading": FieldHeading, "headings": FieldHeading,
	"url": FieldURL, "inurl": FieldURL,
	"site": "site", "host": "host",
	"ext": "ext", "filetype": "ext",
	"type":    "type",
	"inlinks": "inlinks", "linkto": "linkto",
	"before": "before", "after": "after",
	"changed": "changed", "fetched": "fetched",
	"status": "status", "is": "is",
	"lang": "lang", "crawl": "crawl", "folder": "folder", "tag": "tag",
	"problem": "problem", "problems": "problem",
	"author": "author", "by": "author", "pages": "pages",
	"render": "render", "rendered": "render",
}

// textFields are the fields whose value is text to look for in the index.
var textFields = map[string]bool{FieldTitle: true, FieldAnchor: true, FieldBody: true, FieldHeading: true, FieldURL: true}

func isSpace(r rune) bool { return unicode.IsSpace(r) || r == 0 }

// lex splits a query into tokens. It never fails: every rune ends up in some token or is
// skipped as a separator. cut reports that tokens past maxTokens were dropped; the parser
// says so (once, with its own cut of the terms: see Parse).
func lex(q string, n *Notes) (toks []token, cut bool) {
	rs := []rune(q)
	if len(rs) > MaxQueryRunes {
		rs = rs[:MaxQueryRunes]
		n.Add("the query was cut to its first 2000 characters")
	}
	var out []token
	emit := func(t token) { out = append(out, t) }
	for i := 0; i < len(rs) && len(out) < maxTokens; {
		c := rs[i]
		switch {
		case isSpace(c):
			i++
		case c == '(':
			emit(token{kind: tLParen})
			i++
		case c == ')':
			emit(token{kind: tRParen})
			i++
		case c == '"':
			j := i + 1
			for j < len(rs) && rs[j] != '"' {
				j++
			}
			t := token{kind: tPhrase, text: string(rs[i+1 : j])}
			if j >= len(rs) {
				n.Add("a quote was not closed: read it as closed at the end")
			} else {
				j++
			}
			if j < len(rs) && rs[j] == '*' {
				t.prefix = true
				j++
			}
			if j < len(rs) && rs[j] == '~' {
				// "a b"~1: a phrase is not approximate (and ~N is not a word of it).
				j++
				for j < len(rs) && rs[j] >= '0' && rs[j] <= '9' {
					j++
				}
				n.Add("a phrase cannot be approximate (~): searched for it exactly")
			}
			emit(t)
			i = j
		case c == '-' && i+1 < len(rs) && !isSpace(rs[i+1]) && rs[i+1] != ')':
			emit(token{kind: tMinus})
			i++
		default:
			i = lexRun(rs, i, n, emit)
		}
	}
	return out, len(out) >= maxTokens
}

// lexRun reads a word, an operator, or a field with its value, starting at rs[i].
func lexRun(rs []rune, i int, n *Notes, emit func(token)) int {
	// A field name: letters followed by a colon.
	j := i
	for j < len(rs) && j-i < 16 && (unicode.IsLetter(rs[j]) && rs[j] < 128) {
		j++
	}
	if j > i && j < len(rs) && rs[j] == ':' {
		if f, ok := fieldNames[strings.ToLower(string(rs[i:j]))]; ok {
			emit(token{kind: tField, text: f})
			k := j + 1
			if (f == FieldURL || f == FieldTitle) && k < len(rs) && rs[k] == '/' {
				if end := regexEnd(rs, k+1); end > 0 {
					emit(token{kind: tRegex, text: string(rs[k+1 : end])})
					return end + 1
				}
			}
			if !textFields[f] {
				// Filter values run to the next space (URLs may hold parentheses and colons),
				// less closing parentheses that close a group.
				e := k
				depth := 0
				for e < len(rs) && !isSpace(rs[e]) {
					switch rs[e] {
					case '(':
						depth++
					case ')':
						depth--
					}
					e++
				}
				for depth < 0 && e > k && rs[e-1] == ')' {
					e--
					depth++
				}
				if e > k {
					v := string(rs[k:e])
					if len(v) > 1 && v[0] == '"' && v[len(v)-1] == '"' {
						v = v[1 : len(v)-1]
					}
					if strings.HasPrefix(v, `"`) {
						// site:"example.com with spaces": take the quoted text.
						return lexQuotedValue(rs, k, emit)
					}
					emit(token{kind: tWord, text: v})
				}
				return e
			}
			return k
		}
	}
	j = i
	for j < len(rs) && !isSpace(rs[j]) && rs[j] != '(' && rs[j] != ')' && rs[j] != '"' {
		j++
	}
	w := string(rs[i:j])
	switch {
	case w == "OR" || w == "|" || w == "||":
		emit(token{kind: tOr})
	case w == "AND" || w == "&&" || w == "&":
		emit(token{kind: tAnd})
	case w == "NOT":
		emit(token{kind: tNot})
	case w == "NEAR" && j < len(rs) && rs[j] == '(':
		emit(token{kind: tNear})
	default:
		if k := strings.IndexByte(w, ':'); k >= 2 && !strings.HasPrefix(w[k+1:], "//") && asciiLetters(w[:k]) {
			n.Add("no field " + strings.ToLower(w[:k]) + ": searched for the words")
		}
		emit(token{kind: tWord, text: w})
	}
	return j
}

func lexQuotedValue(rs []rune, k int, emit func(token)) int {
	e := k + 1
	for e < len(rs) && rs[e] != '"' {
		e++
	}
	emit(token{kind: tWord, text: string(rs[k+1 : e])})
	if e < len(rs) {
		e++
	}
	return e
}

// regexEnd returns the index of the slash that closes a pattern starting at rs[i], or -1.
func regexEnd(rs []rune, i int) int {
	for j := i; j < len(rs); j++ {
		switch rs[j] {
		case '\\':
			j++
		case '/':
			if j == i {
				return -1 // url:// is not a pattern
			}
			return j
		}
	}
	return -1
}

func asciiLetters(s string) bool {
	for _, r := range s {
		if r > 127 || !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

// Tokens splits text into the words FTS5's unicode61 tokenizer sees, by the index's own
// tables (backend/tokenize): runs of letters, numbers, private-use characters and the
// combining marks it removes ("Zu\u0308rich" is one word, as the index holds it). A run of
// marks alone is no word. The words keep their case and marks (FTS5 folds them); no FTS5
// syntax survives this.
func Tokens(s string) []string {
	ws := strings.FieldsFunc(s, func(r rune) bool { return !tokenize.IsTokenRune(r) })
	return slices.DeleteFunc(ws, func(w string) bool { return tokenize.Fold(w) == "" })
}

// Notes collects the gentle remarks about what the engine did with a query, once each.
type Notes struct{ List []string }

func (n *Notes) Add(s string) {
	for _, x := range n.List {
		if x == s {
			return
		}
	}
	if len(n.List) < 8 {
		n.List = append(n.List, s)
	}
}

func (n *Notes) String() string { return strings.Join(n.List, "; ") }

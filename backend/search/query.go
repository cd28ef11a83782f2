// Package search turns a user's query into a parameterised FTS5 query over the workspace
// index and returns ranked results with snippets. Any input is a legal query: what cannot be
// read as an operator is read as words.
package search

import (
	"strings"
	"unicode"
)

// term is one parsed element of a query.
type term struct {
	text   string // the words ("" for OR)
	phrase bool   // "quoted words"
	prefix bool   // word*
	neg    bool   // -word
	or     bool   // the OR operator between two terms
}

// parse reads words, "phrases", -exclusions, word* prefixes and OR.
func parse(q string) []term {
	var out []term
	rs := []rune(q)
	for i := 0; i < len(rs); {
		for i < len(rs) && unicode.IsSpace(rs[i]) {
			i++
		}
		if i >= len(rs) {
			break
		}
		t := term{}
		if rs[i] == '-' && i+1 < len(rs) && !unicode.IsSpace(rs[i+1]) {
			t.neg = true
			i++
		}
		if rs[i] == '"' {
			j := i + 1
			for j < len(rs) && rs[j] != '"' {
				j++
			}
			t.text, t.phrase = string(rs[i+1:j]), true
			i = j + 1
		} else {
			j := i
			for j < len(rs) && !unicode.IsSpace(rs[j]) {
				j++
			}
			t.text = string(rs[i:j])
			i = j
			if t.text == "OR" && !t.neg {
				out = append(out, term{or: true})
				continue
			}
			if strings.HasSuffix(t.text, "*") {
				t.text, t.prefix = strings.TrimRight(t.text, "*"), true
			}
		}
		if words(t.text) != "" {
			out = append(out, t)
		}
	}
	return out
}

// words keeps the letters and digits of s, separated by single spaces: the tokens FTS5's
// unicode61 tokenizer would see, free of any FTS5 syntax.
func words(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	}), " ")
}

// matchExpr builds the FTS5 MATCH expression: every word quoted, operators placed by the
// program, never copied from the input. ok is false when nothing positive is left to match.
func matchExpr(ts []term) (expr string, ok bool) {
	var pos, neg []string
	pendingOr := false
	for _, t := range ts {
		if t.or {
			pendingOr = len(pos) > 0
			continue
		}
		w := strings.Fields(words(t.text))
		var s string
		if t.phrase || len(w) > 1 {
			s = `"` + strings.Join(w, " ") + `"`
		} else {
			s = `"` + w[0] + `"`
		}
		if t.prefix {
			s += "*"
		}
		if t.neg {
			neg = append(neg, s)
			pendingOr = false
			continue
		}
		if pendingOr {
			pos[len(pos)-1] = "(" + pos[len(pos)-1] + " OR " + s + ")"
			pendingOr = false
			continue
		}
		pos = append(pos, s)
	}
	if len(pos) == 0 {
		return "", false
	}
	expr = strings.Join(pos, " AND ")
	for _, n := range neg {
		expr = "(" + expr + ") NOT " + n
	}
	return expr, true
}

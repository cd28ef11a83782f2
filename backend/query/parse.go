package query

import (
	"regexp"
	"strconv"
	"strings"
)

// Query is a parsed query: a syntax tree and the notes about how the input was read.
type Query struct {
	Root  Node     // nil when nothing is left to search for
	Notes []string // what the parser did with input it could not take as written
}

// Parse reads a query. Any input is legal: what cannot be read as an operator is read as
// words, and each repair adds a note.
func Parse(q string) Query {
	var n Notes
	toks, cut := lex(q, &n)
	p := &parser{toks: toks, n: &n}
	root := simplify(p.seq(0))
	// A long query is cut twice, to maxTokens tokens and then to maxLeaves terms: one
	// note says so, the terms' when both apply (the one a user counts in).
	if cut && p.leaves <= maxLeaves {
		n.Add("the query was cut: only its first 200 words, operators and brackets were read")
	}
	return Query{Root: root, Notes: n.List}
}

type parser struct {
	toks   []token
	pos    int
	n      *Notes
	leaves int
}

func (p *parser) peek() (token, bool) {
	if p.pos >= len(p.toks) {
		return token{}, false
	}
	return p.toks[p.pos], true
}

// seq reads terms side by side (implicit AND) up to the end, or up to ')' inside a group.
func (p *parser) seq(depth int) Node {
	and := &And{}
	for {
		t, ok := p.peek()
		if !ok {
			break
		}
		switch t.kind {
		case tRParen:
			if depth > 0 {
				return and
			}
			p.n.Add("a closing parenthesis had no opening one: ignored it")
			p.pos++
			continue
		case tAnd:
			p.pos++
			if len(and.Nodes) == 0 || p.atEnd() {
				p.n.Add("AND needs something on both sides: ignored it")
			}
			continue
		case tOr:
			p.pos++
			p.n.Add("OR needs something on both sides: ignored it")
			continue
		}
		at := p.pos
		if x := p.or(depth); x != nil {
			and.Nodes = append(and.Nodes, x)
		}
		if p.pos == at {
			p.pos++ // always make progress
		}
	}
	return and
}

// atEnd reports whether no term follows (end of input or of the group).
func (p *parser) atEnd() bool {
	t, ok := p.peek()
	return !ok || t.kind == tRParen
}

func (p *parser) or(depth int) Node {
	first := p.unary(depth)
	or := &Or{Nodes: []Node{first}}
	for {
		t, ok := p.peek()
		if !ok || t.kind != tOr {
			break
		}
		p.pos++
		if next, ok := p.peek(); !ok || next.kind == tRParen || next.kind == tOr || next.kind == tAnd {
			p.n.Add("OR needs something on both sides: ignored it")
			continue
		}
		or.Nodes = append(or.Nodes, p.unary(depth))
	}
	return simplify(or)
}

func (p *parser) unary(depth int) Node {
	t, ok := p.peek()
	if ok && (t.kind == tMinus || t.kind == tNot) {
		p.pos++
		if next, ok := p.peek(); !ok || next.kind == tRParen || next.kind == tOr || next.kind == tAnd {
			p.n.Add("nothing followed - or NOT: ignored it")
			return nil
		}
		x := p.unary(depth)
		if x == nil {
			return nil
		}
		return &Not{Node: x}
	}
	return p.primary(depth)
}

func (p *parser) primary(depth int) Node {
	t, ok := p.peek()
	if !ok {
		return nil
	}
	p.pos++
	switch t.kind {
	case tLParen:
		d := depth + 1
		if d > maxDepth {
			p.n.Add("parentheses nested too deep: read the inner ones as plain grouping")
			d = depth
		}
		inner := p.seq(d)
		if next, ok := p.peek(); ok && next.kind == tRParen {
			p.pos++
		} else {
			p.n.Add("a parenthesis was not closed: read it as closed at the end")
		}
		return inner
	case tPhrase:
		return p.text(t.text, true, t.prefix)
	case tWord, tRegex:
		return p.word(t.text)
	case tNear:
		return p.near()
	case tField:
		return p.field(depth, t.text)
	case tRParen:
		p.pos-- // the caller's group ends here
		return nil
	case tAnd, tOr:
		p.n.Add("AND and OR need something on both sides: ignored one")
		return nil
	case tMinus, tNot:
		p.pos--
		return p.unary(depth)
	}
	return nil
}

// word reads a bare word: word* is a prefix, word~N approximate, and a word the tokenizer
// splits (o'reilly, e-mail, example.com) is a phrase of its parts.
func (p *parser) word(raw string) Node {
	raw, fuzzy, approx := cutFuzzy(raw)
	prefix := strings.HasSuffix(raw, "*")
	x := p.text(strings.TrimRight(raw, "*"), false, prefix)
	t, ok := x.(*Text)
	if !approx || !ok || fuzzy == 0 {
		return x
	}
	if fuzzy > MaxFuzzy {
		p.n.Add("approximate words (~) go to two edits: searched within two")
		fuzzy = MaxFuzzy
	}
	switch n := len([]rune(t.Words[0])); {
	case t.Phrase:
		p.n.Add("a word the tokenizer splits cannot be approximate (~): searched for it exactly")
		return x
	case n < minFuzzyLen:
		p.n.Add("an approximate word (~) needs three letters or more: searched for the word itself")
		return x
	case n < 5 && fuzzy > 1:
		p.n.Add("a word under five letters is approximate within one edit: searched for it within one")
		fuzzy = 1
	}
	if t.Prefix {
		p.n.Add("a word cannot be both a prefix (*) and approximate (~): searched for it approximately")
		t.Prefix = false
	}
	t.Fuzzy = fuzzy
	return t
}

// Approximate words: word~1 and word~2 (word~ is word~1) match the words of the index within
// that many edits (Damerau-Levenshtein: a letter added, left out, changed, or two swapped).
const (
	MaxFuzzy    = 2 // edits an approximate word may have
	minFuzzyLen = 3 // letters an approximate word needs
)

// cutFuzzy splits "word~N" (or "word*~N", "word~N*") into "word" (or "word*") and N;
// approx is false when raw has no such suffix. N is at most MaxFuzzy.
func cutFuzzy(raw string) (word string, n int, approx bool) {
	star := ""
	if strings.HasSuffix(raw, "*") {
		star, raw = "*", strings.TrimRight(raw, "*")
	}
	i := strings.LastIndexByte(raw, '~')
	if i <= 0 {
		return raw + star, 0, false
	}
	d := raw[i+1:]
	switch {
	case d == "":
		n = 1
	case len(d) <= 3 && strings.Trim(d, "0123456789") == "":
		n, _ = strconv.Atoi(d)
	default:
		return raw + star, 0, false
	}
	return raw[:i] + star, n, true
}

func (p *parser) text(raw string, phrase, prefix bool) Node {
	ws := Tokens(raw)
	if len(ws) == 0 {
		return nil
	}
	if !p.leaf() {
		return nil
	}
	if prefix && len([]rune(ws[len(ws)-1])) < 2 {
		p.n.Add("a prefix needs two letters or more: searched for the word itself")
		prefix = false
	}
	return &Text{Words: ws, Phrase: phrase || len(ws) > 1, Prefix: prefix}
}

// leaf counts a word, phrase or filter and reports whether there is room for it.
func (p *parser) leaf() bool {
	p.leaves++
	if p.leaves > maxLeaves {
		p.n.Add("the query was cut to its first 40 terms")
		return false
	}
	return true
}

// near reads NEAR(a b "c d", N) after the NEAR token.
func (p *parser) near() Node {
	if t, ok := p.peek(); ok && t.kind == tLParen {
		p.pos++
	}
	n := &Near{Distance: 10}
	var groups []Text
	add := func(raw string, phrase, prefix bool) {
		if w, d, approx := cutFuzzy(raw); approx && !phrase {
			if d > 0 {
				p.n.Add("NEAR(...) takes exact words: searched for the word without ~")
			}
			raw = w
		}
		if x, ok := p.text(strings.TrimRight(raw, "*"), phrase, prefix || strings.HasSuffix(raw, "*")).(*Text); ok {
			groups = append(groups, *x)
		}
	}
	sawComma, closed := false, false
loop:
	for {
		t, ok := p.peek()
		if !ok {
			break
		}
		p.pos++
		switch t.kind {
		case tRParen:
			closed = true
			break loop
		case tPhrase:
			add(t.text, true, t.prefix)
		case tWord:
			w := t.text
			if i := strings.LastIndexByte(w, ','); i >= 0 {
				if left := strings.TrimRight(w[:i], ","); left != "" {
					add(left, false, false)
				}
				w, sawComma = w[i+1:], true
			}
			if w == "" {
				continue
			}
			if d, err := strconv.Atoi(w); err == nil && sawComma {
				n.Distance = min(max(d, 0), 100)
				continue
			}
			add(w, false, false)
		default:
			p.n.Add("NEAR(...) takes words and phrases: ignored the rest")
		}
	}
	if !closed {
		p.n.Add("a parenthesis was not closed: read it as closed at the end")
	}
	switch len(groups) {
	case 0:
		return nil
	case 1:
		p.n.Add("NEAR needs two words or more: searched for the word")
		return &groups[0]
	}
	n.Groups = groups
	return n
}

// field reads the value of name: (the field token is consumed).
func (p *parser) field(depth int, name string) Node {
	t, ok := p.peek()
	if !ok || t.kind == tRParen || t.kind == tOr || t.kind == tAnd {
		p.n.Add(name + ": needs a value")
		return nil
	}
	if t.kind == tField {
		p.n.Add(name + ": needs a value")
		return nil
	}
	if textFields[name] {
		if t.kind == tRegex {
			p.pos++
			return p.regex(name, t.text)
		}
		x := p.unary(depth)
		setField(x, name)
		return x
	}
	if t.kind != tWord && t.kind != tPhrase {
		p.n.Add(name + ": needs a value")
		return nil
	}
	p.pos++
	if !p.leaf() {
		return nil
	}
	return filter(name, strings.TrimSpace(t.text), p.n)
}

// setField limits the text leaves under n that have no field to the given one.
func setField(n Node, f string) {
	Walk(n, false, func(n Node, _ bool) {
		switch x := n.(type) {
		case *Text:
			if x.Field == "" {
				x.Field = f
			}
		case *Near:
			if x.Field == "" {
				x.Field = f
				for i := range x.Groups {
					x.Groups[i].Field = f
				}
			}
		}
	})
}

// regex checks a url:/re/ or title:/re/ pattern; a bad one is searched as words.
func (p *parser) regex(field, pat string) Node {
	if !p.leaf() {
		return nil
	}
	bad := ""
	if len(pat) > maxRegexLen {
		bad = "is too long"
	} else if _, err := regexp.Compile("(?i)" + pat); err != nil {
		bad = "is not a valid regular expression"
	}
	if bad != "" {
		p.n.Add(field + ":/" + Clip(pat, 40) + "/ " + bad + ": searched for its words")
		p.leaves--
		x := p.text(pat, true, false)
		setField(x, field)
		return x
	}
	return &Regexp{Field: field, Pattern: pat}
}

func Clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

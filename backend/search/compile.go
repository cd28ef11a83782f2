package search

import (
	"strconv"
	"strings"
	"time"

	"mundaneum/backend/query"
	"mundaneum/backend/urlnorm"
)

// plan is a compiled query: the parts of one parameterised SQL statement over
// pages p (joined to page_fts f when match is set). No user text is ever pasted into the SQL:
// values are bound, and FTS5 expressions are built here with every term quoted.
type plan struct {
	match string // FTS5 expression for the statement's MATCH; "" when none
	// pairs, when set, is the expression over page_pairs that finds exactly what match does
	// (a phrase of frequent words, see pairs.go): the statement asks it instead. pairAtoms
	// are its pair tokens, quoted.
	pairs     string
	pairAtoms []string
	conj      []conjunct   // the positive conjuncts of match (see rankable)
	negated   bool         // match leaves out some text (a NOT b)
	rank      string       // FTS5 expression ranking and highlighting hits when match is ""
	where     []string     // conditions on p, ANDed
	args      []any        // arguments of where, in order; *regexLeaf values are bound late
	regexps   []*regexLeaf // regexps nested in OR or NOT groups: evaluated over every page
	// top are the regexps that are conjuncts of the whole query: evaluated over the matches
	// of the rest of it, their combined result bound as topIDs.
	top    []topRegex
	topIDs string
	// expand holds the terms the query's long prefixes and approximate words were asked as
	// (expandPrefixes, expandApprox): the snippets highlight those terms.
	expand map[string][]string
}

type topRegex struct {
	re     *Regexp
	negate bool
}

// topRegexp returns the Regexp of x when x is one, or its negation.
func topRegexp(x Node) (*Regexp, bool) {
	switch x := x.(type) {
	case *Regexp:
		return x, false
	case *Not:
		if r, ok := x.Node.(*Regexp); ok {
			return r, true
		}
	}
	return nil, false
}

// regexLeaf is a url:/re/ or title:/re/ leaf; its matching page ids are computed in Go
// and bound as a JSON array.
type regexLeaf struct {
	node *Regexp
	ids  string // JSON array of page ids, set before the statement runs
}

type compiler struct {
	w      Weights
	args   []any
	regs   []*regexLeaf
	notes  *notes
	atoms  []string            // what fts has quoted since atoms was last reset (see conjunct)
	absent map[string]bool     // stem forms to leave out (see compileWithout)
	expand map[string][]string // long prefixes asked as the OR of their terms (see expandPrefixes)
}

// universe: the pages a query without top-level text ranges over. Duplicates are collapsed
// into the page they duplicate; non-HTML resources known from links are included.
const (
	// The unary + keeps pages_state out of the plan: most pages are fetched, so the state
	// is a poor index to drive a query from; the filters' own indexes are better.
	universeSQL       = `((+p.state = 'fetched' AND p.duplicate_of IS NULL AND p.noindex = 0) OR (+p.state = 'skipped' AND p.reason = 'type'))`
	universeStatusSQL = `((p.state IN ('fetched', 'failed', 'redirected') AND p.duplicate_of IS NULL AND p.noindex = 0) OR (p.state = 'skipped' AND p.reason IN ('type', 'robots')))`
)

// compile turns a syntax tree into a plan.
func compile(root Node, w Weights, n *notes) *plan { return compileWithout(root, w, n, nil, nil) }

// compileWithout compiles leaving out the stem forms (quoted, see compiler.phrase) the
// index is known not to hold: each would cost a seek per index segment in every statement.
func compileWithout(root Node, w Weights, n *notes, absent map[string]bool, expand map[string][]string) *plan {
	c := &compiler{w: w, notes: n, absent: absent, expand: expand}
	pl := &plan{expand: expand}
	var conj []Node
	if a, ok := root.(*And); ok {
		conj = a.Nodes
	} else if root != nil {
		conj = []Node{root}
	}
	var pos, neg []string
	var rest []Node
	for _, x := range conj {
		c.atoms = nil
		if e, positive, ok := c.fts(x); ok {
			if positive {
				pos = append(pos, e)
				pl.conj = append(pl.conj, conjunct{expr: e, atoms: c.atoms})
			} else {
				neg = append(neg, e)
			}
			continue
		}
		rest = append(rest, x)
	}
	if len(pos) > 0 {
		pl.match, pl.negated = combine(pos, neg), len(neg) > 0
	} else {
		pl.conj = nil
		// No text to drive the statement: negated text joins the SQL conditions.
		rest = conj
	}
	for _, x := range rest {
		if r, neg := topRegexp(x); r != nil {
			pl.top = append(pl.top, topRegex{r, neg})
			continue
		}
		pl.where = append(pl.where, c.sql(x))
	}
	if pl.match == "" {
		statusy, positive := false, false
		var texts []string
		if root != nil {
			walk(root, false, func(x Node, negated bool) {
				switch x := x.(type) {
				case *Filter:
					statusy = statusy || x.Field == "status" || x.Field == "is"
					positive = positive || !negated
				case *Regexp:
					positive = positive || !negated
				case *Text, *Near:
					if !negated {
						positive = true
						e, _, _ := c.fts(x)
						texts = append(texts, e)
					}
				}
			})
		}
		if root != nil && !positive {
			n.Add("the query only says what to leave out: showing every page without it")
		}
		u := universeSQL
		if statusy {
			u = universeStatusSQL
		}
		pl.where = append([]string{u}, pl.where...)
		if len(texts) > 0 {
			pl.rank = "(" + strings.Join(texts, " OR ") + ")"
		}
	}
	pl.args, pl.regexps = c.args, c.regs
	return pl
}

// combine builds (p1 AND p2 ...) NOT n1 NOT n2 ...
func combine(pos, neg []string) string {
	e := pos[0]
	if len(pos) > 1 {
		e = "(" + strings.Join(pos, " AND ") + ")"
	}
	for _, n := range neg {
		e = "(" + e + " NOT " + n + ")"
	}
	return e
}

// fts returns the FTS5 expression for n when n is text only. positive is false for a
// negation, which FTS5 can only express against something positive (a NOT b).
func (c *compiler) fts(n Node) (expr string, positive, ok bool) {
	switch x := n.(type) {
	case *Text:
		return c.ftsText(x), true, true
	case *Near:
		var gs []string
		for i := range x.Groups {
			g := x.Groups[i]
			g.Phrase = true // inside NEAR every group is a phrase, without stemming
			gs = append(gs, c.phrase(g.Words, g.Prefix))
		}
		return colFilter(x.Field, "NEAR("+strings.Join(gs, " ")+", "+strconv.Itoa(x.Distance)+")"), true, true
	case *Not:
		e, p, ok := c.fts(x.Node)
		if !ok || !p {
			return "", false, false
		}
		return e, false, true
	case *And:
		var pos, neg []string
		for _, y := range x.Nodes {
			e, p, ok := c.fts(y)
			if !ok {
				return "", false, false
			}
			if p {
				pos = append(pos, e)
			} else {
				neg = append(neg, e)
			}
		}
		if len(pos) == 0 {
			return "", false, false
		}
		return combine(pos, neg), true, true
	case *Or:
		var es []string
		for _, y := range x.Nodes {
			e, p, ok := c.fts(y)
			if !ok || !p {
				return "", false, false
			}
			es = append(es, e)
		}
		return "(" + strings.Join(es, " OR ") + ")", true, true
	}
	return "", false, false
}

// ftsText quotes every word; a plain word (not a phrase, not a prefix, not in a URL) also
// matches the words of its stem (see stemForms); a document with the word as typed
// matches both alternatives, so it ranks above one with another form only.
func (c *compiler) ftsText(t *Text) string {
	if t.Fuzzy > 0 && len(t.Words) == 1 {
		// word~N: the word and its terms within N edits (approx.go), one atom.
		w := strings.ToLower(t.Words[0])
		alts := []string{quote(w)}
		for _, term := range c.expand[approxKey(w, t.Fuzzy)] {
			alts = append(alts, quote(term))
		}
		e := "(" + strings.Join(alts, " OR ") + ")"
		c.atoms = append(c.atoms, e)
		return colFilter(t.Field, e)
	}
	if t.Prefix && !t.Phrase && len(t.Words) == 1 {
		if terms := c.expand[strings.ToLower(t.Words[0])]; len(terms) > 0 {
			alts := make([]string, len(terms))
			for i, term := range terms {
				alts[i] = quote(term)
			}
			e := "(" + strings.Join(alts, " OR ") + ")"
			c.atoms = append(c.atoms, e) // one atom: probed as one stream
			return colFilter(t.Field, e)
		}
	}
	if t.Phrase || t.Prefix || len(t.Words) != 1 || !c.w.Stem || t.Field == FieldURL {
		return colFilter(t.Field, c.phrase(t.Words, t.Prefix))
	}
	w := strings.ToLower(t.Words[0])
	forms := stemForms(w, c.w.MaxVariants)
	if len(forms) == 0 {
		return colFilter(t.Field, c.phrase([]string{w}, false))
	}
	var alts []string
	for range max(c.w.ExactRepeat, 1) {
		alts = append(alts, c.phrase([]string{w}, false))
	}
	for _, f := range forms {
		if !c.absent[quote(f)] {
			alts = append(alts, c.phrase([]string{f}, false))
		}
	}
	return colFilter(t.Field, "("+strings.Join(alts, " OR ")+")")
}

// phrase quotes words as one FTS5 phrase and notes its atoms: the doclists of its words
// (of its last word's prefix when prefix is set), which ranking it would read.
func (c *compiler) phrase(words []string, prefix bool) string {
	for i, w := range words {
		a := quote(strings.ToLower(w))
		if prefix && i == len(words)-1 {
			a += "*"
		}
		c.atoms = append(c.atoms, a)
	}
	return phrase(words, prefix)
}

// quote makes one FTS5 string: the only special character inside is the quote, doubled.
func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func phrase(words []string, prefix bool) string {
	s := quote(strings.Join(words, " "))
	if prefix {
		s += "*"
	}
	return s
}

// ftsColumns maps text fields to page_fts columns.
var ftsColumns = map[string]string{
	FieldTitle: "title", FieldAnchor: "anchors", FieldBody: "headings body", FieldHeading: "headings", FieldURL: "url",
}

func colFilter(field, e string) string {
	if cols, ok := ftsColumns[field]; ok {
		return "{" + cols + "} : " + e
	}
	return e
}

// sql returns a condition on p for n, binding its values.
func (c *compiler) sql(n Node) string {
	if e, p, ok := c.fts(n); ok && p {
		c.args = append(c.args, e)
		return `p.id IN (SELECT rowid FROM page_fts WHERE page_fts MATCH ?)`
	}
	switch x := n.(type) {
	case *Not:
		return `NOT coalesce(` + c.sql(x.Node) + `, 0)`
	case *And:
		return c.join(x.Nodes, " AND ")
	case *Or:
		return c.join(x.Nodes, " OR ")
	case *Filter:
		return c.filter(x)
	case *Regexp:
		r := &regexLeaf{node: x}
		c.regs = append(c.regs, r)
		c.args = append(c.args, r)
		return `p.id IN (SELECT value FROM json_each(?))`
	}
	return "0"
}

func (c *compiler) join(ns []Node, op string) string {
	parts := make([]string, len(ns))
	for i, x := range ns {
		parts[i] = c.sql(x)
	}
	return "(" + strings.Join(parts, op) + ")"
}

func (c *compiler) bind(vs ...any) { c.args = append(c.args, vs...) }

// mediaPrefix matches media types starting with prefix as a range of the pages_type
// index (a GLOB on a bound pattern would scan the table).
func (c *compiler) mediaPrefix(prefix string) string {
	if prefix == "" {
		return `p.content_type IS NOT NULL`
	}
	c.bind(prefix, prefixEnd(prefix))
	return `(p.content_type >= ? AND p.content_type < ?)`
}

// prefixEnd is the least string greater than every string that starts with p (p's last
// byte incremented, after dropping trailing 0xff bytes).
func prefixEnd(p string) string {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1])
		}
	}
	return "\xff\xff\xff\xff"
}

// placeholders returns "?, ?, ..." for n values.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// SQL fragments for filters. extSQL is the lower-case extension of the URL's path (text
// after the last dot, query string left out: an indexed virtual column, see migration
// 0004); dateSQL is the Last-Modified date when the server sent one in the standard
// format, else the fetch date, as YYYY-MM-DD.
const (
	extSQL  = `p.ext`
	dateSQL = `(CASE WHEN p.last_modified GLOB '[A-Z][a-z][a-z], [0-9][0-9] [A-Z][a-z][a-z] [0-9][0-9][0-9][0-9] *'
		THEN substr(p.last_modified, 13, 4) || '-' || (CASE substr(p.last_modified, 9, 3)
			WHEN 'Jan' THEN '01' WHEN 'Feb' THEN '02' WHEN 'Mar' THEN '03' WHEN 'Apr' THEN '04'
			WHEN 'May' THEN '05' WHEN 'Jun' THEN '06' WHEN 'Jul' THEN '07' WHEN 'Aug' THEN '08'
			WHEN 'Sep' THEN '09' WHEN 'Oct' THEN '10' WHEN 'Nov' THEN '11' WHEN 'Dec' THEN '12' END)
			|| '-' || substr(p.last_modified, 6, 2)
		ELSE date(p.fetched_at / 1000, 'unixepoch') END)`
	// Failures that say nothing about the link itself are not "broken".
	brokenSQL = `(p.state = 'failed' AND coalesce(p.reason, '') NOT IN ('rate-limited', 'canceled', 'too-large', 'bomb', 'bad-encoding', 'scheme'))`
)

var isSQL = map[string]string{
	"broken":   brokenSQL,
	"redirect": `p.state = 'redirected'`,
	"failed":   `p.state = 'failed'`,
	"ok":       `p.state = 'fetched'`,
	"resource": `(p.state = 'skipped' AND p.reason = 'type')`,
	"blocked":  `coalesce(p.reason, '') IN ('rate-limited', 'robots', 'forbidden')`,
}

func (c *compiler) filter(f *Filter) string {
	v := f.Value
	switch f.Field {
	case "site", "host":
		var pats []any
		switch {
		case f.Field == "host" && strings.Contains(v, ":"):
			pats = []any{"*://" + v}
		case f.Field == "host":
			pats = []any{"*://" + v, "*://" + v + ":*"}
		case strings.Contains(v, ":"):
			pats = []any{"*://" + v, "*." + v}
		default:
			pats = []any{"*://" + v, "*://" + v + ":*", "*." + v, "*." + v + ":*"}
		}
		c.bind(pats...)
		return `p.host_id IN (SELECT id FROM hosts WHERE ` +
			strings.TrimSuffix(strings.Repeat("origin GLOB ? OR ", len(pats)), " OR ") + `)`
	case "ext":
		c.bind(v)
		return extSQL + ` = ?`
	case "type":
		// Media types are stored in lower case; GLOB with a literal prefix and the OR of
		// indexed terms let SQLite use pages_type and pages_ext instead of a scan.
		fam := query.FamilyNamed(v)
		if fam == nil { // a media type
			return c.mediaPrefix(v)
		}
		var media []string
		for _, m := range fam.Media {
			media = append(media, c.mediaPrefix(strings.TrimSuffix(m, "*")))
		}
		for _, e := range fam.Exts {
			c.bind(e)
		}
		return `(` + strings.Join(media, " OR ") + ` OR (p.content_type IS NULL AND ` + extSQL + ` IN (` +
			placeholders(len(fam.Exts)) + `)))`
	case "inlinks", "linkto":
		urls := urlVariants(v)
		if len(urls) == 0 {
			c.notes.Add(f.Field + ":" + clip(v, 40) + " is not a URL: nothing matches it")
			return "0"
		}
		for _, u := range urls {
			c.bind(u)
		}
		if f.Field == "inlinks" {
			return `p.id IN (SELECT l.to_id FROM links l WHERE l.from_id IN (SELECT id FROM pages WHERE url IN (` + placeholders(len(urls)) + `)))`
		}
		return `p.id IN (SELECT l.from_id FROM links l WHERE l.to_id IN (SELECT id FROM pages WHERE url IN (` + placeholders(len(urls)) + `)))`
	case "before":
		c.bind(v)
		return dateSQL + ` < ?`
	case "after":
		c.bind(v)
		return dateSQL + ` >= ?`
	case "changed", "fetched":
		col := `p.fetched_at`
		if f.Field == "changed" {
			col = `p.changed_at`
		}
		from, to, op := timeSpan(v)
		switch op {
		case ">":
			c.bind(to)
			return col + ` >= ?`
		case ">=":
			c.bind(from)
			return col + ` >= ?`
		case "<":
			c.bind(from)
			return col + ` < ?`
		case "<=":
			c.bind(to)
			return col + ` < ?`
		}
		c.bind(from, to)
		return col + ` >= ? AND ` + col + ` < ?`
	case "status":
		if strings.HasSuffix(v, "xx") {
			d := int(v[0]-'0') * 100
			c.bind(d, d+99)
			return `p.status BETWEEN ? AND ?`
		}
		n, _ := strconv.Atoi(v)
		c.bind(n)
		return `p.status = ?`
	case "is":
		if s, ok := isSQL[v]; ok {
			return s
		}
	case "author":
		// The author a summariser found: a PDF's, an HTML page's meta author, a feed's.
		c.bind("%" + likeEscape(v) + "%")
		return `p.author LIKE ? ESCAPE '\'`
	case "pages":
		rest := strings.TrimLeft(v, "<>")
		op := v[:len(v)-len(rest)]
		if op == "" {
			op = "="
		}
		n, _ := strconv.Atoi(rest)
		c.bind(n)
		return `p.id IN (SELECT page_id FROM summary_attrs WHERE name = 'pages' AND num ` + op + ` ?)`
	case "lang":
		c.bind(v, v+"-*")
		return `(lower(p.lang) = ? OR lower(p.lang) GLOB ?)`
	case "render":
		// How the page's HTML was read (migration 0035): rendered, static, shell, shell-WHY.
		if why, ok := strings.CutPrefix(v, "shell-"); ok {
			c.bind(why)
			return `(p.render = 'shell' AND p.render_why = ?)`
		}
		c.bind(v)
		return `p.render = ?`
	case "problem":
		// Problems are stored space-separated (extract's closed set of codes).
		if v == "any" {
			return `coalesce(p.problems, '') <> ''`
		}
		c.bind("% " + v + " %")
		return `(' ' || p.problems || ' ') LIKE ?`
	case "crawl":
		// A crawl's pages are those it visited last or found (store.CrawlCounts).
		id, _ := strconv.ParseInt(v, 10, 64)
		c.bind(id)
		return `p.crawl_id = ?`
	case "libpath", "tag":
		return c.libraryFilter(f)
	}
	return "0"
}

// urlVariants returns the canonical forms a URL typed by the user may be stored under.
func urlVariants(v string) []string {
	cands := []string{v}
	if !strings.Contains(v, "://") {
		cands = []string{"http://" + v, "https://" + v}
	}
	var out []string
	for _, c := range cands {
		if u, err := urlnorm.Normalize(c); err == nil && !containsStr(out, u) {
			out = append(out, u)
		}
	}
	return out
}

func containsStr(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// timeSpan reads a changed: or fetched: filter's value (a comparison and a day, a month or
// a year, as filter makes it): the span's start and end in unix milliseconds (UTC) and the
// comparison.
func timeSpan(v string) (from, to int64, op string) {
	d := strings.TrimLeft(v, "<>=")
	op = v[:len(v)-len(d)]
	for _, l := range []struct {
		layout     string
		y, m, days int
	}{{"2006-01-02", 0, 0, 1}, {"2006-01", 0, 1, 0}, {"2006", 1, 0, 0}} {
		if t, err := time.Parse(l.layout, d); err == nil {
			return t.UnixMilli(), t.AddDate(l.y, l.m, l.days).UnixMilli(), op
		}
	}
	return 0, 0, op
}

// likeEscape escapes LIKE's wildcards (with backslash as the escape character).
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

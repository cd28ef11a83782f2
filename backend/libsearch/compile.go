package libsearch

import (
	"errors"
	"strconv"
	"strings"
	"unicode"

	"mundaneum/backend/query"
	"mundaneum/backend/querysql"
	"mundaneum/backend/urlnorm"
)

// libColumns maps text fields to lib_fts columns ("" has none: nothing matches).
var libColumns = map[string]string{query.FieldTitle: "title", query.FieldURL: "url", query.FieldBody: "notes body", query.FieldAnchor: "", query.FieldHeading: ""}

// libText is the columns of lib_fts that hold text: words without a field that could
// match a token of path (the ancestors' ids, for folder:: numbers) are looked for there.
// Only those: a column filter makes FTS5 read every match's positions, and for a prefix
// that matches most of the library that doubles the time of the query.
const libText = "{title url notes tags body} : "

// numeric says whether any of words has a digit: only such a word can be a token of path.
func numeric(words ...string) bool {
	for _, w := range words {
		if strings.IndexFunc(w, unicode.IsNumber) >= 0 {
			return true
		}
	}
	return false
}

// libPart is a query compiled for the library: an FTS5 expression (positive text) and SQL
// conditions on lib_nodes n.
type libPart struct {
	match string // "" when no text must match
	where string // "" when no condition
	args  []any  // of where
	// narrow is an FTS5 expression that every node where holds for matches (a superset:
	// where still decides): folder: and tag: as terms of lib_fts, so that FTS5 intersects
	// them with the words instead of SQLite looking up every node the words match.
	narrow string
}

var errPagesOnly = errors.New("a query about pages")

type libCompiler struct{}

func (c *libCompiler) text(t *query.Text) (string, error) {
	e := querysql.Phrase(t.Words, t.Prefix)
	if !t.Phrase {
		parts := make([]string, len(t.Words))
		for i, w := range t.Words {
			parts[i] = querysql.Quote(w)
			if t.Prefix && i == len(t.Words)-1 {
				parts[i] += "*"
			}
		}
		e = strings.Join(parts, " AND ")
		if len(parts) > 1 {
			e = "(" + e + ")"
		}
	}
	return c.column(t.Field, e, numeric(t.Words...))
}

func (c *libCompiler) column(field, e string, numeric bool) (string, error) {
	cols, ok := libColumns[field]
	switch {
	case !ok && numeric:
		return libText + e, nil
	case !ok:
		return e, nil
	case cols == "":
		return "", errPagesOnly // anchor: and heading: are about pages
	}
	return "{" + cols + "} : " + e, nil
}

// compile turns n into a libPart.
func (c *libCompiler) compile(n query.Node) (libPart, error) {
	switch x := n.(type) {
	case *query.Text:
		e, err := c.text(x)
		return libPart{match: e}, err
	case *query.Near:
		var gs []string
		num := false
		for _, g := range x.Groups {
			gs = append(gs, querysql.Phrase(g.Words, g.Prefix))
			num = num || numeric(g.Words...)
		}
		e, err := c.column(x.Field, "NEAR("+strings.Join(gs, " ")+", "+strconv.Itoa(x.Distance)+")", num)
		return libPart{match: e}, err
	case *query.Filter:
		return c.filter(x)
	case *query.Regexp:
		return libPart{}, errPagesOnly
	case *query.Not:
		p, err := c.compile(x.Node)
		if err != nil {
			return p, err
		}
		return c.negate(p), nil
	case *query.And:
		var out libPart
		var pos, neg, where, narrow []string
		for _, ch := range x.Nodes {
			if not, ok := ch.(*query.Not); ok {
				p, err := c.compile(not.Node)
				if err != nil {
					return p, err
				}
				if p.where == "" {
					neg = append(neg, p.match)
					continue
				}
				ch = not
			}
			p, err := c.compile(ch)
			if err != nil {
				return p, err
			}
			if p.match != "" {
				pos = append(pos, p.match)
			}
			if p.where != "" {
				where = append(where, p.where)
				out.args = append(out.args, p.args...)
			}
			if p.narrow != "" {
				narrow = append(narrow, p.narrow)
			}
		}
		out.narrow = strings.Join(narrow, " AND ")
		if len(pos) > 0 {
			out.match = "(" + strings.Join(pos, " AND ") + ")"
			for _, m := range neg {
				out.match += " NOT (" + m + ")"
			}
		} else {
			for _, m := range neg {
				where = append(where, libNotMatch)
				out.args = append(out.args, m)
			}
		}
		out.where = strings.Join(where, " AND ")
		return out, nil
	case *query.Or:
		var ms, conds []string
		var args []any
		pure := true
		parts := make([]libPart, 0, len(x.Nodes))
		for _, ch := range x.Nodes {
			p, err := c.compile(ch)
			if err != nil {
				return p, err
			}
			parts = append(parts, p)
			pure = pure && p.where == "" && p.match != ""
			ms = append(ms, p.match)
		}
		if pure {
			return libPart{match: "(" + strings.Join(ms, " OR ") + ")"}, nil
		}
		for _, p := range parts {
			cond, a := p.condition()
			conds = append(conds, cond)
			args = append(args, a...)
		}
		return libPart{where: "(" + strings.Join(conds, " OR ") + ")", args: args}, nil
	}
	return libPart{}, nil
}

const (
	libMatch    = `n.id IN (SELECT rowid FROM lib_fts WHERE lib_fts MATCH ?)`
	libNotMatch = `n.id NOT IN (SELECT rowid FROM lib_fts WHERE lib_fts MATCH ?)`
)

// condition is p as one SQL condition (its text as a sub-query).
func (p libPart) condition() (string, []any) {
	var conds []string
	var args []any
	if p.match != "" {
		conds, args = append(conds, libMatch), append(args, p.match)
	}
	if p.where != "" {
		conds, args = append(conds, p.where), append(args, p.args...)
	}
	if len(conds) == 0 {
		return "1", nil
	}
	return "(" + strings.Join(conds, " AND ") + ")", args
}

func (c *libCompiler) negate(p libPart) libPart {
	cond, args := p.condition()
	return libPart{where: "NOT " + cond, args: args}
}

func (c *libCompiler) filter(f *query.Filter) (libPart, error) {
	cond, ok := querysql.Posting(f)
	if !ok {
		return libPart{}, errPagesOnly
	}
	return libPart{where: cond.SQL, args: cond.Args, narrow: cond.Narrow}, nil
}

// aliasKey returns the canonical form of a query that is one http(s) URL, which may be a
// pointer's alias.
func aliasKey(text string) (string, bool) {
	q := strings.TrimSpace(text)
	if strings.ContainsAny(q, " \t\n\"") || !(strings.HasPrefix(strings.ToLower(q), "http://") || strings.HasPrefix(strings.ToLower(q), "https://")) {
		return "", false
	}
	k, err := urlnorm.Normalize(q)
	return k, err == nil
}

// libAlias is the condition "has the alias ?".
const libAlias = `n.id IN (SELECT node_id FROM lib_aliases WHERE url_key = ?)`

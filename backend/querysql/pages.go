package querysql

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"mundaneum/backend/query"
	"mundaneum/backend/urlnorm"
)

// The filters about pages only: what a page is, what links to it, when it was written,
// fetched or changed, what its summary says.

// SQL fragments. extSQL is the lower-case extension of the URL's path (text after the last
// dot, query string left out: an indexed virtual column, see migration 0004); dateSQL is
// the Last-Modified date when the server sent one in the standard format, else the fetch
// date, as YYYY-MM-DD.
const (
	extSQL  = `p.ext`
	dateSQL = `(CASE WHEN p.last_modified GLOB '[A-Z][a-z][a-z], [0-9][0-9] [A-Z][a-z][a-z] [0-9][0-9][0-9][0-9] *'
		THEN substr(p.last_modified, 13, 4) || '-' || (CASE substr(p.last_modified, 9, 3)
			WHEN 'Jan' THEN '01' WHEN 'Feb' THEN '02' WHEN 'Mar' THEN '03' WHEN 'Apr' THEN '04'
			WHEN 'May' THEN '05' WHEN 'Jun' THEN '06' WHEN 'Jul' THEN '07' WHEN 'Aug' THEN '08'
			WHEN 'Sep' THEN '09' WHEN 'Oct' THEN '10' WHEN 'Nov' THEN '11' WHEN 'Dec' THEN '12' END)
			|| '-' || substr(p.last_modified, 6, 2)
		ELSE date(p.fetched_at / 1000, 'unixepoch') END)`
)

func extPage(v string) (Cond, string) {
	return Cond{SQL: extSQL + ` = ?`, Args: []any{v}}, ""
}

// typePage matches a family of types or a media type. Media types are stored in lower
// case; ranges of them and the OR of indexed terms let SQLite use pages_type and pages_ext
// instead of a scan.
func typePage(v string) (Cond, string) {
	var c Cond
	fam := query.FamilyNamed(v)
	if fam == nil { // a media type
		c.SQL = c.mediaPrefix(v)
		return c, ""
	}
	var media []string
	for _, m := range fam.Media {
		media = append(media, c.mediaPrefix(strings.TrimSuffix(m, "*")))
	}
	for _, e := range fam.Exts {
		c.Args = append(c.Args, e)
	}
	c.SQL = `(` + strings.Join(media, " OR ") + ` OR (p.content_type IS NULL AND ` + extSQL + ` IN (` +
		Placeholders(len(fam.Exts)) + `)))`
	return c, ""
}

// mediaPrefix matches media types starting with prefix as a range of the pages_type
// index (a GLOB on a bound pattern would scan the table), binding its bounds.
func (c *Cond) mediaPrefix(prefix string) string {
	if prefix == "" {
		return `p.content_type IS NOT NULL`
	}
	c.Args = append(c.Args, prefix, prefixEnd(prefix))
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

// Placeholders returns "?, ?, ..." for n values.
func Placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// linksPage is inlinks: (the pages a page links to) or linkto: (the pages that link to it).
func linksPage(field string) func(string) (Cond, string) {
	return func(v string) (Cond, string) {
		urls := urlVariants(v)
		if len(urls) == 0 {
			return Cond{SQL: "0"}, field + ":" + query.Clip(v, 40) + " is not a URL: nothing matches it"
		}
		c := Cond{}
		for _, u := range urls {
			c.Args = append(c.Args, u)
		}
		in := `(SELECT id FROM pages WHERE url IN (` + Placeholders(len(urls)) + `))`
		if field == "inlinks" {
			c.SQL = `p.id IN (SELECT l.to_id FROM links l WHERE l.from_id IN ` + in + `)`
		} else {
			c.SQL = `p.id IN (SELECT l.from_id FROM links l WHERE l.to_id IN ` + in + `)`
		}
		return c, ""
	}
}

// urlVariants returns the canonical forms a URL typed by the user may be stored under.
func urlVariants(v string) []string {
	cands := []string{v}
	if !strings.Contains(v, "://") {
		cands = []string{"http://" + v, "https://" + v}
	}
	var out []string
	for _, c := range cands {
		if u, err := urlnorm.Normalize(c); err == nil && !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out
}

// datePage is before: (op <) or after: (op >=) a day, by the date a page was written.
func datePage(op string) func(string) (Cond, string) {
	return func(v string) (Cond, string) {
		return Cond{SQL: dateSQL + ` ` + op + ` ?`, Args: []any{v}}, ""
	}
}

// timePage is changed: or fetched: a day, a month or a year, or before or after one, by the
// time in col (unix ms).
func timePage(col string) func(string) (Cond, string) {
	return func(v string) (Cond, string) {
		from, to, op := timeSpan(v)
		switch op {
		case ">":
			return Cond{SQL: col + ` >= ?`, Args: []any{to}}, ""
		case ">=":
			return Cond{SQL: col + ` >= ?`, Args: []any{from}}, ""
		case "<":
			return Cond{SQL: col + ` < ?`, Args: []any{from}}, ""
		case "<=":
			return Cond{SQL: col + ` < ?`, Args: []any{to}}, ""
		}
		return Cond{SQL: col + ` >= ? AND ` + col + ` < ?`, Args: []any{from, to}}, ""
	}
}

// timeSpan reads a changed: or fetched: filter's value (a comparison and a day, a month or
// a year, as the parser makes it): the span's start and end in unix milliseconds (UTC) and
// the comparison.
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

// authorPage is the author a summariser found: a PDF's, an HTML page's meta author, a
// feed's.
func authorPage(v string) (Cond, string) {
	return Cond{SQL: `p.author LIKE ? ESCAPE '\'`, Args: []any{"%" + likeEscape(v) + "%"}}, ""
}

// likeEscape escapes LIKE's wildcards (with backslash as the escape character).
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// pageCountPage is a document's page count, with an optional comparison (<, >, <=, >=).
func pageCountPage(v string) (Cond, string) {
	rest := strings.TrimLeft(v, "<>=")
	op := v[:len(v)-len(rest)]
	if op == "" {
		op = "="
	}
	n, _ := strconv.Atoi(rest)
	return Cond{SQL: `p.id IN (SELECT page_id FROM summary_attrs WHERE name = 'pages' AND num ` + op + ` ?)`, Args: []any{n}}, ""
}

func langPage(v string) (Cond, string) {
	return Cond{SQL: `(lower(p.lang) = ? OR lower(p.lang) GLOB ?)`, Args: []any{v, v + "-*"}}, ""
}

// renderPage is how the page's HTML was read (migration 0035): rendered, static, shell,
// or shell-WHY (the shell detector's reason).
func renderPage(v string) (Cond, string) {
	if why, ok := strings.CutPrefix(v, "shell-"); ok {
		return Cond{SQL: `(p.render = 'shell' AND p.render_why = ?)`, Args: []any{why}}, ""
	}
	return Cond{SQL: `p.render = ?`, Args: []any{v}}, ""
}

// problemPage is a problem found in a page: they are stored space-separated (extract's
// closed set of codes).
func problemPage(v string) (Cond, string) {
	if v == "any" {
		return Cond{SQL: `coalesce(p.problems, '') <> ''`}, ""
	}
	return Cond{SQL: `(' ' || p.problems || ' ') LIKE ?`, Args: []any{"% " + v + " %"}}, ""
}

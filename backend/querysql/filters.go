package querysql

import (
	"strconv"
	"strings"
	"unicode"

	"mundaneum/backend/query"
)

// Cond is an SQL condition with its arguments, in order.
type Cond struct {
	SQL  string
	Args []any
	// Narrow, for a library posting, is an FTS5 expression of lib_fts that every posting
	// SQL holds for matches (a superset: SQL still decides): folder: and tag: as terms of
	// the library's index, so that FTS5 intersects them with the query's words instead of
	// SQLite looking up every posting the words match.
	Narrow string
}

// filter is how one filter of the query language reads in SQL, over pages p and over
// library postings n (rows of lib_nodes). Page search and library search both compile
// their filters from this one table, so a filter means the same in both.
type filter struct {
	// page returns the condition on p, and a note when the value cannot match anything.
	page func(v string) (Cond, string)
	// posting returns the condition on n; ok false when the filter (or this value of it)
	// asks about pages only (nil: every value does).
	posting func(v string) (c Cond, ok bool)
}

var filters = map[string]filter{
	"site":    {page: originPage("site"), posting: originPosting("site")},
	"host":    {page: originPage("host"), posting: originPosting("host")},
	"is":      {page: isPage, posting: isPosting},
	"libpath": {page: libpathPage, posting: libpathPosting},
	"tag":     {page: tagPage, posting: tagPosting},
	"ext":     {page: extPage},
	"type":    {page: typePage},
	"inlinks": {page: linksPage("inlinks")},
	"linkto":  {page: linksPage("linkto")},
	"before":  {page: datePage(`<`)},
	"after":   {page: datePage(`>=`)},
	"changed": {page: timePage(`p.changed_at`)},
	"fetched": {page: timePage(`p.fetched_at`)},
	"status":  {page: statusPage},
	"author":  {page: authorPage},
	"pages":   {page: pageCountPage},
	"lang":    {page: langPage},
	"problem": {page: problemPage},
	"crawl":   {page: crawlPage},
	"render":  {page: renderPage},
}

// Page returns the condition f puts on pages p, and a note when its value cannot match
// anything. Folders must be resolved first (ResolveFolders).
func Page(f *query.Filter) (Cond, string) {
	if x, ok := filters[f.Field]; ok {
		return x.page(f.Value)
	}
	return Cond{SQL: "0"}, ""
}

// Posting returns the condition f puts on library postings n; ok is false when f asks
// about pages only (status:, ext:, links, dates...), which no posting answers.
func Posting(f *query.Filter) (c Cond, ok bool) {
	if x, found := filters[f.Field]; found && x.posting != nil {
		return x.posting(f.Value)
	}
	return Cond{}, false
}

// originPatterns are the GLOB patterns of the origins (scheme://host[:port]) that site:
// (the host and its subdomains) or host: (the host alone) match: on any port, unless the
// value names one.
func originPatterns(field, v string) []any {
	port := strings.Contains(v, ":")
	switch {
	case field == "host" && port:
		return []any{"*://" + v}
	case field == "host":
		return []any{"*://" + v, "*://" + v + ":*"}
	case port:
		return []any{"*://" + v, "*." + v}
	}
	return []any{"*://" + v, "*://" + v + ":*", "*." + v, "*." + v + ":*"}
}

// globAny is "(x GLOB ? OR x GLOB ? ...)" for n patterns.
func globAny(x string, n int) string {
	return "(" + strings.TrimSuffix(strings.Repeat(x+" GLOB ? OR ", n), " OR ") + ")"
}

// postingOrigin is the origin of a pointer's canonical URL (its text up to the first "/"
// after "://"), as the hosts table holds a page's.
const postingOrigin = `substr(n.url_key, 1, instr(substr(n.url_key, instr(n.url_key, '://') + 3) || '/', '/') + instr(n.url_key, '://') + 1)`

func originPage(field string) func(string) (Cond, string) {
	return func(v string) (Cond, string) {
		pats := originPatterns(field, v)
		return Cond{SQL: `p.host_id IN (SELECT id FROM hosts WHERE ` + globAny("origin", len(pats)) + `)`, Args: pats}, ""
	}
}

func originPosting(field string) func(string) (Cond, bool) {
	return func(v string) (Cond, bool) {
		pats := originPatterns(field, v)
		return Cond{SQL: globAny(postingOrigin, len(pats)), Args: pats}, true
	}
}

// brokenSQL: failures that say nothing about the link itself are not "broken".
const brokenSQL = `(p.state = 'failed' AND coalesce(p.reason, '') NOT IN ('rate-limited', 'canceled', 'too-large', 'bomb', 'bad-encoding', 'scheme'))`

// isPages is is: over pages, by their state; isPostings over library pointers, by the
// latest link check of their URL (check_urls): is:broken there is a dead link, failing on
// several checks spread over time, never one failure.
var (
	isPages = map[string]string{
		"broken":   brokenSQL,
		"redirect": `p.state = 'redirected'`,
		"failed":   `p.state = 'failed'`,
		"ok":       `p.state = 'fetched'`,
		"resource": `(p.state = 'skipped' AND p.reason = 'type')`,
		"blocked":  `coalesce(p.reason, '') IN ('rate-limited', 'robots', 'forbidden')`,
	}
	isPostings = map[string]string{
		"broken":   `dead_at IS NOT NULL`,
		"redirect": `verdict = 'redirected'`,
		"failed":   `verdict IN ('broken', 'server_error', 'timeout', 'invalid')`,
		"ok":       `verdict = 'ok'`,
		"blocked":  `verdict IN ('blocked', 'rate_limited', 'robots_excluded')`,
	}
)

func isPage(v string) (Cond, string) {
	if s, ok := isPages[v]; ok {
		return Cond{SQL: s}, ""
	}
	return Cond{SQL: "0"}, ""
}

func isPosting(v string) (Cond, bool) {
	cond, ok := isPostings[v]
	if !ok {
		return Cond{}, false // is:resource is about pages
	}
	return Cond{SQL: `n.url_key IN (SELECT url FROM check_urls WHERE ` + cond + `)`}, true
}

// libpath: is a folder: resolved to the node path of its library ("/1/5/", see
// ResolveFolders; "" when there is none): the postings below it, and the pages their
// pointers point at. tag: is the postings with the tag, and their pages.

func libpathPage(v string) (Cond, string) {
	if v == "" {
		return Cond{SQL: "0"}, ""
	}
	return Cond{SQL: `p.id IN (SELECT pg.id FROM lib_nodes n JOIN pages pg ON pg.url = n.url_key WHERE n.path > ? AND n.path < ?)`,
		Args: []any{v, v[:len(v)-1] + "0"}}, ""
}

func libpathPosting(v string) (Cond, bool) {
	if v == "" {
		return Cond{SQL: "0"}, true
	}
	return Cond{SQL: `n.path > ? AND n.path < ?`, Args: []any{v, v[:len(v)-1] + "0"}, Narrow: PathNarrow(v)}, true
}

// PathNarrow is the lib_fts term every posting below the library at node path p holds: the
// library's id is a token of their path column.
func PathNarrow(p string) string {
	ids := strings.Split(strings.Trim(p, "/"), "/")
	return `{path} : ` + Quote(ids[len(ids)-1])
}

func tagPage(v string) (Cond, string) {
	return Cond{SQL: `p.id IN (SELECT pg.id FROM lib_tags t JOIN lib_nodes n ON n.id = t.node_id JOIN pages pg ON pg.url = n.url_key WHERE t.tag = ?)`,
		Args: []any{v}}, ""
}

func tagPosting(v string) (Cond, bool) {
	c := Cond{SQL: `EXISTS (SELECT 1 FROM lib_tags WHERE tag = ? AND node_id = n.id)`, Args: []any{v}}
	if tagWords(v) {
		c.Narrow = `{tags} : ` + Quote(v)
	}
	return c, true
}

// tagWords says whether a tag, as a phrase in the tags column of lib_fts, holds for every
// node with the tag: the column indexes the tags' JSON (["how-to","r\u0026d"]), so the tag
// must have words and no character that JSON escapes (&, <, >, quotes, backslashes,
// controls), whose escape would put other words in the index than in the phrase.
func tagWords(tag string) bool {
	words := false
	for _, r := range tag {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			words = true
		case r < 0x80 && strings.ContainsRune(" !#$%'()*+,-./:;=?@[]^_`{|}~", r):
		default:
			return false
		}
	}
	return words
}

func statusPage(v string) (Cond, string) {
	if strings.HasSuffix(v, "xx") {
		d := int(v[0]-'0') * 100
		return Cond{SQL: `p.status BETWEEN ? AND ?`, Args: []any{d, d + 99}}, ""
	}
	n, _ := strconv.Atoi(v)
	return Cond{SQL: `p.status = ?`, Args: []any{n}}, ""
}

func crawlPage(v string) (Cond, string) {
	// A crawl's pages are those it visited last or found (store.CrawlCounts).
	id, _ := strconv.ParseInt(v, 10, 64)
	return Cond{SQL: `p.crawl_id = ?`, Args: []any{id}}, ""
}

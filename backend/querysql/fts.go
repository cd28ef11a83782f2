// Package querysql writes the query language's leaves (backend/query) in the workspace's
// SQL: words and phrases as FTS5 strings, filters as conditions over pages and over library
// postings (one table for both, filters.go), library folders resolved to their node paths
// (folders.go); values are bound as parameters, never pasted into a statement. The engines
// that compile whole queries (backend/search over pages, backend/libsearch over the
// library) and the vocabulary's look-ups (backend/vocab) build their statements from these
// pieces, so that a filter means the same in both searches and every FTS5 string is
// quoted one way.
package querysql

import (
	"strings"

	"mundaneum/backend/query"
)

// Quote makes one FTS5 string of s: the only special character inside a string is the
// double quote, doubled.
func Quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// Phrase quotes words as one FTS5 phrase, the last word a prefix when prefix is set.
func Phrase(words []string, prefix bool) string {
	s := Quote(strings.Join(words, " "))
	if prefix {
		s += "*"
	}
	return s
}

// pageColumns maps the query's text fields to the columns of page_fts, the pages' index
// (title, headings, body, anchors, url).
var pageColumns = map[string]string{
	query.FieldTitle: "title", query.FieldAnchor: "anchors", query.FieldBody: "headings body", query.FieldHeading: "headings", query.FieldURL: "url",
}

// PageColumns limits an FTS5 expression over page_fts to the columns of a text field (all
// of them for FieldAll).
func PageColumns(field, e string) string {
	if cols, ok := pageColumns[field]; ok {
		return "{" + cols + "} : " + e
	}
	return e
}

// Bounds of a page of matches a search serves (its statements' LIMIT and OFFSET): as many
// by default, at most, and how far paging reaches.
const (
	defaultLimit = 20
	maxLimit     = 1000
	maxOffset    = 100_000
)

// Window bounds the page of matches a search is asked for: limit (defaultLimit when not
// positive, at most maxLimit) from offset (0 to maxOffset).
func Window(limit, offset int) (int, int) {
	if limit <= 0 {
		limit = defaultLimit
	}
	return min(limit, maxLimit), min(max(offset, 0), maxOffset)
}

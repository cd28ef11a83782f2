package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// What the full-text index reads of a page to build its row.

// IndexKind says what kind of index row a page has.
type IndexKind int

// Kinds of index rows.
const (
	// NotIndexed: the page has no row (never fetched, gone, a duplicate, noindex, ...).
	NotIndexed IndexKind = iota
	// IndexedText: a fetched page, indexed by its text, URL and the anchor text of links
	// to it.
	IndexedText
	// IndexedResource: a non-HTML resource known from links (never downloaded), indexed,
	// as WWWW did for images and movies, by the anchor text of links to it and the titles
	// of the pages citing it, so that a search for what pages say about a file finds it.
	IndexedResource
)

// Bounds on what one row holds of the links pointing at a page.
const (
	MaxAnchors = 100 // distinct anchor texts
	MaxCiters  = 20  // titles of citing pages (resources)
)

// IndexInput is what the index reads of one page to build its row.
type IndexInput struct {
	ID      int64
	Kind    IndexKind
	URL     string
	Text    PageText // IndexedText
	Anchors string   // distinct anchor texts of links to the page, " | " between them
	Citers  string   // IndexedResource: distinct titles of the citing pages, " | " between them
}

// What links say of a page is read from the expanded link rows (link_rows), not from the
// packs still waiting behind the crawl (see linkpack.go): their expansion notes the pages
// whose rows change, and the index reads those pages again then.

// IndexInputs reads what the index needs of the pages ids, from db: the store's read pool,
// or any pool over the workspace (through a statement cache: a page's anchors are one
// statement each). Pages that do not exist come back NotIndexed.
//
// Which pages have a row is decided here, from the stored state: a page with stored text
// keeps its row while it is fetched, or failed other than as gone (a server error leaves
// the last good copy searchable); a 404 or 410, a redirect, a duplicate or a noindex page
// has none. A file known from links has one while a page cites it (CitedKinds): the crawl
// notes only those, and a rebuild, which walks every file known from links, must agree.
func IndexInputs(ctx context.Context, db Querier, ids []int64) ([]IndexInput, error) {
	out, err := IndexTexts(ctx, db, ids)
	if err != nil {
		return nil, err
	}
	return out, ReadLinkText(ctx, db, out)
}

// indexTextsSQL reads the pages of a JSON array of ids. Whether a resource is cited asks
// the link rows and the packed links apart: through the links view (a UNION ALL) SQLite
// cannot use the page's id, and reads every link of the workspace for each resource (2.6-5 s
// a search at 100,000 pages whose results showed a resource; TestIndexTextsPlan).
const indexTextsSQL = `SELECT j.value, coalesce(p.url, ''),
		CASE
			WHEN p.id IS NULL THEN 0
			WHEN p.state = 'skipped' AND p.reason = 'type' THEN
				CASE WHEN ` + CitedSQL + ` THEN 2 ELSE 0 END
			WHEN t.page_id IS NOT NULL AND p.noindex = 0 AND p.duplicate_of IS NULL
				AND p.state <> 'redirected' AND NOT (p.state = 'failed' AND coalesce(p.status, 0) IN (404, 410)) THEN 1
			ELSE 0 END,
		t.codec, t.data
		FROM json_each(?) j LEFT JOIN pages p ON p.id = j.value LEFT JOIN page_text t ON t.page_id = p.id`

// CitedSQL is true of a page p that a link of CitedKinds cites, expanded or still packed.
// It asks link_rows (by its index on to_id) and link_pending apart: the links view joins
// them with UNION ALL, which SQLite cannot search by p.id from a correlated subquery.
const CitedSQL = `(EXISTS (SELECT 1 FROM link_rows l WHERE l.to_id = p.id AND l.kind IN ` + CitedKinds + `)
	OR EXISTS (SELECT 1 FROM link_pending l WHERE l.to_id = p.id AND l.kind IN ` + CitedKinds + `))`

// IndexTexts is IndexInputs without the text of the links to the pages (Anchors and Citers
// left empty): a search's later stages read the text of their best hits, and need what
// links say only where a page's own text does not hold the query's words.
func IndexTexts(ctx context.Context, db Querier, ids []int64) ([]IndexInput, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	js, _ := json.Marshal(ids)
	rows, err := db.QueryContext(ctx, indexTextsSQL, string(js))
	if err != nil {
		return nil, fmt.Errorf("index inputs: %w", err)
	}
	// The rows are read as stored and unpacked after the statement ends: a statement holds
	// its snapshot of the workspace, and a snapshot kept while 256 pages are decompressed
	// (on the index's low-priority thread) keeps the writer from restarting its log.
	out := make([]IndexInput, 0, len(ids))
	var codecs []string
	var packed [][]byte
	for rows.Next() {
		var in IndexInput
		var codec sql.NullString
		var data []byte
		if err := rows.Scan(&in.ID, &in.URL, &in.Kind, &codec, &data); err != nil {
			rows.Close()
			return nil, fmt.Errorf("index inputs: %w", err)
		}
		out = append(out, in)
		codecs, packed = append(codecs, codec.String), append(packed, data)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index inputs: %w", err)
	}
	for i := range out {
		if out[i].Kind == IndexedText {
			var err error
			if out[i].Text, err = UnpackText(codecs[i], packed[i]); err != nil {
				return nil, fmt.Errorf("page %d: %w", out[i].ID, err)
			}
		}
		packed[i] = nil
	}
	return out, nil
}

// ReadLinkText fills in what links say of the pages ins (read by IndexTexts): their
// distinct anchor texts, and for a resource the titles of the pages citing it.
func ReadLinkText(ctx context.Context, db Querier, ins []IndexInput) error {
	for i := range ins {
		in := &ins[i]
		if in.Kind == NotIndexed {
			continue
		}
		var err error
		if in.Anchors, err = anchorsOf(ctx, db, in.ID); err != nil {
			return fmt.Errorf("anchors of page %d: %w", in.ID, err)
		}
		if in.Kind != IndexedResource {
			continue
		}
		if err := db.QueryRowContext(ctx, citersQuery, in.ID).Scan(&in.Citers); err != nil {
			return fmt.Errorf("citers of page %d: %w", in.ID, err)
		}
	}
	return nil
}

// anchorsOf returns the first MaxAnchors distinct anchors of the links to page id, in
// order, " | " between them. Most pages have a few links to them: their anchors are read
// in one pass over links_to (to_id, anchor). A page with more than anchorScan links whose
// first anchorScan hold fewer than MaxAnchors distinct ones (a home page linked from every
// page as "Home") is read by anchorsQuery instead, one seek per distinct anchor, so that
// its thousands of links are not read.
func anchorsOf(ctx context.Context, db Querier, id int64) (string, error) {
	rows, err := db.QueryContext(ctx, anchorScanQuery, id)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	var last string
	read, distinct := 0, 0
	for rows.Next() && distinct < MaxAnchors {
		var a string
		if err := rows.Scan(&a); err != nil {
			rows.Close()
			return "", err
		}
		read++
		if distinct > 0 && a == last {
			continue
		}
		if distinct > 0 {
			b.WriteString(" | ")
		}
		b.WriteString(a)
		last, distinct = a, distinct+1
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", err
	}
	if read < anchorScan || distinct >= MaxAnchors {
		return b.String(), nil
	}
	var all string
	err = db.QueryRowContext(ctx, anchorsQuery, id, MaxAnchors).Scan(&all)
	return all, err
}

// anchorScan is how many links to a page anchorsOf reads in one pass before it seeks.
const anchorScan = 500

// anchorScanQuery reads them. Constant limits are written in the SQL, never bound: SQLite
// prepares a statement again each time a bound LIMIT is bound.
var anchorScanQuery = `SELECT anchor FROM link_rows WHERE to_id = ? AND anchor > '' ORDER BY anchor LIMIT ` + strconv.Itoa(anchorScan)

// anchorsQuery reads the distinct anchors of links to a page in order, each found by a seek
// past the one before in links_to (to_id, anchor).
const anchorsQuery = `WITH RECURSIVE a(anchor, n) AS (
		SELECT (SELECT min(anchor) FROM link_rows WHERE to_id = ?1 AND anchor > ''), 1
		UNION ALL
		SELECT (SELECT min(anchor) FROM link_rows WHERE to_id = ?1 AND anchor > a.anchor), n + 1
		FROM a WHERE a.anchor IS NOT NULL AND n < ?2)
	SELECT coalesce(group_concat(anchor, ' | '), '') FROM a WHERE anchor IS NOT NULL`

// citersQuery reads the distinct titles of the pages citing a resource.
var citersQuery = `SELECT coalesce(group_concat(title, ' | '), '') FROM (
		SELECT DISTINCT c.title FROM link_rows l JOIN pages c ON c.id = l.from_id
		WHERE l.to_id = ? AND c.title <> '' LIMIT ` + strconv.Itoa(MaxCiters) + `)`

// IndexInputs reads what the index needs of the pages ids from the read pool (see the
// package function IndexInputs).
func (s *Store) IndexInputs(ctx context.Context, ids []int64) ([]IndexInput, error) {
	return IndexInputs(ctx, s.read, ids)
}

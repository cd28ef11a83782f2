package search

import (
	"context"
	"fmt"
	"mundaneum/backend/highlight"
	"mundaneum/backend/query"
	"mundaneum/backend/querysql"
	"mundaneum/backend/vocab"
	"strings"

	"mundaneum/backend/index"
	"mundaneum/backend/store"
)

// present fetches what the page of hits shows: metadata, snippets, duplicate counts.
//
// The snippets are cut (their texts read on a second connection) while the metadata and
// copies are read on the first: the two are independent, and a query often has the
// machine's other core to itself.
func (s *Searcher) present(ctx context.Context, root query.Node, expand vocab.Expansions, page []hit, best float64, known pageTexts) ([]Result, error) {
	type snippets struct {
		of  map[int64][]string
		err error
	}
	snipped := make(chan snippets, 1)
	go func() {
		of, err := s.snippets(ctx, page, highlight.New(root, s.w.forms(), expand), known)
		snipped <- snippets{of: of, err: err}
	}()
	byID, hashes, copies, err := s.metadata(ctx, page)
	var alts map[int64]int
	if err == nil {
		alts, err = s.alternates(ctx, page)
	}
	sn := <-snipped
	if err != nil {
		return nil, err
	}
	if sn.err != nil {
		return nil, sn.err
	}
	out := make([]Result, 0, len(page))
	for _, hit := range page {
		r, ok := byID[hit.id]
		if !ok {
			continue // deleted meanwhile
		}
		r.Score = normalise(hit.score, best)
		r.Copies = copies[hashes[hit.id]]
		r.Alternates = alts[hit.id]
		r.Snippet = sn.of[hit.id]
		r.Explain = hit.explain()
		out = append(out, *r)
	}
	return out, nil
}

const metadataQuery = `SELECT p.id, p.url, coalesce(p.title, ''), coalesce(h.origin, ''),
		coalesce(p.content_type, ''), coalesce(p.status, 0), p.state, coalesce(p.reason, ''), coalesce(p.fetched_at, 0),
		coalesce(p.changed_at, p.discovered_at), coalesce(p.hash, ''),
		(SELECT count(*) FROM versions v WHERE v.page_id = p.id),
		coalesce((SELECT v.flag FROM versions v WHERE v.page_id = p.id AND v.hash IS p.hash ORDER BY v.fetched_at DESC, v.id DESC LIMIT 1), ''),
		coalesce(p.author, ''), coalesce(p.summariser, ''),
		coalesce((SELECT CAST(a.num AS INTEGER) FROM summary_attrs a WHERE a.page_id = p.id AND a.name = 'pages'), 0), %s
		FROM pages p LEFT JOIN hosts h ON h.id = p.host_id WHERE p.id IN (SELECT value FROM json_each(?))`

// sourceOf is the source a page's summary came from (another instance, a SOIF file), while
// the page holds the content it brought; "" for what was crawled here.
const sourceOf = `coalesce((SELECT coalesce(nullif(s.name, ''), s.url) FROM page_sources ps JOIN sources s ON s.id = ps.source_id
		WHERE ps.page_id = p.id AND ps.hash = p.hash), '')`

// metadata reads what a result shows of each page but its snippet, and the pages' content
// hashes with how many copies each has.
func (s *Searcher) metadata(ctx context.Context, page []hit) (map[int64]*Result, map[int64]string, map[string]int, error) {
	rows, err := s.db.QueryContext(ctx, fmt.Sprintf(metadataQuery, sourceOf), idsJSON(page))
	if err != nil && strings.Contains(err.Error(), "page_sources") {
		// A workspace from before the exchange, opened read-only (not upgraded).
		rows, err = s.db.QueryContext(ctx, fmt.Sprintf(metadataQuery, "''"), idsJSON(page))
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("results: %w", err)
	}
	byID := map[int64]*Result{}
	hashes := map[int64]string{}
	for rows.Next() {
		var r Result
		var ct, hash string
		if err := rows.Scan(&r.PageID, &r.URL, &r.Title, &r.Host, &ct, &r.Status, &r.State, &r.Reason, &r.FetchedAt,
			&r.ChangedAt, &hash, &r.Versions, &r.Flag, &r.Author, &r.Summariser, &r.Pages, &r.Source); err != nil {
			rows.Close()
			return nil, nil, nil, err
		}
		r.Type = typeOf(ct, r.URL)
		if t, ok := summariserType[r.Summariser]; ok && (ct == "" || strings.HasSuffix(ct, "octet-stream")) {
			r.Type = t // what its content turned out to be, when the server did not say
		}
		byID[r.PageID] = &r
		hashes[r.PageID] = hash
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, nil, err
	}
	copies, err := s.copies(ctx, hashes)
	if err != nil {
		return nil, nil, nil, err
	}
	return byID, hashes, copies, nil
}

// snippets cuts the hits' snippets from their text as the index holds it (index.DocOf):
// body, anchors, headings, title, url, in the order snippets prefer them. The texts of
// known pages (read by the proximity stage) are not read again.
func (s *Searcher) snippets(ctx context.Context, page []hit, h *highlight.Highlighter, known pageTexts) (map[int64][]string, error) {
	var ids []int64
	ins := make([]store.IndexInput, 0, len(page))
	for _, h := range page {
		if in, ok := known[h.id]; ok {
			ins = append(ins, in)
		} else {
			ids = append(ids, h.id)
		}
	}
	more, err := store.IndexTexts(ctx, s.db, ids)
	if err != nil {
		return nil, fmt.Errorf("snippets: %w", err)
	}
	ins = append(ins, more...)
	out := make(map[int64][]string, len(page))
	// What links say is read only for the pages whose body cannot give the snippet (the
	// body wins whenever it holds a query word): reading the links to each shown page was
	// a tenth of a search at a million pages.
	var linked []store.IndexInput
	for _, in := range ins {
		if in.Kind == store.IndexedText {
			if snip, ok := h.BodySnippet(store.Clean(in.Text.Body)); ok {
				out[in.ID] = snip
				continue
			}
		}
		if in.Kind != store.NotIndexed {
			linked = append(linked, in)
		}
	}
	if err := store.ReadLinkText(ctx, s.db, linked); err != nil {
		return nil, fmt.Errorf("snippets: %w", err)
	}
	for _, in := range linked {
		if d, ok := index.DocOf(in); ok {
			out[d.ID] = h.Snippet([]string{d.Body, d.Anchors, d.Headings, d.Title, d.URL})
		}
	}
	return out, nil
}

// copies counts, per content hash, the other pages with the same content.
func (s *Searcher) copies(ctx context.Context, hashes map[int64]string) (map[string]int, error) {
	var hs []string
	for _, h := range hashes {
		if h != "" {
			hs = append(hs, h)
		}
	}
	out := map[string]int{}
	if len(hs) == 0 {
		return out, nil
	}
	args := make([]any, len(hs))
	for i, h := range hs {
		args[i] = h
	}
	rows, err := s.db.QueryContext(ctx, `SELECT hash, count(*) FROM pages INDEXED BY pages_hash
		WHERE hash IN (`+querysql.Placeholders(len(hs))+`) AND hash IS NOT NULL GROUP BY hash`, args...)
	if err != nil {
		return nil, fmt.Errorf("copies: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var h string
		var n int
		if err := rows.Scan(&h, &n); err != nil {
			return nil, err
		}
		out[h] = max(n-1, 0)
	}
	return out, rows.Err()
}

// summariserType is the type family of what each summariser reads.
var summariserType = map[string]string{"pdf": "pdf", "feed": "data", "gzip": "archive", "zip": "archive", "tar": "archive",
	"markdown": "text", "text": "text", "html": "html"}

// Result is one hit.
type Result struct {
	PageID  int64
	URL     string
	Title   string
	Host    string // the origin, scheme://host[:port]
	Type    string // html, pdf, image, video, audio, archive, document, data, text, or a media type
	State   string // fetched, failed, redirected, skipped (resources known from links)
	Reason  string // why it failed, was skipped or redirected (the crawl's closed set), "" if fetched
	Status  int    // HTTP status of the last fetch, 0 if never fetched
	Score   int    // 1000 for the best hit of the query
	Snippet []string
	Copies  int // other pages with identical content, collapsed into this one
	// Alternates is the pages that name this one as their canonical URL (a print version,
	// a copy with tracking parameters), collapsed into it.
	Alternates int
	FetchedAt  int64 // unix ms, 0 if never fetched
	ChangedAt  int64 // unix ms: when its content last changed (or it was found)
	// New is set by OpenView: the page is new or changed since the view was last opened.
	New bool
	// Versions counts the contents kept of the page: more than one means it changed.
	Versions int
	// Flag is its current content's flag (store.FlagSoft404, store.FlagParked): a 200 whose
	// content is the site's error page or a domain-parking page, a "change" that is a death.
	Flag string
	// Author, Pages and Summariser come from the page's summary: the author its summariser
	// found (a PDF's, a page's meta author), a document's page count (0: none or unknown),
	// and which summariser read it (pdf, html, feed...; "" before summarisers were recorded).
	Author     string
	Pages      int
	Summariser string
	// Source names where the page's summary came from (another instance or a SOIF file),
	// "" when it was crawled here.
	Source string
	// Explain says how the score was made: the first stage's bm25, the citation factor
	// and the second stage's title and URL signals (see rerank.go).
	Explain string
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// A page's detail, as the page view shows it: its fields, links in and out, stored body,
// and a crawl's pages listed.

// Page is everything stored about one page.
type Page struct {
	ID                                            int64
	URL, Host, State, Reason, Detail              string
	Status                                        int
	FinalURL, ContentType, Charset, Lang          string
	Title, Description, Keywords, Author, Owner   string
	Canonical, Hash, ETag, LastModified, Expires  string
	Size                                          int64
	DuplicateOf                                   int64
	DuplicateURL                                  string
	Depth                                         int
	ParentURL                                     string
	CrawlID                                       int64
	Problems                                      []string
	NoIndex, NoFollow, Cached                     bool
	DiscoveredAt, FetchedAt, ChangedAt, RefreshAt int64
	ConfirmedAt                                   int64 // the server last confirmed the stored response (304)
	Inlinks, Outlinks                             int
	Alternates                                    int // pages naming this one as their canonical URL
}

// pageSQL reads one page (?) with its counts. Its links out are counted in link_rows (by
// its key, from_id first) and link_pending apart: through the links view, a UNION ALL,
// SQLite read every link of the workspace for the page's count (TestPageSQLPlan). Its
// citers in link_pending are read by every pack not expanded yet (few: behind the crawl).
const pageSQL = `SELECT p.id, p.url, h.origin, p.state, p.reason, p.detail, p.status,
		p.final_url, p.content_type, p.charset, p.lang, p.title, p.description, p.keywords, p.author, p.owner,
		p.canonical, p.hash, p.etag, p.last_modified, p.expires, p.size, p.duplicate_of,
		(SELECT url FROM pages d WHERE d.id = p.duplicate_of), p.depth,
		(SELECT url FROM pages q WHERE q.id = p.parent_id), p.crawl_id, p.problems, p.noindex, p.nofollow,
		p.hash IS NOT NULL AND EXISTS (SELECT 1 FROM blobs b WHERE b.hash = p.hash),
		p.discovered_at, p.fetched_at, p.changed_at, p.refresh_at, p.confirmed_at,
		coalesce((SELECT n FROM citations WHERE page_id = p.id), 0) +
			(SELECT count(DISTINCT from_id) FROM link_pending WHERE to_id = p.id AND from_id <> p.id),
		(SELECT count(*) FROM link_rows WHERE from_id = p.id) + (SELECT count(*) FROM link_pending WHERE from_id = p.id),
		(SELECT count(*) FROM canonicals WHERE of_id = p.id)
		FROM pages p JOIN hosts h ON h.id = p.host_id WHERE p.id = ?`

// Page returns one page by id, or ErrNotFound.
func (s *Store) Page(ctx context.Context, id int64) (Page, error) {
	var p Page
	var n [16]sql.NullString
	var dup, crawl sql.NullInt64
	var status, depth sql.NullInt64
	var size, fetched, changed, refresh, confirmed sql.NullInt64
	var problems, dupURL, parentURL sql.NullString
	err := s.read.QueryRowContext(ctx, pageSQL, id).Scan(
		&p.ID, &p.URL, &p.Host, &p.State, &n[0], &n[1], &status,
		&n[2], &n[3], &n[4], &n[5], &n[6], &n[7], &n[8], &n[9], &n[10],
		&n[11], &n[12], &n[13], &n[14], &n[15], &size, &dup,
		&dupURL, &depth, &parentURL, &crawl, &problems, &p.NoIndex, &p.NoFollow,
		&p.Cached, &p.DiscoveredAt, &fetched, &changed, &refresh, &confirmed, &p.Inlinks, &p.Outlinks, &p.Alternates)
	if errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("page %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return p, fmt.Errorf("page %d: %w", id, err)
	}
	p.Reason, p.Detail = n[0].String, n[1].String
	p.FinalURL, p.ContentType, p.Charset, p.Lang = n[2].String, n[3].String, n[4].String, n[5].String
	p.Title, p.Description, p.Keywords, p.Author, p.Owner = n[6].String, n[7].String, n[8].String, n[9].String, n[10].String
	p.Canonical, p.Hash, p.ETag, p.LastModified, p.Expires = n[11].String, n[12].String, n[13].String, n[14].String, n[15].String
	p.Status, p.Depth, p.Size = int(status.Int64), int(depth.Int64), size.Int64
	p.DuplicateOf, p.CrawlID = dup.Int64, crawl.Int64
	p.FetchedAt, p.ChangedAt, p.RefreshAt, p.ConfirmedAt = fetched.Int64, changed.Int64, refresh.Int64, confirmed.Int64
	p.Problems = strings.Fields(problems.String)
	p.DuplicateURL, p.ParentURL = dupURL.String, parentURL.String
	return p, nil
}

// PageID returns the id of the page with a canonical URL, or ErrNotFound.
func (s *Store) PageID(ctx context.Context, url string) (int64, error) {
	var id int64
	err := s.read.QueryRowContext(ctx, `SELECT id FROM pages WHERE url = ?`, url).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("%s: %w", url, ErrNotFound)
	}
	return id, err
}

// LinkRef is one link seen from one end: the page at the other end and how it links.
type LinkRef struct {
	PageID       int64
	URL, Title   string
	State        string
	Status       int
	Kind, Anchor string
	Rel          string
}

// Outlinks returns up to limit links of a page, in no particular order beyond kind.
func (s *Store) Outlinks(ctx context.Context, id int64, limit int) ([]LinkRef, error) {
	return s.linkRefs(ctx, `SELECT p.id, p.url, coalesce(p.title,''), p.state, coalesce(p.status,0), l.kind, l.anchor, l.rel
		FROM links l CROSS JOIN pages p ON p.id = l.to_id WHERE l.from_id = ? ORDER BY l.kind, p.url LIMIT ?`, id, limit)
}

// Inlinks returns up to limit links pointing at a page: who cites it, with what words.
func (s *Store) Inlinks(ctx context.Context, id int64, limit int) ([]LinkRef, error) {
	return s.linkRefs(ctx, `SELECT p.id, p.url, coalesce(p.title,''), p.state, coalesce(p.status,0), l.kind, l.anchor, l.rel
		FROM links l CROSS JOIN pages p ON p.id = l.from_id WHERE l.to_id = ? ORDER BY p.url, l.kind LIMIT ?`, id, limit)
}

func (s *Store) linkRefs(ctx context.Context, query string, id int64, limit int) ([]LinkRef, error) {
	if limit <= 0 || limit > 10_000 {
		limit = 1000
	}
	rows, err := s.read.QueryContext(ctx, query, id, limit)
	if err != nil {
		return nil, fmt.Errorf("links of %d: %w", id, err)
	}
	defer rows.Close()
	var out []LinkRef
	for rows.Next() {
		var l LinkRef
		if err := rows.Scan(&l.PageID, &l.URL, &l.Title, &l.State, &l.Status, &l.Kind, &l.Anchor, &l.Rel); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// decoder is shared: DecodeAll is safe for concurrent use. Bodies are capped well above
// the crawler's own cap so that a corrupt blob cannot ask for unbounded memory.
var decoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(256<<20))

// Body returns a page's cached body (the object cache) as fetched, after content decoding,
// with its media type and charset; ErrNotFound when there is none.
func (s *Store) Body(ctx context.Context, id int64) (body []byte, contentType, charset string, err error) {
	var codec string
	var data []byte
	var ct, cs sql.NullString
	err = s.read.QueryRowContext(ctx, `SELECT b.codec, b.data, p.content_type, p.charset
		FROM pages p JOIN blobs b ON b.hash = p.hash WHERE p.id = ?`, id).Scan(&codec, &data, &ct, &cs)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", "", fmt.Errorf("cached copy of page %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, "", "", err
	}
	switch codec {
	case "zstd":
		body, err = decoder.DecodeAll(data, nil)
	case "identity":
		body = data
	default:
		err = fmt.Errorf("unknown codec %q", codec)
	}
	if err != nil {
		return nil, "", "", fmt.Errorf("cached copy of page %d: %w", id, err)
	}
	return body, ct.String, cs.String, nil
}

// CrawlPage is one page as a crawl saw it.
type CrawlPage struct {
	ID            int64
	URL, Title    string
	State, Reason string
	Detail        string
	Status, Depth int
}

// CrawlPages lists a crawl's pages (see CrawlCounts: those it visited last or found), with
// why each failed or was skipped; state filters ("" for all; Recorded for the links
// recorded, not pages, which skipped leaves out). It returns their number too, which is
// CrawlCounts' (of that state, or in all).
func (s *Store) CrawlPages(ctx context.Context, crawlID int64, state string, offset, limit int) ([]CrawlPage, int, error) {
	if limit <= 0 || limit > 1000 {
		limit = 100
	}
	counts, err := s.CrawlCounts(ctx, crawlID)
	if err != nil {
		return nil, 0, err
	}
	var total int
	for st, n := range counts {
		if state == "" || st == state {
			total += int(n)
		}
	}
	// Links recorded, not pages, are skipped rows of some reasons; skipped is the rest.
	stored, recorded := state, 0
	switch state {
	case Recorded:
		stored, recorded = StateSkipped, 1
	case StateSkipped:
		recorded = -1
	}
	from := ` FROM pages p WHERE p.crawl_id = ?1 AND (?2 = '' OR p.state = ?2)` + recordedFilter(recorded)
	rows, err := s.read.QueryContext(ctx, `SELECT p.id, p.url, coalesce(p.title,''), p.state, coalesce(p.reason,''),
		coalesce(p.detail,''), coalesce(p.status,0), coalesce(p.depth,0)`+from+` ORDER BY p.depth, p.id LIMIT ?3 OFFSET ?4`,
		crawlID, stored, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("pages of crawl %d: %w", crawlID, err)
	}
	defer rows.Close()
	var out []CrawlPage
	for rows.Next() {
		var p CrawlPage
		if err := rows.Scan(&p.ID, &p.URL, &p.Title, &p.State, &p.Reason, &p.Detail, &p.Status, &p.Depth); err != nil {
			return nil, 0, err
		}
		out = append(out, p)
	}
	return out, total, rows.Err()
}

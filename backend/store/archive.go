package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Archives in and out (backend/archive): an imported crawl's pages and versions saved, and
// a crawl's versions and pages read for an export.

// ScopeImport is the scope of the crawl record an import makes: its pages came from a file.
const ScopeImport = "import"

// ImportOutcome tells an import what saving one archived response did.
type ImportOutcome struct {
	SaveOutcome
	PageID int64
	Kept   bool // keepContent was set and the page already had content: nothing was changed
	Older  bool // ImportSummary: the page's copy is newer than the summary (and Kept)
}

// ImportResult saves a result read from an archive as one atomic change: the page of t
// (created if new) joins the import's crawl r.CrawlID, then r is saved as SaveResult saves a
// visit. With keepContent, a page that already has stored content is left as it is.
func (s *Store) ImportResult(ctx context.Context, r *Result, t Target, keepContent bool) (ImportOutcome, error) {
	out, err := Get(ctx, s.writer, func(tx *Tx) (ImportOutcome, error) {
		return s.importResult(ctx, tx, r, t, keepContent, nil)
	})
	if err != nil {
		return out, fmt.Errorf("import %s: %w", r.URL, err)
	}
	return out, nil
}

// importResult is ImportResult's operation; keep, when given, is asked with the page's id
// whether to leave the page as it is (after keepContent's own test).
func (s *Store) importResult(ctx context.Context, tx *Tx, r *Result, t Target, keepContent bool,
	keep func(id int64) (bool, error)) (ImportOutcome, error) {
	var out ImportOutcome
	o := s.newOp(tx)
	t.Follow = true
	if _, err := o.enqueue(ctx, r.CrawlID, 0, []Target{t}, false); err != nil {
		return out, err
	}
	id, ok := o.pages[t.URL]
	if !ok {
		id, ok = s.ids.pages[t.URL]
	}
	if !ok {
		return out, fmt.Errorf("page %s was not created", t.URL)
	}
	out.PageID = id
	if keepContent {
		st, err := tx.Stmt(ctx, `SELECT hash IS NOT NULL FROM pages WHERE id = ?`)
		if err != nil {
			return out, err
		}
		if err := st.QueryRowContext(ctx, id).Scan(&out.Kept); err != nil {
			return out, err
		}
	}
	if !out.Kept && keep != nil {
		var err error
		if out.Kept, err = keep(id); err != nil {
			return out, err
		}
	}
	if out.Kept {
		if _, err := tx.ExecContext(ctx, `UPDATE frontier SET state = 2 WHERE crawl_id = ? AND page_id = ?`,
			r.CrawlID, id); err != nil {
			return out, err
		}
		o.done()
		return out, nil
	}
	rr := *r
	rr.PageID = id
	so, err := s.saveResult(ctx, tx, o, &rr)
	out.SaveOutcome = so
	return out, err
}

// ArchivedVersion is a version with what an export writes beside it.
type ArchivedVersion struct {
	Version
	URL       string
	ParentURL string
	Depth     int
}

// ExportCursor is where a page of ExportVersions ends: the next page starts after it.
type ExportCursor struct {
	PageID, FetchedAt, ID int64
}

// crawlPages is the condition "page p belongs to crawl ?1 (every page when ?1 is 0)".
const crawlPages = `(?1 = 0 OR p.crawl_id = ?1 OR p.id IN (SELECT page_id FROM frontier WHERE crawl_id = ?1))`

// ExportVersions returns up to limit versions of a crawl's pages (every page's when crawlID
// is 0), in page and time order, after the cursor.
func (s *Store) ExportVersions(ctx context.Context, crawlID int64, after ExportCursor, limit int) ([]ArchivedVersion, ExportCursor, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+versionCols+`, p.url, coalesce(q.url, ''), coalesce(p.depth, 0)
		FROM versions v JOIN pages p ON p.id = v.page_id LEFT JOIN pages q ON q.id = p.parent_id
		WHERE `+crawlPages+` AND (v.page_id, v.fetched_at, v.id) > (?2, ?3, ?4)
		ORDER BY v.page_id, v.fetched_at, v.id LIMIT ?5`, crawlID, after.PageID, after.FetchedAt, after.ID, limit)
	if err != nil {
		return nil, after, fmt.Errorf("versions to export: %w", err)
	}
	defer rows.Close()
	var out []ArchivedVersion
	for rows.Next() {
		var a ArchivedVersion
		v := &a.Version
		if err := rows.Scan(&v.ID, &v.PageID, &v.Hash, &v.FetchedAt, &v.ConfirmedAt, &v.ConfirmedStatus, &v.Status, &v.Size,
			&v.ContentType, &v.Charset, &v.Title, &v.Header, &v.Flag, &v.CrawlID, &v.Current, &v.Cached,
			&a.URL, &a.ParentURL, &a.Depth); err != nil {
			return nil, after, err
		}
		out = append(out, a)
		after = ExportCursor{v.PageID, v.FetchedAt, v.ID}
	}
	return out, after, rows.Err()
}

// CountExportVersions counts what ExportVersions will return.
func (s *Store) CountExportVersions(ctx context.Context, crawlID int64) (int, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM versions v JOIN pages p ON p.id = v.page_id
		WHERE `+crawlPages, crawlID).Scan(&n)
	return n, err
}

// FirstWithHash returns the first version in export order (page, then time) among a crawl's
// pages whose content has hash: the one an export writes in full, the others being revisits
// of it.
func (s *Store) FirstWithHash(ctx context.Context, crawlID int64, hash string) (ArchivedVersion, error) {
	var a ArchivedVersion
	err := s.read.QueryRowContext(ctx, `SELECT v.id, v.page_id, v.fetched_at, p.url FROM versions v
		JOIN pages p ON p.id = v.page_id WHERE v.hash = ?2 AND `+crawlPages+`
		ORDER BY v.page_id, v.fetched_at, v.id LIMIT 1`, crawlID, hash).Scan(&a.ID, &a.PageID, &a.FetchedAt, &a.URL)
	if errors.Is(err, sql.ErrNoRows) {
		return a, fmt.Errorf("version with content %.12s: %w", hash, ErrNotFound)
	}
	return a, err
}

// ArchivedPage is a fetched page as the WWWW archive records it.
type ArchivedPage struct {
	ID                int64
	URL, Title        string
	ContentType       string
	FetchedAt, Status int64
}

// ExportPages returns up to limit fetched pages of a crawl (every crawl's when crawlID is 0)
// with ids above after, in id order.
func (s *Store) ExportPages(ctx context.Context, crawlID, after int64, limit int) ([]ArchivedPage, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT p.id, p.url, coalesce(p.title, ''), coalesce(p.content_type, ''),
		coalesce(p.fetched_at, 0), coalesce(p.status, 0)
		FROM pages p WHERE p.state = 'fetched' AND `+crawlPages+` AND p.id > ?2 ORDER BY p.id LIMIT ?3`, crawlID, after, limit)
	if err != nil {
		return nil, fmt.Errorf("pages to export: %w", err)
	}
	defer rows.Close()
	var out []ArchivedPage
	for rows.Next() {
		var p ArchivedPage
		if err := rows.Scan(&p.ID, &p.URL, &p.Title, &p.ContentType, &p.FetchedAt, &p.Status); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Unfinished returns the pages of a crawl (every crawl when crawlID is 0) whose links are not
// all processed to every depth: those a crawl (any crawl) will still fetch, and every page
// that follows a link to one of them. The others are what the WWWW archive calls completed
// (its C lines). A page queued but fresh (fetched, not due, not in a --refresh run) is not
// fetched again: its run follows its stored links, so it is open only if they lead to an
// open page. (The rerun a WWWW import seeds queues the archive's starting pages, completed
// ones among them, and the pages it did not complete: only the latter are open.)
func (s *Store) Unfinished(ctx context.Context, crawlID int64) (map[int64]bool, error) {
	rows, err := s.read.QueryContext(ctx, `WITH RECURSIVE open(id) AS (
			SELECT f.page_id FROM frontier f JOIN pages p ON p.id = f.page_id JOIN crawls c ON c.id = f.crawl_id
			WHERE f.state < 2 AND NOT (p.state = 'fetched' AND coalesce(p.refresh_at, 0) > ?2 AND f.sitemap = 0
				AND NOT coalesce(json_extract(c.config, '$.refresh'), 0))
			UNION
			SELECT l.from_id FROM link_rows l JOIN open o ON l.to_id = o.id
			WHERE l.from_id IN (SELECT page_id FROM frontier WHERE ?1 = 0 OR crawl_id = ?1)
			UNION
			SELECT l.from_id FROM link_pending l JOIN open o ON l.to_id = o.id
			WHERE l.from_id IN (SELECT page_id FROM frontier WHERE ?1 = 0 OR crawl_id = ?1))
		SELECT id FROM open`, crawlID, time.Now().UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("unfinished pages: %w", err)
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}

// PendingPage returns the content hash of the page at url ("" when it has none) and whether
// the workspace holds the page, as the writer sees it: what was saved but not yet committed
// counts, so an import can ask about what it saved a moment ago without forcing a commit.
func (s *Store) PendingPage(ctx context.Context, url string) (hash string, exists bool, err error) {
	type answer struct {
		hash   string
		exists bool
	}
	a, err := Get(ctx, s.writer, func(tx *Tx) (answer, error) {
		st, err := tx.Stmt(ctx, `SELECT coalesce(hash, '') FROM pages WHERE url = ?`)
		if err != nil {
			return answer{}, err
		}
		var h string
		switch err := st.QueryRowContext(ctx, url).Scan(&h); {
		case errors.Is(err, sql.ErrNoRows):
			return answer{}, nil
		case err != nil:
			return answer{}, err
		}
		return answer{h, true}, nil
	})
	return a.hash, a.exists, err
}

// PendingBlob returns the content stored under hash as the writer sees it (uncommitted
// bodies included), or ErrNotFound.
func (s *Store) PendingBlob(ctx context.Context, hash string) ([]byte, error) {
	type blob struct {
		codec string
		data  []byte
	}
	b, err := Get(ctx, s.writer, func(tx *Tx) (blob, error) {
		st, err := tx.Stmt(ctx, `SELECT codec, data FROM blobs WHERE hash = ?`)
		if err != nil {
			return blob{}, err
		}
		var b blob
		if err := st.QueryRowContext(ctx, hash).Scan(&b.codec, &b.data); errors.Is(err, sql.ErrNoRows) {
			return blob{}, fmt.Errorf("body %.12s: %w", hash, ErrNotFound)
		} else if err != nil {
			return blob{}, err
		}
		return b, nil
	})
	if err != nil {
		return nil, err
	}
	body, err := decodeBlob(b.codec, b.data)
	if err != nil {
		return nil, fmt.Errorf("body %.12s: %w", hash, err)
	}
	return body, nil
}

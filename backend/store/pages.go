package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// Pages as a crawl saves them: one visit committed atomically (the page, its body, its
// links, the queue entries they make), and a page's stored links read back.

// Doc is the extracted, indexable summary of a fetched page.
type Doc struct {
	Title, Headings, Text                      string
	Lang, Description, Keywords, Author, Owner string
	Canonical, Expires                         string
	Problems                                   []string
	NoIndex, NoFollow                          bool
	// Summariser names the summariser that made the summary (backend/summary's kinds);
	// Attrs are its type's attributes, stored in summary_attrs (migration 0023).
	Summariser string
	Attrs      []Attr
}

// Attr is one type-specific attribute of a summary (a PDF's author, its pages).
type Attr struct{ Name, Value string }

// Result is what one visit of a leased page produced.
type Result struct {
	CrawlID   int64
	PageID    int64
	URL       string
	State     string // fetched | redirected | failed | skipped
	Unchanged bool   // fetched, and the content is what is stored (304 or same hash)
	Stored    bool   // visited from the store without a request: the page row is left as it is
	// Status is the HTTP status of the response; 0 for a 304, which confirms the stored
	// response (and its status) instead of replacing it.
	Reason   string // closed code for redirected, failed and skipped
	Detail   string
	Status   int
	FinalURL string

	ContentType, Charset string
	Size, WireBytes      int64
	Hash                 string // sha256 hex of the body
	Blob                 []byte // compressed body (nil: none to store)
	Codec                string
	ETag, LastModified   string
	RefreshAt            int64

	Doc *Doc // nil when there is nothing to index
	// Text is Doc's text packed by PackText off the writer's goroutine; when empty,
	// SaveResult packs it.
	Text PackedText

	Links        []Target // links found (or, for unchanged pages, the stored ones to follow)
	ReplaceLinks bool     // the page's stored links are replaced by Links

	Element *Element // the crawl's element for this visit (nil: none recorded)

	// FetchedAt is when the response was received, unix ms (0: now). An import gives the
	// archive's date: a response older than the page's stored one becomes an earlier
	// version only.
	FetchedAt int64
	// Header is the response's status line and header lines, kept with its version.
	Header string
	// Flag marks a 200 answer that is not the page (FlagSoft404, FlagParked).
	Flag string
	// Render is how the page's HTML was read (nil: not recorded); Screenshots go with the
	// version a rendered page's new content makes (render.go).
	Render      *Render
	Screenshots []Screenshot
}

// at is when the result's response was received.
func (r *Result) at() int64 {
	if r.FetchedAt > 0 {
		return r.FetchedAt
	}
	return nowMs()
}

// Element is the element a visit records (see migration 0013); its children come from the
// result's links that carry a family index.
type Element struct {
	Family   []byte
	Category uint8
	Followed bool
}

// countCrawl counts a visit in its crawl's counters, by the page's new state.
var countCrawl = map[string]string{
	StateFetched: `UPDATE crawls SET fetched = fetched + 1, bytes = bytes + ? WHERE id = ?`,
	StateFailed:  `UPDATE crawls SET failed = failed + 1, bytes = bytes + ? WHERE id = ?`,
	StateSkipped: `UPDATE crawls SET skipped = skipped + 1, bytes = bytes + ? WHERE id = ?`,
}

// SaveOutcome tells the crawl what a saved result changed.
type SaveOutcome struct {
	Queued      int   // pages that entered the queue
	DuplicateOf int64 // the page whose identical content this page has, or 0
}

// SaveResult commits one visit atomically: the page's row, its body in the object cache, its
// index row, its links, the queue entries of the links to follow, the frontier entry of the
// page itself, and the crawl's counters.
func (s *Store) SaveResult(ctx context.Context, r *Result) (SaveOutcome, error) {
	out, err := Get(ctx, s.writer, func(tx *Tx) (SaveOutcome, error) {
		return s.saveResult(ctx, tx, s.newOp(tx), r)
	})
	if err != nil {
		return out, fmt.Errorf("save %s: %w", r.URL, err)
	}
	return out, nil
}

func (s *Store) saveResult(ctx context.Context, tx *Tx, o *opState, r *Result) (SaveOutcome, error) {
	var out SaveOutcome
	var err error
	switch {
	case r.Stored:
		// Not even a request; the page belongs to the crawl that visited it last.
		var st *sql.Stmt
		if st, err = tx.Stmt(ctx, `UPDATE pages SET crawl_id=?1 WHERE id=?2 AND crawl_id IS NOT ?1`); err == nil {
			_, err = st.ExecContext(ctx, r.CrawlID, r.PageID)
		}
	case r.State == StateFetched && !r.Unchanged:
		out.DuplicateOf, err = s.saveContent(ctx, tx, r)
	case r.State == StateFetched:
		// The server confirmed what is stored: a 304 keeps the stored status and the time
		// of the stored response; the same content again is a new response of it.
		var st *sql.Stmt
		if st, err = tx.Stmt(ctx, `UPDATE pages SET state=?1, reason=NULL, detail=NULL, crawl_id=?2,
			status=coalesce(nullif(?3,0), status),
			fetched_at=CASE WHEN ?3 > 0 THEN max(coalesce(fetched_at, 0), ?4) ELSE fetched_at END,
			confirmed_at=max(coalesce(confirmed_at, 0), ?4), refresh_at=?5, etag=coalesce(nullif(?6,''), etag),
			last_modified=coalesce(nullif(?7,''), last_modified) WHERE id=?8`); err == nil {
			_, err = st.ExecContext(ctx, StateFetched, r.CrawlID, r.Status, r.at(), r.RefreshAt, r.ETag, r.LastModified, r.PageID)
		}
		if err == nil {
			status := r.Status
			if status == 0 {
				status = 304 // a 304 passes no status of its own
			}
			err = confirmLatest(ctx, tx, r.PageID, r.at(), status)
		}
	default:
		err = s.saveFailure(ctx, tx, r)
	}
	if err != nil {
		return out, err
	}
	if r.ReplaceLinks {
		if err := s.deleteLinks(ctx, tx, r.PageID); err != nil {
			return out, err
		}
	}
	if out.Queued, err = o.enqueue(ctx, r.CrawlID, r.PageID, r.Links, r.ReplaceLinks); err != nil {
		return out, err
	}
	if r.Element != nil {
		if err := saveElement(ctx, tx, r, o.children); err != nil {
			return out, err
		}
	}
	if r.State == StateFetched && !r.Unchanged && !r.Stored {
		if err := o.setCanonical(ctx, r); err != nil {
			return out, err
		}
	}
	if err := s.saveRender(ctx, tx, r); err != nil {
		return out, err
	}
	done, err := tx.Stmt(ctx, `UPDATE frontier SET state=2 WHERE crawl_id=? AND page_id=?`)
	if err != nil {
		return out, err
	}
	if _, err := done.ExecContext(ctx, r.CrawlID, r.PageID); err != nil {
		return out, err
	}
	if q := countCrawl[r.State]; q != "" && !r.Stored {
		st, err := tx.Stmt(ctx, q)
		if err != nil {
			return out, err
		}
		if _, err := st.ExecContext(ctx, r.WireBytes, r.CrawlID); err != nil {
			return out, err
		}
	}
	o.done()
	return out, nil
}

// deleteLinks deletes a page's links before its new ones are stored: its link rows and its
// pack not yet expanded. The pages the rows pointed at lose anchor text (resources a citing
// title too): their index rows change, unless the same links come back. (A pack's targets
// were never told of its links: the expansion tells them.)
func (s *Store) deleteLinks(ctx context.Context, tx *Tx, from int64) error {
	// Prepared once: compiling the statement compiles the rows' count triggers too.
	del, err := tx.Stmt(ctx, `DELETE FROM link_rows WHERE from_id=? RETURNING to_id`)
	if err != nil {
		return err
	}
	rows, err := del.QueryContext(ctx, from)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var to int64
		if err := rows.Scan(&to); err != nil {
			return err
		}
		s.logAnchors(to)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	pack, err := tx.Stmt(ctx, `DELETE FROM link_packs WHERE page_id = ?`)
	if err != nil {
		return err
	}
	_, err = pack.ExecContext(ctx, from)
	return err
}

func (s *Store) saveContent(ctx context.Context, tx *Tx, r *Result) (dupOf int64, err error) {
	if r.Blob != nil {
		st, err := tx.Stmt(ctx, `INSERT INTO blobs(hash, codec, size, data) VALUES (?, ?, ?, ?) ON CONFLICT(hash) DO NOTHING`)
		if err != nil {
			return 0, err
		}
		if _, err := st.ExecContext(ctx, r.Hash, r.Codec, r.Size, r.Blob); err != nil {
			return 0, fmt.Errorf("blob: %w", err)
		}
	}
	if r.Hash != "" {
		st, err := tx.Stmt(ctx, `SELECT id FROM pages WHERE hash=? AND id<>? AND state=? AND duplicate_of IS NULL ORDER BY id LIMIT 1`)
		if err != nil {
			return 0, err
		}
		err = st.QueryRowContext(ctx, r.Hash, r.PageID, StateFetched).Scan(&dupOf)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return 0, err
		}
	}
	d := r.Doc
	if d == nil {
		d = &Doc{}
	}
	now := r.at()
	added := false
	if r.Hash != "" {
		if added, err = s.addVersion(ctx, tx, version{pageID: r.PageID, at: now, crawlID: r.CrawlID, hash: r.Hash,
			status: r.Status, size: r.Size, contentType: r.ContentType, charset: r.Charset, title: d.Title,
			header: r.Header, flag: r.Flag}); err != nil {
			return 0, err
		}
		if older, err := s.storedLater(ctx, tx, r.PageID, now); err != nil || older {
			if err == nil && added {
				err = s.retain(ctx, tx, r.PageID)
			}
			return 0, err // an earlier version, from an archive: the page keeps what it has now
		}
	}
	var dup any
	if dupOf != 0 {
		dup = dupOf
	}
	st, err := tx.Stmt(ctx, `UPDATE pages SET state=?, reason=NULL, detail=NULL, status=?, final_url=NULL,
		content_type=?, charset=?, lang=?, title=?, description=?, keywords=?, author=?, owner=?, canonical=?,
		size=?, changed_at=CASE WHEN hash IS ? THEN changed_at ELSE ? END, hash=?, duplicate_of=?,
		etag=?, last_modified=?, expires=?, problems=?, noindex=?, nofollow=?, fetched_at=?, confirmed_at=?,
		refresh_at=?, crawl_id=?, summariser=? WHERE id=?`)
	if err != nil {
		return 0, err
	}
	_, err = st.ExecContext(ctx, StateFetched, r.Status, r.ContentType, r.Charset, d.Lang, d.Title,
		d.Description, d.Keywords, d.Author, d.Owner, nullIfEmpty(d.Canonical), r.Size, r.Hash, now, r.Hash, dup,
		r.ETag, r.LastModified, d.Expires, strings.Join(d.Problems, " "), d.NoIndex, d.NoFollow, now, now,
		r.RefreshAt, r.CrawlID, nullIfEmpty(d.Summariser), r.PageID)
	if err != nil {
		return 0, fmt.Errorf("page: %w", err)
	}
	if err := saveAttrs(ctx, tx, r.PageID, d.Attrs); err != nil {
		return 0, err
	}
	// The text is stored once, for the page that has the content first: a duplicate's is
	// its original's.
	if r.Doc != nil && dupOf == 0 {
		text := r.Text
		if text.data == nil {
			text = PackText(PageText{Title: d.Title, Headings: d.Headings, Body: d.Text})
		}
		st, err := tx.Stmt(ctx, `INSERT INTO page_text(page_id, codec, data) VALUES (?, ?, ?)
			ON CONFLICT(page_id) DO UPDATE SET codec = excluded.codec, data = excluded.data`)
		if err != nil {
			return 0, err
		}
		if _, err := st.ExecContext(ctx, r.PageID, text.codec, text.data); err != nil {
			return 0, fmt.Errorf("text: %w", err)
		}
	} else {
		st, err := tx.Stmt(ctx, `DELETE FROM page_text WHERE page_id = ?`)
		if err != nil {
			return 0, err
		}
		if _, err := st.ExecContext(ctx, r.PageID); err != nil {
			return 0, fmt.Errorf("text: %w", err)
		}
	}
	if added {
		if err := s.retain(ctx, tx, r.PageID); err != nil {
			return 0, err
		}
	}
	s.logPage(r.PageID)
	return dupOf, nil
}

// storedLater reports whether the page holds a response fetched after at.
func (s *Store) storedLater(ctx context.Context, tx *Tx, pageID, at int64) (bool, error) {
	st, err := tx.Stmt(ctx, `SELECT coalesce(fetched_at, 0) > ? FROM pages WHERE id = ?`)
	if err != nil {
		return false, err
	}
	var later bool
	err = st.QueryRowContext(ctx, at, pageID).Scan(&later)
	return later, err
}

func (s *Store) saveFailure(ctx context.Context, tx *Tx, r *Result) error {
	var final any
	if r.FinalURL != "" {
		final = r.FinalURL
	}
	st, err := tx.Stmt(ctx, `UPDATE pages SET state=?, reason=?, detail=nullif(?,''), status=nullif(?,0),
		final_url=?, content_type=coalesce(nullif(?,''), content_type), fetched_at=?, refresh_at=?, crawl_id=?
		WHERE id=?`)
	if err != nil {
		return err
	}
	if _, err := st.ExecContext(ctx, r.State, r.Reason, r.Detail, r.Status, final, r.ContentType,
		nowMs(), r.RefreshAt, r.CrawlID, r.PageID); err != nil {
		return fmt.Errorf("page: %w", err)
	}
	// A page that is gone leaves the index, a resource gets its row; one that failed for a
	// while keeps its last copy (see IndexInputs).
	s.logPage(r.PageID)
	return nil
}

// setCanonical records which other page r's page names as its canonical URL (search
// collapses it onto that page), or that it names none. The canonical page was among r's
// links, so it has a row by now.
func (o *opState) setCanonical(ctx context.Context, r *Result) error {
	var of int64
	if c := r.Doc; c != nil && c.Canonical != "" && c.Canonical != r.URL {
		id, ok := o.pages[c.Canonical]
		if !ok {
			id, ok = o.s.ids.pages[c.Canonical]
		}
		if !ok {
			sel, err := o.tx.Stmt(ctx, `SELECT id FROM pages WHERE url = ?`)
			if err != nil {
				return err
			}
			if err := sel.QueryRowContext(ctx, c.Canonical).Scan(&id); err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
		}
		of = id
	}
	if of == 0 {
		del, err := o.tx.Stmt(ctx, `DELETE FROM canonicals WHERE page_id = ?`)
		if err != nil {
			return err
		}
		_, err = del.ExecContext(ctx, r.PageID)
		return err
	}
	ins, err := o.tx.Stmt(ctx, `INSERT INTO canonicals(page_id, of_id) VALUES (?, ?)
		ON CONFLICT(page_id) DO UPDATE SET of_id = excluded.of_id`)
	if err != nil {
		return err
	}
	_, err = ins.ExecContext(ctx, r.PageID, of)
	return err
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// Link is a stored link of a page.
type Link struct {
	URL, Origin, Kind, Anchor, Rel string
}

// Links returns the stored outgoing links of a page (committed data).
func (s *Store) Links(ctx context.Context, pageID int64) ([]Link, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT p.url, h.origin, l.kind, l.anchor, l.rel
		FROM links l JOIN pages p ON p.id = l.to_id JOIN hosts h ON h.id = p.host_id
		WHERE l.from_id = ? ORDER BY l.pos, l.to_id`, pageID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Link
	for rows.Next() {
		var l Link
		if err := rows.Scan(&l.URL, &l.Origin, &l.Kind, &l.Anchor, &l.Rel); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

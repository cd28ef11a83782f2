package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// A page's versions (migration 0019): each content it had, bodies stored once per content.

// Version is one content a page had (see migration 0019).
type Version struct {
	ID, PageID      int64
	Hash            string
	FetchedAt       int64 // unix ms: first fetched with this content
	ConfirmedAt     int64 // last answered with it again (0: never)
	ConfirmedStatus int   // that answer's status: 304, or 200 with the same body
	Status          int
	Size            int64
	ContentType     string
	Charset         string
	Title           string
	Header          string // status line and header lines as received ("" when unknown)
	Flag            string // FlagSoft404, FlagParked or ""
	CrawlID         int64
	Current         bool // the page's content now
	Cached          bool // its body is stored
}

// Flags of a version whose 200 answer was not the page.
const (
	FlagSoft404 = "soft-404" // a generic error page served with 200
	FlagParked  = "parked"   // a domain-parking page: the site is gone
)

const versionCols = `v.id, v.page_id, v.hash, v.fetched_at, coalesce(v.confirmed_at, 0), coalesce(v.confirmed_status, 0),
	v.status, v.size, coalesce(v.content_type, ''), coalesce(v.charset, ''), coalesce(v.title, ''),
	coalesce(v.header, ''), coalesce(v.flag, ''), coalesce(v.crawl_id, 0),
	v.hash IS (SELECT hash FROM pages WHERE id = v.page_id) AND v.id = (SELECT id FROM versions w
		WHERE w.page_id = v.page_id ORDER BY w.fetched_at DESC, w.id DESC LIMIT 1),
	EXISTS (SELECT 1 FROM blobs b WHERE b.hash = v.hash)`

func scanVersion(row interface{ Scan(...any) error }) (Version, error) {
	var v Version
	err := row.Scan(&v.ID, &v.PageID, &v.Hash, &v.FetchedAt, &v.ConfirmedAt, &v.ConfirmedStatus, &v.Status, &v.Size,
		&v.ContentType, &v.Charset, &v.Title, &v.Header, &v.Flag, &v.CrawlID, &v.Current, &v.Cached)
	return v, err
}

// Versions lists a page's versions, oldest first.
func (s *Store) Versions(ctx context.Context, pageID int64) ([]Version, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+versionCols+` FROM versions v WHERE v.page_id = ?
		ORDER BY v.fetched_at, v.id`, pageID)
	if err != nil {
		return nil, fmt.Errorf("versions of page %d: %w", pageID, err)
	}
	defer rows.Close()
	var out []Version
	for rows.Next() {
		v, err := scanVersion(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Version returns one version by id, or ErrNotFound.
func (s *Store) Version(ctx context.Context, id int64) (Version, error) {
	v, err := scanVersion(s.read.QueryRowContext(ctx, `SELECT `+versionCols+` FROM versions v WHERE v.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return v, fmt.Errorf("version %d: %w", id, ErrNotFound)
	}
	return v, err
}

// BlobBody returns the body stored under a content hash, or ErrNotFound.
func (s *Store) BlobBody(ctx context.Context, hash string) ([]byte, error) {
	var codec string
	var data []byte
	err := s.read.QueryRowContext(ctx, `SELECT codec, data FROM blobs WHERE hash = ?`, hash).Scan(&codec, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("body %.12s: %w", hash, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	body, err := decodeBlob(codec, data)
	if err != nil {
		return nil, fmt.Errorf("body %.12s: %w", hash, err)
	}
	return body, nil
}

func decodeBlob(codec string, data []byte) ([]byte, error) {
	switch codec {
	case "zstd":
		return decoder.DecodeAll(data, nil)
	case "identity":
		return data, nil
	}
	return nil, fmt.Errorf("unknown codec %q", codec)
}

// version is what a fetch or an import tells about a page's content.
type version struct {
	pageID, at, crawlID int64
	hash                string
	status              int
	size                int64
	contentType         string
	charset, title      string
	header, flag        string
}

// addVersion records that the page had content v.hash at v.at: it extends the version in
// force at that time when the content is the same, else inserts a new version. After a new
// version the caller applies the retention setting (retain), once the page row names its
// content.
func (s *Store) addVersion(ctx context.Context, tx *Tx, v version) (added bool, err error) {
	prev, err := tx.Stmt(ctx, `SELECT id, hash FROM versions WHERE page_id = ? AND fetched_at <= ?
		ORDER BY fetched_at DESC, id DESC LIMIT 1`)
	if err != nil {
		return false, err
	}
	var id int64
	var hash string
	err = prev.QueryRowContext(ctx, v.pageID, v.at).Scan(&id, &hash)
	switch {
	case err == nil && hash == v.hash:
		return false, confirmVersion(ctx, tx, id, v.at, v.status)
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return false, err
	}
	ins, err := tx.Stmt(ctx, `INSERT INTO versions(page_id, hash, fetched_at, status, size, content_type, charset,
		title, header, flag, crawl_id) VALUES (?, ?, ?, ?, ?, nullif(?, ''), nullif(?, ''), ?, nullif(?, ''), nullif(?, ''), nullif(?, 0))
		ON CONFLICT DO NOTHING`)
	if err != nil {
		return false, err
	}
	res, err := ins.ExecContext(ctx, v.pageID, v.hash, v.at, v.status, v.size, v.contentType, v.charset, v.title,
		v.header, v.flag, v.crawlID)
	if err != nil {
		return false, fmt.Errorf("version: %w", err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

func confirmVersion(ctx context.Context, tx *Tx, id, at int64, status int) error {
	st, err := tx.Stmt(ctx, `UPDATE versions SET confirmed_at = ?2, confirmed_status = ?3
		WHERE id = ?1 AND fetched_at < ?2 AND coalesce(confirmed_at, 0) <= ?2`)
	if err != nil {
		return err
	}
	_, err = st.ExecContext(ctx, id, at, status)
	return err
}

// confirmLatest records that the server answered with the page's stored content again.
func confirmLatest(ctx context.Context, tx *Tx, pageID, at int64, status int) error {
	var id int64
	st, err := tx.Stmt(ctx, `SELECT id FROM versions WHERE page_id = ? ORDER BY fetched_at DESC, id DESC LIMIT 1`)
	if err != nil {
		return err
	}
	if err := st.QueryRowContext(ctx, pageID).Scan(&id); errors.Is(err, sql.ErrNoRows) {
		return nil
	} else if err != nil {
		return err
	}
	return confirmVersion(ctx, tx, id, at, status)
}

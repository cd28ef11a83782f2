package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// Page requisites: the style sheets, images and fonts a crawl stored for its pages to look
// like themselves offline (see migration 0040).

// RequisiteFetch is one fetch of a requisite, as SaveRequisite records it.
type RequisiteFetch struct {
	URL         string // canonical
	FetchedAt   int64  // unix ms
	Kind        string // stylesheet | image | font
	Status      int    // 0: no answer
	ContentType string
	Body        []byte // nil: not kept (Error says why)
	Error       string
}

// Requisite is a stored requisite.
type Requisite struct {
	URL         string
	FetchedAt   int64
	Kind        string
	ContentType string
	Hash        string
	Body        []byte
}

// requisitesKept is how many fetches of one URL are kept (the newest).
const requisitesKept = 3

// SaveRequisite records a fetch of a requisite (and its body, once per content), keeping
// the newest requisitesKept fetches of its URL; a body no fetch names any more goes.
func (s *Store) SaveRequisite(ctx context.Context, f RequisiteFetch) error {
	var hash, codec string
	var data []byte
	if f.Body != nil {
		sum := sha256.Sum256(f.Body)
		hash = hex.EncodeToString(sum[:])
		codec, data = "identity", f.Body
		if compressible(f.ContentType) {
			codec, data = "zstd", textEncoder.EncodeAll(f.Body, make([]byte, 0, len(f.Body)/3+64))
		}
	}
	err := s.writer.Do(ctx, func(tx *Tx) error {
		if hash != "" {
			if _, err := tx.ExecContext(ctx, `INSERT INTO requisite_bodies(hash, codec, size, data) VALUES (?, ?, ?, ?)
				ON CONFLICT(hash) DO NOTHING`, hash, codec, len(f.Body), data); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO requisites(url, fetched_at, kind, status, content_type, hash, error)
			VALUES (?, ?, ?, ?, ?, nullif(?, ''), nullif(?, ''))`, f.URL, f.FetchedAt, f.Kind, f.Status, f.ContentType, hash, f.Error); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `DELETE FROM requisites WHERE url = ? AND fetched_at NOT IN
			(SELECT fetched_at FROM requisites WHERE url = ? ORDER BY fetched_at DESC LIMIT ?) RETURNING coalesce(hash, '')`,
			f.URL, f.URL, requisitesKept)
		if err != nil {
			return err
		}
		var gone []string
		for rows.Next() {
			var h string
			if err := rows.Scan(&h); err != nil {
				rows.Close()
				return err
			}
			if h != "" {
				gone = append(gone, h)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, h := range gone {
			if _, err := tx.ExecContext(ctx, `DELETE FROM requisite_bodies WHERE hash = ?1
				AND NOT EXISTS (SELECT 1 FROM requisites WHERE hash = ?1)`, h); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("save requisite %s: %w", f.URL, err)
	}
	return nil
}

// compressible reports whether a body of this media type is worth compressing (text is;
// images and fonts are compressed already, but for SVG).
func compressible(ct string) bool {
	return strings.HasPrefix(ct, "text/") || strings.Contains(ct, "svg") || strings.Contains(ct, "json") ||
		strings.Contains(ct, "xml") || ct == "font/ttf" || ct == "font/otf"
}

// Requisite returns the stored fetch of url nearest in time to at (unix ms), with its body,
// or ErrNotFound.
func (s *Store) Requisite(ctx context.Context, url string, at int64) (Requisite, error) {
	r := Requisite{URL: url}
	var codec string
	var data []byte
	err := s.read.QueryRowContext(ctx, `SELECT r.fetched_at, r.kind, r.content_type, r.hash, b.codec, b.data
		FROM requisites r JOIN requisite_bodies b ON b.hash = r.hash
		WHERE r.url = ? ORDER BY abs(r.fetched_at - ?), r.fetched_at DESC LIMIT 1`, url, at).
		Scan(&r.FetchedAt, &r.Kind, &r.ContentType, &r.Hash, &codec, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("requisite %s: %w", url, ErrNotFound)
	}
	if err != nil {
		return r, fmt.Errorf("requisite %s: %w", url, err)
	}
	if r.Body, err = decodeBlob(codec, data); err != nil {
		return r, fmt.Errorf("requisite %s: %w", url, err)
	}
	return r, nil
}

// RequisiteState is what the workspace knows of a requisite's URL: when it was last
// fetched (0: never) and whether a body of it is kept.
type RequisiteState struct {
	LastFetched int64
	Stored      bool
}

// RequisiteState says whether a requisite was fetched and kept.
func (s *Store) RequisiteState(ctx context.Context, url string) (RequisiteState, error) {
	var st RequisiteState
	err := s.read.QueryRowContext(ctx, `SELECT coalesce(max(fetched_at), 0), coalesce(max(hash IS NOT NULL), 0)
		FROM requisites WHERE url = ?`, url).Scan(&st.LastFetched, &st.Stored)
	if err != nil {
		return st, fmt.Errorf("requisite %s: %w", url, err)
	}
	return st, nil
}

// RequisitePage is a fetched page of a crawl whose requisites are to be gathered.
type RequisitePage struct {
	ID        int64
	URL       string
	Hash      string
	FetchedAt int64
}

// PagesWithoutRequisites lists, by id after after, up to limit fetched HTML pages of crawl
// whose requisites were not gathered for their current body, or were gathered before
// before (unix ms; 0: whenever).
func (s *Store) PagesWithoutRequisites(ctx context.Context, crawl, after, before int64, limit int) ([]RequisitePage, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT p.id, p.url, p.hash, coalesce(p.changed_at, p.fetched_at, 0)
		FROM frontier f JOIN pages p ON p.id = f.page_id
		WHERE f.crawl_id = ? AND p.id > ? AND p.state = ? AND p.hash IS NOT NULL
			AND p.content_type IN ('text/html', 'application/xhtml+xml')
			AND NOT EXISTS (SELECT 1 FROM requisite_pages q WHERE q.page_id = p.id AND q.hash = p.hash AND q.at >= ?)
		ORDER BY p.id LIMIT ?`, crawl, after, StateFetched, before, limit)
	if err != nil {
		return nil, fmt.Errorf("pages without requisites: %w", err)
	}
	defer rows.Close()
	var out []RequisitePage
	for rows.Next() {
		var p RequisitePage
		if err := rows.Scan(&p.ID, &p.URL, &p.Hash, &p.FetchedAt); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// RequisitesGathered records that the requisites of page's body hash were gathered.
func (s *Store) RequisitesGathered(ctx context.Context, page int64, hash string, at int64) error {
	return s.writer.Do(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO requisite_pages(page_id, hash, at) VALUES (?, ?, ?)`, page, hash, at)
		return err
	})
}

// RequisiteUsage is what the stored requisites take.
type RequisiteUsage struct {
	URLs   int   // distinct URLs with a kept body
	Bodies int   // distinct bodies
	Bytes  int64 // their size, compressed
}

// RequisiteUsage measures the stored requisites.
func (s *Store) RequisiteUsage(ctx context.Context) (RequisiteUsage, error) {
	var u RequisiteUsage
	err := s.read.QueryRowContext(ctx, `SELECT (SELECT count(DISTINCT url) FROM requisites WHERE hash IS NOT NULL),
		count(*), coalesce(sum(length(data)), 0) FROM requisite_bodies`).Scan(&u.URLs, &u.Bodies, &u.Bytes)
	if err != nil {
		return u, fmt.Errorf("requisite usage: %w", err)
	}
	return u, nil
}

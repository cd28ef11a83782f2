package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// What an offline copy asks of the workspace about the pages its links point at.

// LinkTarget is what the workspace holds of a link's target.
type LinkTarget struct {
	// Page is the page whose stored copy the link opens: the target itself, or where it
	// redirects (0: no copy is stored).
	Page int64
	// Known is the target's own page when the workspace knows it without a copy of it
	// (failed, skipped, queued, or redirecting to a page without one).
	Known int64
}

// maxLinkHops bounds the redirects LinkTarget follows.
const maxLinkHops = 5

// LinkTarget resolves a canonical URL to the page whose stored copy a link to it opens,
// following redirects the crawl recorded.
func (s *Store) LinkTarget(ctx context.Context, url string) (LinkTarget, error) {
	var t LinkTarget
	seen := map[string]bool{}
	for hop := 0; hop <= maxLinkHops && !seen[url]; hop++ {
		seen[url] = true
		var id int64
		var state string
		var final sql.NullString
		var cached bool
		err := s.read.QueryRowContext(ctx, `SELECT p.id, p.state, p.final_url,
			p.hash IS NOT NULL AND EXISTS (SELECT 1 FROM blobs b WHERE b.hash = p.hash)
			FROM pages p WHERE p.url = ?`, url).Scan(&id, &state, &final, &cached)
		if errors.Is(err, sql.ErrNoRows) {
			return t, nil
		}
		if err != nil {
			return t, fmt.Errorf("link target %s: %w", url, err)
		}
		if t.Known == 0 {
			t.Known = id
		}
		switch {
		case cached && state == StateFetched:
			t.Page, t.Known = id, 0
			return t, nil
		case state == StateRedirected && final.String != "":
			url = final.String
		default:
			return t, nil
		}
	}
	return t, nil
}

// NearestVersion returns the version of a page, among those whose body is kept, seen
// nearest in time to at (unix ms): what a web archive's replay shows for a link followed
// from a copy of that time. A version was seen from its fetch to the last time the server
// confirmed it; at within that span is at distance 0 (the newest such wins). ErrNotFound
// when none is kept.
func (s *Store) NearestVersion(ctx context.Context, page, at int64) (Version, error) {
	v, err := scanVersion(s.read.QueryRowContext(ctx, `SELECT `+versionCols+` FROM versions v
		WHERE v.page_id = ?1 AND EXISTS (SELECT 1 FROM blobs b WHERE b.hash = v.hash)
		ORDER BY CASE WHEN ?2 < v.fetched_at THEN v.fetched_at - ?2
			WHEN ?2 <= coalesce(v.confirmed_at, v.fetched_at) THEN 0
			ELSE ?2 - coalesce(v.confirmed_at, v.fetched_at) END, v.fetched_at DESC LIMIT 1`, page, at))
	if errors.Is(err, sql.ErrNoRows) {
		return v, fmt.Errorf("version of page %d: %w", page, ErrNotFound)
	}
	return v, err
}

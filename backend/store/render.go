package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// How a page was rendered (migration 0035): the render state and its screenshots.

// Render is how a page's HTML was read (see migration 0035).
type Render struct {
	State  string // RenderRendered, RenderStatic, RenderShell, or "" (not HTML, or before 35)
	Why    string // see migration 0035: always, shell, auto, never, no-browser, timeout, ...
	Signal string // the shell detector's signal, "" when none
	Detail string // in words
}

// How a page's HTML was read.
const (
	RenderRendered = "rendered" // the DOM after its scripts ran
	RenderStatic   = "static"   // as served, needing no browser
	RenderShell    = "shell"    // as served, though it looks like a shell (Why says why)
)

// Screenshot kinds.
const (
	ShotViewport = "viewport"
	ShotFull     = "full"
)

// Screenshot is an image of a rendered version.
type Screenshot struct {
	VersionID     int64
	Kind          string // ShotViewport or ShotFull
	Format        string // webp
	Width, Height int
	Data          []byte
}

// saveRender records how r's page was read, and the screenshots of the version r made.
// Called by saveResult for every result that carries a Render.
func (s *Store) saveRender(ctx context.Context, tx *Tx, r *Result) error {
	if r.Render == nil || r.Stored || r.State != StateFetched {
		return nil
	}
	st, err := tx.Stmt(ctx, `UPDATE pages SET render = nullif(?1, ''), render_why = nullif(?2, ''),
		render_signal = nullif(?3, ''), render_detail = nullif(?4, '') WHERE id = ?5`)
	if err != nil {
		return err
	}
	rd := r.Render
	if _, err := st.ExecContext(ctx, rd.State, rd.Why, rd.Signal, rd.Detail, r.PageID); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	if r.Unchanged || r.Hash == "" || rd.State != RenderRendered {
		return nil // the version in force keeps its screenshots
	}
	sel, err := tx.Stmt(ctx, `SELECT id FROM versions WHERE page_id = ? AND hash = ? ORDER BY fetched_at DESC, id DESC LIMIT 1`)
	if err != nil {
		return err
	}
	var vid int64
	if err := sel.QueryRowContext(ctx, r.PageID, r.Hash).Scan(&vid); errors.Is(err, sql.ErrNoRows) {
		return nil // none kept (retention: none)
	} else if err != nil {
		return err
	}
	mark, err := tx.Stmt(ctx, `UPDATE versions SET rendered = 1 WHERE id = ?`)
	if err != nil {
		return err
	}
	if _, err := mark.ExecContext(ctx, vid); err != nil {
		return err
	}
	ins, err := tx.Stmt(ctx, `INSERT INTO screenshots(version_id, kind, format, width, height, data) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT(version_id, kind) DO UPDATE SET format = excluded.format, width = excluded.width,
		height = excluded.height, data = excluded.data`)
	if err != nil {
		return err
	}
	for _, sh := range r.Screenshots {
		if len(sh.Data) == 0 {
			continue
		}
		if _, err := ins.ExecContext(ctx, vid, sh.Kind, sh.Format, sh.Width, sh.Height, sh.Data); err != nil {
			return fmt.Errorf("screenshot: %w", err)
		}
	}
	return nil
}

// PageRender returns how a page's HTML was read (the zero Render when it was not HTML or
// was fetched before rendering existed), or ErrNotFound.
func (s *Store) PageRender(ctx context.Context, pageID int64) (Render, error) {
	var n [4]sql.NullString
	err := s.read.QueryRowContext(ctx, `SELECT render, render_why, render_signal, render_detail FROM pages WHERE id = ?`,
		pageID).Scan(&n[0], &n[1], &n[2], &n[3])
	if errors.Is(err, sql.ErrNoRows) {
		return Render{}, fmt.Errorf("page %d: %w", pageID, ErrNotFound)
	}
	if err != nil {
		return Render{}, fmt.Errorf("page %d: %w", pageID, err)
	}
	return Render{State: n[0].String, Why: n[1].String, Signal: n[2].String, Detail: n[3].String}, nil
}

// ShotInfo describes a stored screenshot without its bytes.
type ShotInfo struct {
	VersionID     int64
	Kind, Format  string
	Width, Height int
	Bytes         int64
	FetchedAt     int64 // of its version
}

// PageScreenshots lists the screenshots of a page's newest version that has any, viewport
// first.
func (s *Store) PageScreenshots(ctx context.Context, pageID int64) ([]ShotInfo, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT sc.version_id, sc.kind, sc.format, sc.width, sc.height, length(sc.data), v.fetched_at
		FROM screenshots sc JOIN versions v ON v.id = sc.version_id
		WHERE sc.version_id = (SELECT w.id FROM versions w WHERE w.page_id = ?1 AND w.rendered
			AND EXISTS (SELECT 1 FROM screenshots x WHERE x.version_id = w.id) ORDER BY w.fetched_at DESC, w.id DESC LIMIT 1)
		ORDER BY sc.kind = 'full', sc.kind`, pageID)
	if err != nil {
		return nil, fmt.Errorf("screenshots of page %d: %w", pageID, err)
	}
	defer rows.Close()
	var out []ShotInfo
	for rows.Next() {
		var i ShotInfo
		if err := rows.Scan(&i.VersionID, &i.Kind, &i.Format, &i.Width, &i.Height, &i.Bytes, &i.FetchedAt); err != nil {
			return nil, err
		}
		out = append(out, i)
	}
	return out, rows.Err()
}

// VersionScreenshot returns one screenshot of a version, or ErrNotFound.
func (s *Store) VersionScreenshot(ctx context.Context, versionID int64, kind string) (Screenshot, error) {
	sh := Screenshot{VersionID: versionID, Kind: kind}
	err := s.read.QueryRowContext(ctx, `SELECT format, width, height, data FROM screenshots WHERE version_id = ? AND kind = ?`,
		versionID, kind).Scan(&sh.Format, &sh.Width, &sh.Height, &sh.Data)
	if errors.Is(err, sql.ErrNoRows) {
		return sh, fmt.Errorf("screenshot %s of version %d: %w", kind, versionID, ErrNotFound)
	}
	if err != nil {
		return sh, fmt.Errorf("screenshot of version %d: %w", versionID, err)
	}
	return sh, nil
}

// RenderCounts counts a crawl's pages by how their HTML was read: "rendered", "static",
// and for shells not rendered, "shell-" and why (shell-never, shell-no-browser, ...), as
// search's render facet names them.
func (s *Store) RenderCounts(ctx context.Context, crawlID int64) (map[string]int64, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT render || CASE WHEN render = 'shell' THEN '-' || coalesce(render_why, '') ELSE '' END,
		count(*) FROM pages WHERE crawl_id = ? AND render IS NOT NULL GROUP BY 1`, crawlID)
	if err != nil {
		return nil, fmt.Errorf("render counts of crawl %d: %w", crawlID, err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var k string
		var n int64
		if err := rows.Scan(&k, &n); err != nil {
			return nil, err
		}
		out[k] = n
	}
	return out, rows.Err()
}

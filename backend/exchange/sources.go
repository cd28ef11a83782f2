package exchange

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"mundaneum/backend/store"
)

// Source kinds.
const (
	KindPeer = "peer" // another instance's serve, pulled with a token
	KindFile = "file" // a SOIF file imported
)

// ErrNotFound means no source or token has that id.
var ErrNotFound = errors.New("not found")

// ErrInvalid means an address or a name given is not usable.
var ErrInvalid = errors.New("invalid")

// Source is where summaries come from.
type Source struct {
	ID        int64  `json:"id"`
	Kind      string `json:"kind"`
	URL       string `json:"url"`
	Name      string `json:"name"` // the Gatherer-Name it sent
	CrawlID   int64  `json:"crawlId"`
	Cursor    Cursor `json:"cursor"`
	CreatedAt int64  `json:"createdAt"`
	PulledAt  int64  `json:"pulledAt,omitempty"`
	Summaries int    `json:"summaries"` // pages whose summary is this source's now
	Error     string `json:"error,omitempty"`
	token     string
}

// PeerURL checks and normalises the address of another instance: http or https, a host,
// no user, query or fragment.
func PeerURL(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("%w: %q: only http and https addresses are pulled from", ErrInvalid, raw)
	}
	if u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("%w: %q: give the address serve prints, http://host:port/", ErrInvalid, raw)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.Path = strings.TrimSuffix(u.Path, Path)
	u.RawPath = ""
	return strings.TrimSuffix(u.String(), "/") + "/", nil
}

// AddPeer adds another instance as a source, with the token it issued.
func AddPeer(ctx context.Context, st *store.Store, raw, token string) (Source, error) {
	u, err := PeerURL(raw)
	if err != nil {
		return Source{}, err
	}
	token = strings.TrimSpace(token)
	if token == "" || len(token) > 512 || strings.ContainsAny(token, " \t\r\n") {
		return Source{}, fmt.Errorf("%w: give the token the other instance issued (mundaneum token issue there)", ErrInvalid)
	}
	var exists int
	if err := st.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM sources WHERE kind = ? AND url = ?`, KindPeer, u).Scan(&exists); err != nil {
		return Source{}, err
	}
	if exists > 0 {
		return Source{}, fmt.Errorf("%w: %s is a source already (source remove, then add it again for a new token)", ErrInvalid, u)
	}
	return addSource(ctx, st, KindPeer, u, token)
}

// fileSource returns the source of a SOIF file of this name, made on first use.
func fileSource(ctx context.Context, st *store.Store, name string) (Source, error) {
	var id int64
	err := st.ReadDB().QueryRowContext(ctx, `SELECT id FROM sources WHERE kind = ? AND url = ? ORDER BY id LIMIT 1`, KindFile, name).Scan(&id)
	if err == nil {
		return Get(ctx, st, id)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return Source{}, err
	}
	return addSource(ctx, st, KindFile, name, "")
}

func addSource(ctx context.Context, st *store.Store, kind, u, token string) (Source, error) {
	at := time.Now().UnixMilli()
	err := write(ctx, st, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO sources(kind, url, token, created_at) VALUES (?, ?, nullif(?, ''), ?)`,
			kind, u, token, at)
		return err
	})
	if err != nil {
		return Source{}, err
	}
	var id int64
	if err := st.ReadDB().QueryRowContext(ctx, `SELECT max(id) FROM sources WHERE kind = ? AND url = ? AND created_at = ?`,
		kind, u, at).Scan(&id); err != nil {
		return Source{}, err
	}
	return Get(ctx, st, id)
}

const sourceColumns = `s.id, s.kind, s.url, coalesce(s.token, ''), s.name, coalesce(s.crawl_id, 0), s.cursor,
	coalesce(s.cursor_time, 0), s.created_at, coalesce(s.pulled_at, 0), coalesce(s.error, ''),
	(SELECT count(*) FROM page_sources ps JOIN pages p ON p.id = ps.page_id AND p.hash = ps.hash WHERE ps.source_id = s.id)`

func scanSource(sc interface{ Scan(...any) error }) (Source, error) {
	var s Source
	err := sc.Scan(&s.ID, &s.Kind, &s.URL, &s.token, &s.Name, &s.CrawlID, &s.Cursor.Seq, &s.Cursor.Time, &s.CreatedAt,
		&s.PulledAt, &s.Error, &s.Summaries)
	return s, err
}

// Get returns the source id.
func Get(ctx context.Context, st *store.Store, id int64) (Source, error) {
	s, err := scanSource(st.ReadDB().QueryRowContext(ctx, `SELECT `+sourceColumns+` FROM sources s WHERE s.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return s, fmt.Errorf("source %d: %w", id, ErrNotFound)
	}
	return s, err
}

// List returns the sources, oldest first.
func List(ctx context.Context, st *store.Store) ([]Source, error) {
	rows, err := st.ReadDB().QueryContext(ctx, `SELECT `+sourceColumns+` FROM sources s ORDER BY s.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Source{}
	for rows.Next() {
		s, err := scanSource(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// Remove forgets a source: its pages stay (searchable, no longer marked), and its next
// add pulls everything again.
func Remove(ctx context.Context, st *store.Store, id int64) error {
	if _, err := Get(ctx, st, id); err != nil {
		return err
	}
	return write(ctx, st, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM page_sources WHERE source_id = ?`, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM sources WHERE id = ?`, id)
		return err
	})
}

// ensureCrawl gives a source the import crawl its pages join, on its first pull (the
// crawl is made by the process that owns the workspace: adding a source is a short write).
func ensureCrawl(ctx context.Context, st *store.Store, src *Source) error {
	if src.CrawlID != 0 {
		return nil
	}
	cfg, _ := json.Marshal(map[string]any{"import": map[string]string{"format": "soif", "source": src.URL}})
	c, err := st.CreateCrawl(ctx, fmt.Sprintf("source %d %s %s", src.ID, src.Kind, src.URL), []string{}, store.ScopeImport, cfg)
	if err != nil {
		return err
	}
	if err := write(ctx, st, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE sources SET crawl_id = ? WHERE id = ?`, c.ID, src.ID)
		return err
	}); err != nil {
		return err
	}
	src.CrawlID = c.ID
	return nil
}

// finishPull records a pull's outcome on its source: the new cursor only when it applied.
func finishPull(ctx context.Context, st *store.Store, src Source, rep ImportReport, pullErr error) error {
	ctx = context.WithoutCancel(ctx)
	errText := ""
	if pullErr != nil {
		errText = pullErr.Error()
	}
	return write(ctx, st, func(tx *store.Tx) error {
		if pullErr != nil {
			_, err := tx.ExecContext(ctx, `UPDATE sources SET error = ? WHERE id = ?`, errText, src.ID)
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE sources SET cursor = max(cursor, ?), cursor_time = coalesce(nullif(?, 0), cursor_time),
			pulled_at = ?, name = coalesce(nullif(?, ''), name), error = NULL WHERE id = ?`,
			rep.Cursor.Seq, rep.Cursor.Time, time.Now().UnixMilli(), rep.Gatherer, src.ID)
		return err
	})
}

// ImportFile reads a SOIF stream (plain or gzip; a Mundaneum export or another Gatherer's)
// from a file called name into the workspace, as summaries of the file's source: checked
// whole first, so that a broken file applies nothing.
func ImportFile(ctx context.Context, st *store.Store, name string, r io.Reader, opt ImportOptions) (ImportReport, error) {
	src, err := fileSource(ctx, st, name)
	if err != nil {
		return ImportReport{}, err
	}
	rep, err := run(ctx, st, src, r, opt)
	if ferr := finishPull(ctx, st, src, rep, err); ferr != nil && err == nil {
		err = ferr
	}
	return rep, err
}

// write runs fn as one durable transaction: a short write of its own beside the process
// that owns the workspace (the CLI's token and source commands while serve runs), or
// through the owner's writer, flushed.
func write(ctx context.Context, st *store.Store, fn func(tx *store.Tx) error) error {
	if st.Shared() {
		return st.Update(ctx, fn)
	}
	if err := st.Writer().Do(ctx, fn); err != nil {
		return err
	}
	return st.Writer().Flush(ctx)
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	xrecord "mundaneum/backend/exchange/record"
)

// The workspace's side of the exchange of summaries (backend/exchange, whose records are
// in exchange/record): the summaries imported with the mark of their source, the tokens
// issued to other instances, the sources pulled from, and the summary log streams read.

// ImportSummary saves a summary that came from source sourceID (a peer or a SOIF file) as
// one atomic change, with the mark of where it came from. A page that already has this
// content (the same hash) is left as it is: from the same source it is a repeat, and one
// crawled here keeps its own copy, which is the better one. Kept reports that; Older, that
// the page holds a copy fetched after the summary's time (also left as it is).
func (s *Store) ImportSummary(ctx context.Context, r *Result, t Target, sourceID int64) (ImportOutcome, error) {
	out, err := Get(ctx, s.writer, func(tx *Tx) (ImportOutcome, error) {
		older := false
		out, err := s.importResult(ctx, tx, r, t, false, func(id int64) (bool, error) {
			st, err := tx.Stmt(ctx, `SELECT coalesce(hash, ''), coalesce(fetched_at, 0) FROM pages WHERE id = ?`)
			if err != nil {
				return false, err
			}
			var hash string
			var at int64
			if err := st.QueryRowContext(ctx, id).Scan(&hash, &at); err != nil {
				return false, err
			}
			older = hash != "" && hash != r.Hash && at > r.at()
			return hash != "" && (hash == r.Hash || older), nil
		})
		out.Older = older
		if err != nil || out.Kept {
			return out, err
		}
		st, err := tx.Stmt(ctx, `INSERT INTO page_sources(page_id, source_id, hash) VALUES (?, ?, ?)
			ON CONFLICT(page_id) DO UPDATE SET source_id = excluded.source_id, hash = excluded.hash`)
		if err != nil {
			return out, err
		}
		_, err = st.ExecContext(ctx, out.PageID, sourceID, r.Hash)
		return out, err
	})
	if err != nil {
		return out, fmt.Errorf("import %s: %w", r.URL, err)
	}
	return out, nil
}

// LastSummarySeq is the newest seq of the summary log (0 when empty): where a stream of
// every summary so far ends.
func (s *Store) LastSummarySeq(ctx context.Context) (int64, error) {
	var seq sql.NullInt64
	err := s.read.QueryRowContext(ctx, `SELECT max(seq) FROM summary_log`).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return seq.Int64, err
}

// The tokens this workspace issued to other instances (exchange_tokens, migration 0024).

// exchangeWrite runs fn as one durable transaction: through the owner's writer, flushed,
// or as a short write of its own beside the owner (the CLI's token and source commands
// while serve runs).
func (s *Store) exchangeWrite(ctx context.Context, what string, fn func(tx *Tx) error) error {
	if err := s.Update(ctx, fn); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// exchangeNotFound is exchange's record.ErrNotFound that is also the store's ErrNotFound.
var exchangeNotFound error = notFoundAs{xrecord.ErrNotFound}

// AddExchangeToken keeps a token issued (its name, the SHA-256 of its secret, when) and
// returns its id.
func (s *Store) AddExchangeToken(ctx context.Context, t xrecord.Token) (int64, error) {
	var id int64
	err := s.exchangeWrite(ctx, "issue a token", func(tx *Tx) error {
		return tx.QueryRowContext(ctx, `INSERT INTO exchange_tokens(name, hash, created_at) VALUES (?, ?, ?) RETURNING id`,
			t.Name, t.Hash, t.CreatedAt).Scan(&id)
	})
	return id, err
}

// ExchangeTokens lists the tokens issued, oldest first.
func (s *Store) ExchangeTokens(ctx context.Context) ([]xrecord.Token, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, name, hash, created_at, coalesce(revoked_at, 0), coalesce(used_at, 0), uses
		FROM exchange_tokens ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("tokens: %w", err)
	}
	defer rows.Close()
	out := []xrecord.Token{}
	for rows.Next() {
		var t xrecord.Token
		if err := rows.Scan(&t.ID, &t.Name, &t.Hash, &t.CreatedAt, &t.RevokedAt, &t.UsedAt, &t.Uses); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// RevokeExchangeToken ends token id at (unix ms; a token revoked before keeps its time), or
// says it is not found.
func (s *Store) RevokeExchangeToken(ctx context.Context, id, at int64) error {
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM exchange_tokens WHERE id = ?`, id).Scan(&n); err != nil {
		return fmt.Errorf("token %d: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("token %d: %w", id, exchangeNotFound)
	}
	return s.exchangeWrite(ctx, "revoke a token", func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE exchange_tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?`, at, id)
		return err
	})
}

// UseExchangeToken finds the live (not revoked) token whose secret has this SHA-256 and
// counts a use of it at (unix ms), or says it is not found. The count goes into the
// writer's next batch: a pull does not wait for it.
func (s *Store) UseExchangeToken(ctx context.Context, hash string, at int64) (int64, error) {
	var id int64
	err := s.read.QueryRowContext(ctx, `SELECT id FROM exchange_tokens WHERE hash = ? AND revoked_at IS NULL`, hash).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("token: %w", exchangeNotFound)
	}
	if err != nil {
		return 0, fmt.Errorf("token: %w", err)
	}
	if err := s.writable("count a token's use"); err != nil {
		return id, err
	}
	err = s.writer.Do(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE exchange_tokens SET used_at = ?, uses = uses + 1 WHERE id = ?`, at, id)
		return err
	})
	return id, err
}

// The sources summaries came from (sources and page_sources, migration 0024).

const sourceColumns = `s.id, s.kind, s.url, coalesce(s.token, ''), s.name, coalesce(s.crawl_id, 0), s.cursor,
	coalesce(s.cursor_time, 0), s.created_at, coalesce(s.pulled_at, 0), coalesce(s.error, ''),
	(SELECT count(*) FROM page_sources ps JOIN pages p ON p.id = ps.page_id AND p.hash = ps.hash WHERE ps.source_id = s.id)`

func scanSource(sc interface{ Scan(...any) error }) (xrecord.Source, error) {
	var s xrecord.Source
	err := sc.Scan(&s.ID, &s.Kind, &s.URL, &s.Token, &s.Name, &s.CrawlID, &s.Cursor, &s.CursorTime, &s.CreatedAt,
		&s.PulledAt, &s.Error, &s.Summaries)
	return s, err
}

// AddExchangeSource keeps a new source (its kind, address, token and creation time) and
// returns its id.
func (s *Store) AddExchangeSource(ctx context.Context, src xrecord.Source) (int64, error) {
	var id int64
	err := s.exchangeWrite(ctx, "add a source", func(tx *Tx) error {
		return tx.QueryRowContext(ctx, `INSERT INTO sources(kind, url, token, created_at) VALUES (?, ?, nullif(?, ''), ?)
			RETURNING id`, src.Kind, src.URL, src.Token, src.CreatedAt).Scan(&id)
	})
	return id, err
}

// ExchangeSource returns source id, or says it is not found.
func (s *Store) ExchangeSource(ctx context.Context, id int64) (xrecord.Source, error) {
	src, err := scanSource(s.read.QueryRowContext(ctx, `SELECT `+sourceColumns+` FROM sources s WHERE s.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return src, fmt.Errorf("source %d: %w", id, exchangeNotFound)
	}
	return src, err
}

// ExchangeSourceAt returns the first source of this kind and address, or says there is none.
func (s *Store) ExchangeSourceAt(ctx context.Context, kind, url string) (xrecord.Source, error) {
	src, err := scanSource(s.read.QueryRowContext(ctx, `SELECT `+sourceColumns+` FROM sources s
		WHERE s.kind = ? AND s.url = ? ORDER BY s.id LIMIT 1`, kind, url))
	if errors.Is(err, sql.ErrNoRows) {
		return src, fmt.Errorf("source %s: %w", url, exchangeNotFound)
	}
	return src, err
}

// ExchangeSources lists the sources, oldest first.
func (s *Store) ExchangeSources(ctx context.Context) ([]xrecord.Source, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+sourceColumns+` FROM sources s ORDER BY s.id`)
	if err != nil {
		return nil, fmt.Errorf("sources: %w", err)
	}
	defer rows.Close()
	out := []xrecord.Source{}
	for rows.Next() {
		src, err := scanSource(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, src)
	}
	return out, rows.Err()
}

// RemoveExchangeSource forgets source id and the marks it left on pages (the pages stay).
func (s *Store) RemoveExchangeSource(ctx context.Context, id int64) error {
	return s.exchangeWrite(ctx, "remove a source", func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM page_sources WHERE source_id = ?`, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM sources WHERE id = ?`, id)
		return err
	})
}

// SetExchangeSourceCrawl gives source id the import crawl its pages join.
func (s *Store) SetExchangeSourceCrawl(ctx context.Context, id, crawlID int64) error {
	return s.exchangeWrite(ctx, "a source's crawl", func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE sources SET crawl_id = ? WHERE id = ?`, crawlID, id)
		return err
	})
}

// ExchangeSourcePulled records a pull of source id that applied: its cursor moves forward
// (never back), and its error clears.
func (s *Store) ExchangeSourcePulled(ctx context.Context, id int64, p xrecord.Pulled) error {
	return s.exchangeWrite(ctx, "a source's pull", func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE sources SET cursor = max(cursor, ?), cursor_time = coalesce(nullif(?, 0), cursor_time),
			pulled_at = ?, name = coalesce(nullif(?, ''), name), error = NULL WHERE id = ?`,
			p.Cursor, p.CursorTime, p.At, p.Gatherer, id)
		return err
	})
}

// ExchangeSourceFailed records why a pull of source id failed; its cursor stays.
func (s *Store) ExchangeSourceFailed(ctx context.Context, id int64, errText string) error {
	return s.exchangeWrite(ctx, "a source's pull", func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE sources SET error = ? WHERE id = ?`, errText, id)
		return err
	})
}

// The summaries a stream sends: the summary log (migration 0024) joined to the pages.

// CountExchangeSummaries counts the entries of the summary log after seq after, up to upTo.
func (s *Store) CountExchangeSummaries(ctx context.Context, after, upTo int64) (int64, error) {
	var n int64
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM summary_log WHERE seq > ? AND seq <= ?`, after, upTo).Scan(&n); err != nil {
		return 0, fmt.Errorf("summaries: %w", err)
	}
	return n, nil
}

// exchangeLinkKinds are the references a summary carries: links a reader follows, not
// embedded resources.
const exchangeLinkKinds = `('a', 'area', 'frame', 'iframe')`

// ExchangeSummaries reads up to sel.Limit summaries after sel.After, in log order: the
// pages fetched, indexable and with content, with their text, attributes and links.
func (s *Store) ExchangeSummaries(ctx context.Context, sel xrecord.Selection) ([]xrecord.Summary, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT l.seq, p.id, p.url,
		coalesce(p.content_type, ''), coalesce(p.title, ''), coalesce(p.description, ''), coalesce(p.keywords, ''),
		coalesce(p.author, ''), coalesce(p.lang, ''), coalesce(p.size, 0), p.hash, coalesce(p.last_modified, ''),
		coalesce(p.changed_at, p.fetched_at, 0)
		FROM summary_log l JOIN pages p ON p.id = l.page_id
		WHERE l.seq > ?1 AND l.seq <= ?2 AND p.state = 'fetched' AND p.hash IS NOT NULL AND p.noindex = 0
		AND (?3 = 0 OR coalesce(p.changed_at, p.fetched_at, 0) >= ?3)
		AND (?4 = 0 OR p.crawl_id = ?4 OR p.id IN (SELECT page_id FROM frontier WHERE crawl_id = ?4))
		ORDER BY l.seq LIMIT ?5`, sel.After, sel.UpTo, sel.Since, sel.Crawl, sel.Limit)
	if err != nil {
		return nil, fmt.Errorf("summaries: %w", err)
	}
	var out []xrecord.Summary
	for rows.Next() {
		var m xrecord.Summary
		if err := rows.Scan(&m.Seq, &m.PageID, &m.URL, &m.ContentType, &m.Title, &m.Description, &m.Keywords,
			&m.Author, &m.Lang, &m.Size, &m.Hash, &m.LastModified, &m.UpdatedAt); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if err := s.fillSummary(ctx, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// fillSummary reads a summary's text, attributes and links.
func (s *Store) fillSummary(ctx context.Context, m *xrecord.Summary) error {
	t, err := s.Text(ctx, m.PageID)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	m.TextTitle, m.Headings, m.Text = t.Title, t.Headings, t.Body
	sum, attrs, err := s.PageAttrs(ctx, m.PageID)
	if err != nil {
		return fmt.Errorf("attributes of %s: %w", m.URL, err)
	}
	m.Summariser = sum
	for _, a := range attrs {
		m.Attrs = append(m.Attrs, xrecord.Attr{Name: a.Name, Value: a.Value})
	}
	rows, err := s.read.QueryContext(ctx, `SELECT t.url, l.anchor FROM links l JOIN pages t ON t.id = l.to_id
		WHERE l.from_id = ? AND l.kind IN `+exchangeLinkKinds+` ORDER BY l.pos, l.to_id`, m.PageID)
	if err != nil {
		return fmt.Errorf("links of %s: %w", m.URL, err)
	}
	defer rows.Close()
	for rows.Next() {
		var l xrecord.Link
		if err := rows.Scan(&l.URL, &l.Anchor); err != nil {
			return err
		}
		m.Links = append(m.Links, l)
	}
	return rows.Err()
}

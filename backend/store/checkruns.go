package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"mundaneum/backend/check/record"
)

// Link checking (backend/check, records in check/record): runs, each test of a URL, and a
// URL's health across tests.

// StartCheckRun records a run that starts now.
func (s *Store) StartCheckRun(ctx context.Context, tasks []string) (record.Run, error) {
	if err := s.writable("start check run"); err != nil {
		return record.Run{}, err
	}
	if tasks == nil {
		tasks = []string{}
	}
	js, _ := json.Marshal(tasks)
	now := nowMs()
	id, err := Get(ctx, s.writer, func(tx *Tx) (int64, error) {
		var id int64
		err := tx.QueryRowContext(ctx, `INSERT INTO check_runs(started_at, state, tasks) VALUES (?, ?, ?) RETURNING id`,
			now, record.RunRunning, string(js)).Scan(&id)
		return id, err
	})
	if err != nil {
		return record.Run{}, fmt.Errorf("start check run: %w", err)
	}
	if err := s.writer.Flush(ctx); err != nil {
		return record.Run{}, err
	}
	return record.Run{ID: id, StartedAt: now, State: record.RunRunning, Tasks: tasks}, nil
}

// FinishCheckRun records a run's end and commits everything before it.
func (s *Store) FinishCheckRun(ctx context.Context, r record.Run) error {
	if err := s.writable("finish check run"); err != nil {
		return err
	}
	err := s.writer.Do(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE check_runs SET finished_at = ?, state = ?, tested = ?, requests = ?,
			error = nullif(?, '') WHERE id = ?`, nowMs(), r.State, r.Tested, r.Requests, r.Error, r.ID)
		return err
	})
	if err != nil {
		return fmt.Errorf("finish check run %d: %w", r.ID, err)
	}
	return s.writer.Flush(ctx)
}

const runColumns = `id, started_at, coalesce(finished_at, 0), state, tasks, tested, requests, coalesce(error, '')`

func scanRun(row interface{ Scan(...any) error }) (record.Run, error) {
	var r record.Run
	var tasks string
	if err := row.Scan(&r.ID, &r.StartedAt, &r.FinishedAt, &r.State, &tasks, &r.Tested, &r.Requests, &r.Error); err != nil {
		return r, err
	}
	_ = json.Unmarshal([]byte(tasks), &r.Tasks)
	return r, nil
}

// CheckRuns lists the latest runs, newest first.
func (s *Store) CheckRuns(ctx context.Context, limit int) ([]record.Run, error) {
	out, err := collect(ctx, s.read, scanRun, `SELECT `+runColumns+` FROM check_runs ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("list check runs: %w", err)
	}
	return out, nil
}

// CheckRunByID returns a run, or ErrNotFound.
func (s *Store) CheckRunByID(ctx context.Context, id int64) (record.Run, error) {
	r, err := scanRun(s.read.QueryRowContext(ctx, `SELECT `+runColumns+` FROM check_runs WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("check run %d: %w", id, ErrNotFound)
	}
	return r, err
}

const healthColumns = `coalesce(verdict, ''), coalesce(status, 0), coalesce(final_url, ''), coalesce(reason, ''),
	coalesce(checked_at, 0), coalesce(failing_since, 0), failures, coalesce(dead_at, 0), coalesce(hash, ''),
	coalesce(etag, ''), coalesce(last_modified, ''), coalesce(changed_at, 0)`

// healthDest is where a row read with healthColumns goes.
func healthDest(h *record.Health) []any {
	return []any{&h.Verdict, &h.Status, &h.FinalURL, &h.Reason, &h.CheckedAt, &h.FailingSince,
		&h.Failures, &h.DeadAt, &h.Hash, &h.ETag, &h.LastModified, &h.ChangedAt}
}

// SaveChecks records the checks of a run and updates each URL's health with next. The
// records are queued in the writer's current batch (call Flush, or FinishCheckRun, to make
// them durable).
func (s *Store) SaveChecks(ctx context.Context, runID int64, recs []record.Test, next record.NextHealth) ([]record.Saved, error) {
	if err := s.writable("save checks"); err != nil {
		return nil, err
	}
	out, err := Get(ctx, s.writer, func(tx *Tx) ([]record.Saved, error) {
		urls := make([]string, len(recs))
		for i := range recs {
			urls[i] = recs[i].URL
		}
		prev, err := healthOf(ctx, tx, urls)
		if err != nil {
			return nil, err
		}
		// One statement per URL whether it is new or known: its health, returning its id.
		put, err := tx.Stmt(ctx, `INSERT INTO check_urls(url, verdict, status, final_url, reason, checked_at, failing_since,
			failures, dead_at, hash, etag, last_modified, changed_at, permanent)
			VALUES (?, ?, nullif(?, 0), nullif(?, ''), nullif(?, ''), ?, nullif(?, 0), ?, nullif(?, 0), nullif(?, ''),
			nullif(?, ''), nullif(?, ''), nullif(?, 0), ?)
			ON CONFLICT(url) DO UPDATE SET verdict = excluded.verdict, status = excluded.status,
			permanent = excluded.permanent,
			final_url = excluded.final_url, reason = excluded.reason, checked_at = excluded.checked_at,
			failing_since = excluded.failing_since, failures = excluded.failures, dead_at = excluded.dead_at,
			hash = excluded.hash, etag = excluded.etag, last_modified = excluded.last_modified,
			changed_at = excluded.changed_at
			RETURNING id`)
		if err != nil {
			return nil, err
		}
		add, err := tx.Stmt(ctx, `INSERT OR REPLACE INTO checks(run_id, url_id, at, verdict, status, final_url, permanent,
			chain, reason, code, method, content_type, size, ms, title, last_modified, expires, owner, document)
			VALUES (?, ?, ?, ?, nullif(?, 0), nullif(?, ''), ?, nullif(?, ''), nullif(?, ''), nullif(?, ''), nullif(?, ''),
			nullif(?, ''), nullif(?, -1), ?, nullif(?, ''), nullif(?, ''), nullif(?, ''), nullif(?, ''), ?)`)
		if err != nil {
			return nil, err
		}
		res := make([]record.Saved, len(recs))
		for i := range recs {
			r := &recs[i]
			sc := &res[i]
			sc.Prev = prev[r.URL]
			h := next(sc.Prev, r)
			sc.Next = h
			if err := put.QueryRowContext(ctx, r.URL, h.Verdict, h.Status, h.FinalURL, h.Reason, h.CheckedAt, h.FailingSince,
				h.Failures, h.DeadAt, h.Hash, h.ETag, h.LastModified, h.ChangedAt, r.Permanent).Scan(&sc.ID); err != nil {
				return nil, fmt.Errorf("save %s: %w", r.URL, err)
			}
			if _, err := add.ExecContext(ctx, runID, sc.ID, r.At, r.Verdict, r.Status, r.FinalURL, r.Permanent, r.Chain,
				r.Reason, r.Code, r.Method, r.ContentType, r.Size, r.Ms, r.Title, r.LastModified, r.Expires, r.Owner,
				r.Document); err != nil {
				return nil, fmt.Errorf("record check of %s: %w", r.URL, err)
			}
		}
		return res, nil
	})
	if err != nil {
		return nil, fmt.Errorf("save checks: %w", err)
	}
	return out, nil
}

// healthOf reads the health of those of urls that are in check_urls, a few hundred URLs to
// a statement.
func healthOf(ctx context.Context, q interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}, urls []string) (map[string]record.Health, error) {
	out := make(map[string]record.Health, len(urls))
	for len(urls) > 0 {
		n := min(len(urls), 500)
		args := make([]any, n)
		for i, u := range urls[:n] {
			args[i] = u
		}
		urls = urls[n:]
		rows, err := q.QueryContext(ctx, `SELECT url, `+healthColumns+` FROM check_urls
			WHERE url IN (?`+strings.Repeat(", ?", n-1)+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var u string
			var h record.Health
			if err := rows.Scan(append([]any{&u}, healthDest(&h)...)...); err != nil {
				rows.Close()
				return nil, err
			}
			out[u] = h
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// URLIDs returns the ids of urls in check_urls, adding the missing ones (as never tested).
func (s *Store) URLIDs(ctx context.Context, urls []string) ([]int64, error) {
	if err := s.writable("url ids"); err != nil {
		return nil, err
	}
	return Get(ctx, s.writer, func(tx *Tx) ([]int64, error) {
		st, err := tx.Stmt(ctx, `INSERT INTO check_urls(url, failures) VALUES (?, 0)
			ON CONFLICT(url) DO UPDATE SET url = excluded.url RETURNING id`)
		if err != nil {
			return nil, err
		}
		ids := make([]int64, len(urls))
		for i, u := range urls {
			if err := st.QueryRowContext(ctx, u).Scan(&ids[i]); err != nil {
				return nil, fmt.Errorf("url id of %s: %w", u, err)
			}
		}
		return ids, nil
	})
}

// LinkHealth returns the health of each of urls that was ever tested, by URL.
func (s *Store) LinkHealth(ctx context.Context, urls []string) (map[string]record.Health, error) {
	all, err := healthOf(ctx, s.read, urls)
	if err != nil {
		return nil, fmt.Errorf("read health: %w", err)
	}
	for u, h := range all {
		if h.Verdict == "" {
			delete(all, u) // referenced by a report, never tested
		}
	}
	return all, nil
}

const checkColumns = `c.run_id, c.url_id, u.url, c.at, c.verdict, coalesce(c.status, 0), coalesce(c.final_url, ''),
	c.permanent, coalesce(c.chain, ''), coalesce(c.reason, ''), coalesce(c.code, ''), coalesce(c.method, ''),
	coalesce(c.content_type, ''), coalesce(c.size, -1), c.ms, coalesce(c.title, ''), coalesce(c.last_modified, ''),
	coalesce(c.expires, ''), coalesce(c.owner, ''), c.document`

func scanCheck(row interface{ Scan(...any) error }) (record.Row, error) {
	var c record.Row
	err := row.Scan(&c.RunID, &c.URLID, &c.URL, &c.At, &c.Verdict, &c.Status, &c.FinalURL, &c.Permanent, &c.Chain,
		&c.Reason, &c.Code, &c.Method, &c.ContentType, &c.Size, &c.Ms, &c.Title, &c.LastModified, &c.Expires,
		&c.Owner, &c.Document)
	return c, err
}

// CheckHistory returns the latest checks of a URL, newest first.
func (s *Store) CheckHistory(ctx context.Context, url string, limit int) ([]record.Row, error) {
	out, err := collect(ctx, s.read, scanCheck, `SELECT `+checkColumns+` FROM checks c JOIN check_urls u ON u.id = c.url_id
		WHERE u.url = ? ORDER BY c.at DESC LIMIT ?`, url, limit)
	if err != nil {
		return nil, fmt.Errorf("check history: %w", err)
	}
	return out, nil
}

// RunChecks calls fn with every check of a run, in URL id order.
func (s *Store) RunChecks(ctx context.Context, runID int64, fn func(record.Row) error) error {
	rows, err := s.read.QueryContext(ctx, `SELECT `+checkColumns+` FROM checks c JOIN check_urls u ON u.id = c.url_id
		WHERE c.run_id = ? ORDER BY c.url_id`, runID)
	if err != nil {
		return fmt.Errorf("read checks of run %d: %w", runID, err)
	}
	defer rows.Close()
	for rows.Next() {
		c, err := scanCheck(rows)
		if err != nil {
			return err
		}
		if err := fn(c); err != nil {
			return err
		}
	}
	return rows.Err()
}

// URLsByID returns the URLs of check_urls ids.
func (s *Store) URLsByID(ctx context.Context, ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	for len(ids) > 0 {
		n := min(len(ids), 500)
		args := make([]any, n)
		for i, id := range ids[:n] {
			args[i] = id
		}
		ids = ids[n:]
		rows, err := s.read.QueryContext(ctx, `SELECT id, url FROM check_urls WHERE id IN (?`+strings.Repeat(", ?", n-1)+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			var u string
			if err := rows.Scan(&id, &u); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = u
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Check run states.
const (
	RunRunning     = "running"
	RunDone        = "done"
	RunCancelled   = "cancelled"
	RunFailed      = "failed"
	RunInterrupted = "interrupted" // the process died while it ran
)

// CheckRun is one run of link checks: some tasks, or a list of URLs.
type CheckRun struct {
	ID         int64
	StartedAt  int64 // unix ms
	FinishedAt int64 // 0 while running
	State      string
	Tasks      []string // task names; empty for a check of given URLs
	Tested     int64
	Requests   int64
	Error      string
}

// CheckRecord is one test of one URL in a run.
type CheckRecord struct {
	URL          string
	At           int64 // unix ms
	Verdict      string
	Status       int
	FinalURL     string
	Permanent    bool
	Chain        string // JSON [[status, url], ...]
	Reason       string
	Code         string
	Method       string
	ContentType  string
	Size         int64 // -1 unknown
	Ms           int64
	Title        string
	LastModified string
	Expires      string
	Owner        string
	ETag         string // not kept per check; it updates the URL's health
	Hash         string // of the body, for documents; it updates the URL's health
	Document     bool
}

// URLHealth is what the workspace remembers of a URL across its checks.
type URLHealth struct {
	Verdict      string // of the latest check, "" if never tested
	Status       int
	FinalURL     string
	Reason       string
	CheckedAt    int64
	FailingSince int64 // first failing check of the current streak, 0 if not failing
	Failures     int   // failing checks in the current streak
	DeadAt       int64 // when the streak made the link dead, 0 if alive
	Hash         string
	ETag         string
	LastModified string
	ChangedAt    int64
}

// NextHealth computes a URL's health after a check from the health before it. It runs
// inside the writer's transaction and may run again if the batch is replayed: it must
// only compute.
type NextHealth func(prev URLHealth, rec *CheckRecord) URLHealth

// SavedCheck is what SaveChecks returns for each record: the URL's id and its health
// before and after.
type SavedCheck struct {
	ID         int64
	Prev, Next URLHealth
}

// StartCheckRun records a run that starts now.
func (s *Store) StartCheckRun(ctx context.Context, tasks []string) (CheckRun, error) {
	if err := s.writable("start check run"); err != nil {
		return CheckRun{}, err
	}
	if tasks == nil {
		tasks = []string{}
	}
	js, _ := json.Marshal(tasks)
	now := nowMs()
	id, err := Get(ctx, s.writer, func(tx *Tx) (int64, error) {
		var id int64
		err := tx.QueryRowContext(ctx, `INSERT INTO check_runs(started_at, state, tasks) VALUES (?, ?, ?) RETURNING id`,
			now, RunRunning, string(js)).Scan(&id)
		return id, err
	})
	if err != nil {
		return CheckRun{}, fmt.Errorf("start check run: %w", err)
	}
	if err := s.writer.Flush(ctx); err != nil {
		return CheckRun{}, err
	}
	return CheckRun{ID: id, StartedAt: now, State: RunRunning, Tasks: tasks}, nil
}

// FinishCheckRun records a run's end and commits everything before it.
func (s *Store) FinishCheckRun(ctx context.Context, r CheckRun) error {
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

func scanRun(row interface{ Scan(...any) error }) (CheckRun, error) {
	var r CheckRun
	var tasks string
	if err := row.Scan(&r.ID, &r.StartedAt, &r.FinishedAt, &r.State, &tasks, &r.Tested, &r.Requests, &r.Error); err != nil {
		return r, err
	}
	_ = json.Unmarshal([]byte(tasks), &r.Tasks)
	return r, nil
}

// CheckRuns lists the latest runs, newest first.
func (s *Store) CheckRuns(ctx context.Context, limit int) ([]CheckRun, error) {
	out, err := collect(ctx, s.read, scanRun, `SELECT `+runColumns+` FROM check_runs ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("list check runs: %w", err)
	}
	return out, nil
}

// CheckRunByID returns a run, or ErrNotFound.
func (s *Store) CheckRunByID(ctx context.Context, id int64) (CheckRun, error) {
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
func healthDest(h *URLHealth) []any {
	return []any{&h.Verdict, &h.Status, &h.FinalURL, &h.Reason, &h.CheckedAt, &h.FailingSince,
		&h.Failures, &h.DeadAt, &h.Hash, &h.ETag, &h.LastModified, &h.ChangedAt}
}

// SaveChecks records the checks of a run and updates each URL's health with next. The
// records are queued in the writer's current batch (call Flush, or FinishCheckRun, to make
// them durable).
func (s *Store) SaveChecks(ctx context.Context, runID int64, recs []CheckRecord, next NextHealth) ([]SavedCheck, error) {
	if err := s.writable("save checks"); err != nil {
		return nil, err
	}
	out, err := Get(ctx, s.writer, func(tx *Tx) ([]SavedCheck, error) {
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
		res := make([]SavedCheck, len(recs))
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
}, urls []string) (map[string]URLHealth, error) {
	out := make(map[string]URLHealth, len(urls))
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
			var h URLHealth
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

// Health returns the health of each of urls that was ever tested, by URL.
func (s *Store) Health(ctx context.Context, urls []string) (map[string]URLHealth, error) {
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

// CheckRow is a stored check with its URL.
type CheckRow struct {
	URLID int64
	RunID int64
	CheckRecord
}

const checkColumns = `c.run_id, c.url_id, u.url, c.at, c.verdict, coalesce(c.status, 0), coalesce(c.final_url, ''),
	c.permanent, coalesce(c.chain, ''), coalesce(c.reason, ''), coalesce(c.code, ''), coalesce(c.method, ''),
	coalesce(c.content_type, ''), coalesce(c.size, -1), c.ms, coalesce(c.title, ''), coalesce(c.last_modified, ''),
	coalesce(c.expires, ''), coalesce(c.owner, ''), c.document`

func scanCheck(row interface{ Scan(...any) error }) (CheckRow, error) {
	var c CheckRow
	err := row.Scan(&c.RunID, &c.URLID, &c.URL, &c.At, &c.Verdict, &c.Status, &c.FinalURL, &c.Permanent, &c.Chain,
		&c.Reason, &c.Code, &c.Method, &c.ContentType, &c.Size, &c.Ms, &c.Title, &c.LastModified, &c.Expires,
		&c.Owner, &c.Document)
	return c, err
}

// History returns the latest checks of a URL, newest first.
func (s *Store) History(ctx context.Context, url string, limit int) ([]CheckRow, error) {
	out, err := collect(ctx, s.read, scanCheck, `SELECT `+checkColumns+` FROM checks c JOIN check_urls u ON u.id = c.url_id
		WHERE u.url = ? ORDER BY c.at DESC LIMIT ?`, url, limit)
	if err != nil {
		return nil, fmt.Errorf("check history: %w", err)
	}
	return out, nil
}

// RunChecks calls fn with every check of a run, in URL id order.
func (s *Store) RunChecks(ctx context.Context, runID int64, fn func(CheckRow) error) error {
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

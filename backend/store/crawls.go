package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"mundaneum/backend/check/record"
)

// Crawls: their records, runs and states, and what a crawl's queue and skips add up to.

// Crawl states.
const (
	CrawlRunning   = "running"
	CrawlPaused    = "paused"
	CrawlDone      = "done"
	CrawlCancelled = "cancelled"
	CrawlFailed    = "failed"
)

// Crawl is a crawl job as stored.
type Crawl struct {
	ID         int64
	Key        string
	Seeds      []string
	Scope      string
	Config     json.RawMessage
	State      string
	Runs       int
	CreatedAt  int64
	StartedAt  int64
	FinishedAt int64
	Fetched    int64
	Failed     int64
	Skipped    int64
	Bytes      int64
	Queued     int64 // frontier rows still to visit in the current run
	Error      string
	Note       string // what the last run should say: a cap that cut it short, ...
	// Pages are the crawl's pages by state (CrawlCounts): the one count of a crawl's pages.
	Pages map[string]int64
}

const crawlCols = `c.id, c.key, c.seeds, c.scope, c.config, c.state, c.runs, c.created_at,
	coalesce(c.started_at,0), coalesce(c.finished_at,0), c.fetched, c.failed, c.skipped, c.bytes,
	(SELECT count(*) FROM frontier f WHERE f.crawl_id = c.id AND f.state < 2), coalesce(c.error,''),
	coalesce(c.note,'')`

func scanCrawl(row interface{ Scan(...any) error }) (Crawl, error) {
	var c Crawl
	var seeds, config string
	err := row.Scan(&c.ID, &c.Key, &seeds, &c.Scope, &config, &c.State, &c.Runs, &c.CreatedAt,
		&c.StartedAt, &c.FinishedAt, &c.Fetched, &c.Failed, &c.Skipped, &c.Bytes, &c.Queued, &c.Error, &c.Note)
	if errors.Is(err, sql.ErrNoRows) {
		return c, ErrNotFound
	}
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal([]byte(seeds), &c.Seeds); err != nil {
		return c, fmt.Errorf("crawl %d seeds: %w", c.ID, err)
	}
	c.Config = json.RawMessage(config)
	return c, nil
}

// CreateCrawl records a new crawl job (state paused until StartRun).
func (s *Store) CreateCrawl(ctx context.Context, key string, seeds []string, scope string, config json.RawMessage) (Crawl, error) {
	js, err := json.Marshal(seeds)
	if err != nil {
		return Crawl{}, err
	}
	id, err := Get(ctx, s.writer, func(tx *Tx) (int64, error) {
		res, err := tx.ExecContext(ctx, `INSERT INTO crawls(key, seeds, scope, config, state, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`, key, string(js), scope, string(config), CrawlPaused, nowMs())
		if err != nil {
			return 0, err
		}
		return res.LastInsertId()
	})
	if err != nil {
		return Crawl{}, fmt.Errorf("create crawl: %w", err)
	}
	if err := s.writer.Flush(ctx); err != nil {
		return Crawl{}, err
	}
	return s.Crawl(ctx, id)
}

// Crawl returns one crawl.
func (s *Store) Crawl(ctx context.Context, id int64) (Crawl, error) {
	c, err := scanCrawl(s.read.QueryRowContext(ctx, `SELECT `+crawlCols+` FROM crawls c WHERE c.id = ?`, id))
	return s.withCounts(ctx, c, err)
}

// FindCrawl returns the newest crawl with the given key, or ErrNotFound.
func (s *Store) FindCrawl(ctx context.Context, key string) (Crawl, error) {
	c, err := scanCrawl(s.read.QueryRowContext(ctx, `SELECT `+crawlCols+` FROM crawls c WHERE c.key = ? ORDER BY c.id DESC LIMIT 1`, key))
	return s.withCounts(ctx, c, err)
}

func (s *Store) withCounts(ctx context.Context, c Crawl, err error) (Crawl, error) {
	if err != nil {
		return c, err
	}
	c.Pages, err = s.CrawlCounts(ctx, c.ID)
	return c, err
}

// pageStates are the states every count lists, with 0 when no page has them.
var pageStates = []string{StateQueued, StateFetched, StateRedirected, StateFailed, StateSkipped}

// CrawlCounts returns a crawl's pages by state: the pages it visited last or found (and
// no crawl has visited since). Triggers keep the numbers (migration 0015), so this is a
// read of a few rows, and it is the definition of a crawl's counts everywhere: its card,
// status, its page list, the crawl: search filter. The counts of all crawls add up to
// the workspace's (Counts). The links recorded, not pages, are apart (Recorded, counts.go).
func (s *Store) CrawlCounts(ctx context.Context, id int64) (map[string]int64, error) {
	out := make(map[string]int64, len(pageStates))
	for _, st := range pageStates {
		out[st] = 0
	}
	rows, err := s.read.QueryContext(ctx, `SELECT state, n FROM crawl_counts WHERE crawl_id = ?`, id)
	if err != nil {
		return nil, fmt.Errorf("counts of crawl %d: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var st string
		var n int64
		if err := rows.Scan(&st, &n); err != nil {
			return nil, err
		}
		if n != 0 || out[st] == 0 {
			out[st] = n
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	return out, s.splitRecorded(ctx, id, out)
}

// Crawls lists every crawl, newest first.
func (s *Store) Crawls(ctx context.Context) ([]Crawl, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+crawlCols+` FROM crawls c ORDER BY c.id DESC`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Crawl
	for rows.Next() {
		c, err := scanCrawl(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	for i := range out {
		if out[i].Pages, err = s.CrawlCounts(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// StartRun marks a crawl running. A fresh run (a refresh of a finished crawl) forgets the
// previous run's queue and counters; a resumed run keeps them. Either way, pages leased by a
// process that died are put back in the queue.
func (s *Store) StartRun(ctx context.Context, id int64, config json.RawMessage, fresh bool) error {
	err := s.writer.Do(ctx, func(tx *Tx) error {
		if fresh {
			s.forgetFrontier(tx, id)
			if _, err := tx.ExecContext(ctx, `DELETE FROM frontier WHERE crawl_id = ?`, id); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM elements WHERE crawl_id = ?`, id); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE crawls SET fetched=0, failed=0, skipped=0, bytes=0,
				runs = runs + 1 WHERE id = ?`, id); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE frontier SET state = 0 WHERE crawl_id = ? AND state = 1`, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE crawls SET state=?, config=?, started_at=?, finished_at=NULL, error=NULL,
			note=NULL WHERE id = ?`, CrawlRunning, string(config), nowMs(), id)
		return err
	})
	if err != nil {
		return fmt.Errorf("start crawl %d: %w", id, err)
	}
	return s.writer.Flush(ctx)
}

// FinishRun records how a run ended (paused, done, cancelled or failed), with the error
// that failed it and what else the run should say (note), and commits.
func (s *Store) FinishRun(ctx context.Context, id int64, state, errText, note string) error {
	err := s.writer.Do(ctx, func(tx *Tx) error {
		var fin any
		if state != CrawlPaused && state != CrawlRunning {
			fin = nowMs()
		}
		if state == CrawlPaused {
			if _, err := tx.ExecContext(ctx, `UPDATE frontier SET state = 0 WHERE crawl_id = ? AND state = 1`, id); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE crawls SET state=?, finished_at=?, error=nullif(?, ''), note=nullif(?, '')
			WHERE id = ?`, state, fin, errText, note, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("finish crawl %d: %w", id, err)
	}
	err = s.writer.Flush(ctx)
	s.forgetCensus(id)
	return err
}

// MarkInterrupted turns crawls left "running" by a process that died into "paused", so that
// they show as resumable, and such check runs into "interrupted". Call it once after Open,
// before starting crawls or checks.
func (s *Store) MarkInterrupted(ctx context.Context) error {
	if s.writer == nil {
		return nil
	}
	err := s.writer.Do(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE crawls SET state=? WHERE state=?`, CrawlPaused, CrawlRunning); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE check_runs SET state=? WHERE state=?`, record.RunInterrupted, record.RunRunning)
		return err
	})
	if err != nil {
		return err
	}
	return s.writer.Flush(ctx)
}

// FrontierURLs calls fn with the URL of every page in a crawl's queue this run (queued or
// visited) and whether a visit fetched it: what a resumed run needs to count its budgets
// again (the pages fetched per host, the query variants queued per path).
func (s *Store) FrontierURLs(ctx context.Context, crawlID int64, fn func(url string, fetched bool)) error {
	rows, err := s.read.QueryContext(ctx, `SELECT p.url, f.state = 2 AND p.state = ? FROM frontier f
		JOIN pages p ON p.id = f.page_id WHERE f.crawl_id = ?`, StateFetched, crawlID)
	if err != nil {
		return fmt.Errorf("frontier of crawl %d: %w", crawlID, err)
	}
	defer rows.Close()
	for rows.Next() {
		var u string
		var fetched bool
		if err := rows.Scan(&u, &fetched); err != nil {
			return err
		}
		fn(u, fetched)
	}
	return rows.Err()
}

// CrawlReasons counts a crawl's skipped and failed pages by reason.
func (s *Store) CrawlReasons(ctx context.Context, crawlID int64) (map[string]int64, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT reason, count(*) FROM pages
		WHERE crawl_id = ? AND state IN (?, ?) AND reason IS NOT NULL GROUP BY reason`, crawlID, StateSkipped, StateFailed)
	if err != nil {
		return nil, fmt.Errorf("reasons of crawl %d: %w", crawlID, err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var r string
		var n int64
		if err := rows.Scan(&r, &n); err != nil {
			return nil, err
		}
		out[r] = n
	}
	return out, rows.Err()
}

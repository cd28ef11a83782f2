package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

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
}

const crawlCols = `c.id, c.key, c.seeds, c.scope, c.config, c.state, c.runs, c.created_at,
	coalesce(c.started_at,0), coalesce(c.finished_at,0), c.fetched, c.failed, c.skipped, c.bytes,
	(SELECT count(*) FROM frontier f WHERE f.crawl_id = c.id AND f.state < 2), coalesce(c.error,'')`

func scanCrawl(row interface{ Scan(...any) error }) (Crawl, error) {
	var c Crawl
	var seeds, config string
	err := row.Scan(&c.ID, &c.Key, &seeds, &c.Scope, &config, &c.State, &c.Runs, &c.CreatedAt,
		&c.StartedAt, &c.FinishedAt, &c.Fetched, &c.Failed, &c.Skipped, &c.Bytes, &c.Queued, &c.Error)
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
	return scanCrawl(s.read.QueryRowContext(ctx, `SELECT `+crawlCols+` FROM crawls c WHERE c.id = ?`, id))
}

// FindCrawl returns the newest crawl with the given key, or ErrNotFound.
func (s *Store) FindCrawl(ctx context.Context, key string) (Crawl, error) {
	return scanCrawl(s.read.QueryRowContext(ctx, `SELECT `+crawlCols+` FROM crawls c WHERE c.key = ? ORDER BY c.id DESC LIMIT 1`, key))
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
	return out, rows.Err()
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
		_, err := tx.ExecContext(ctx, `UPDATE crawls SET state=?, config=?, started_at=?, finished_at=NULL, error=NULL
			WHERE id = ?`, CrawlRunning, string(config), nowMs(), id)
		return err
	})
	if err != nil {
		return fmt.Errorf("start crawl %d: %w", id, err)
	}
	return s.writer.Flush(ctx)
}

// FinishRun records how a run ended (paused, done, cancelled or failed) and commits.
func (s *Store) FinishRun(ctx context.Context, id int64, state, errText string) error {
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
		_, err := tx.ExecContext(ctx, `UPDATE crawls SET state=?, finished_at=?, error=nullif(?, '') WHERE id = ?`,
			state, fin, errText, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("finish crawl %d: %w", id, err)
	}
	return s.writer.Flush(ctx)
}

// MarkInterrupted turns crawls left "running" by a process that died into "paused", so that
// they show as resumable. Call it once after Open, before starting crawls.
func (s *Store) MarkInterrupted(ctx context.Context) error {
	if s.writer == nil {
		return nil
	}
	err := s.writer.Do(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE crawls SET state=? WHERE state=?`, CrawlPaused, CrawlRunning)
		return err
	})
	if err != nil {
		return err
	}
	return s.writer.Flush(ctx)
}

// FrontierHosts counts a crawl's queued and visited pages per origin.
func (s *Store) FrontierHosts(ctx context.Context, crawlID int64) (map[string]int, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT h.origin, count(*) FROM frontier f
		JOIN pages p ON p.id = f.page_id JOIN hosts h ON h.id = p.host_id
		WHERE f.crawl_id = ? GROUP BY h.origin`, crawlID)
	if err != nil {
		return nil, fmt.Errorf("frontier hosts: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var o string
		var n int
		if err := rows.Scan(&o, &n); err != nil {
			return nil, err
		}
		out[o] = n
	}
	return out, rows.Err()
}

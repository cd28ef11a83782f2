package crawl

import (
	"context"
	"errors"
	"fmt"

	"mundaneum/backend/jobs"
	"mundaneum/backend/store"
)

var (
	// ErrRunning means the crawl is already running in this process.
	ErrRunning = errors.New("crawl is already running")
	// ErrNotRunning means the crawl is not running in this process.
	ErrNotRunning = errors.New("crawl is not running")
)

// Jobs runs crawls in the background for a long-lived front end (the window, the browser
// front door): start, pause, resume, cancel, each keyed by crawl id.
type Jobs struct {
	st   *store.Store
	idx  Index
	jobs *jobs.Group[int64]
}

// NewJobs returns a job runner over a workspace and its index (nil: none).
func NewJobs(st *store.Store, idx Index) *Jobs {
	return &Jobs{st: st, idx: idx, jobs: jobs.NewGroup[int64]()}
}

// Start opens the crawl cfg describes and runs it in the background; progress receives
// snapshots (a few a second, and the final one with State set to the end state).
func (j *Jobs) Start(ctx context.Context, cfg Config, progress func(Progress)) (int64, error) {
	return j.StartWith(ctx, cfg, nil, progress)
}

// StartWith is Start with a step between opening the crawl and running it (prepare may be
// nil): a setting of the crawl's own that its first fetch must already see, such as its
// retention of page versions. When prepare fails the crawl is not run.
func (j *Jobs) StartWith(ctx context.Context, cfg Config, prepare func(ctx context.Context, id int64) error, progress func(Progress)) (int64, error) {
	cr, err := Open(ctx, j.st, j.idx, cfg)
	if err != nil {
		return 0, err
	}
	if prepare != nil {
		if err := prepare(ctx, cr.ID()); err != nil {
			return cr.ID(), err
		}
	}
	return cr.ID(), j.run(cr, progress)
}

// Resume continues a paused or interrupted crawl (or refreshes a finished one).
func (j *Jobs) Resume(ctx context.Context, id int64, progress func(Progress)) error {
	cr, err := Resume(ctx, j.st, j.idx, id)
	if err != nil {
		return err
	}
	return j.run(cr, progress)
}

func (j *Jobs) run(cr *Crawler, progress func(Progress)) error {
	err := j.jobs.Go(cr.ID(), func(ctx context.Context, jb *jobs.Job[int64]) {
		// The crawl is free to run again once its end is on record: its slot goes before
		// the final report, so that whoever hears of the end (the window's Resume, a test)
		// can start it again at once instead of being told it still runs.
		cr.Run(ctx, func(p Progress) { // the outcome is recorded in the store and reported through progress
			if p.State != store.CrawlRunning {
				jb.Release()
			}
			if progress != nil {
				progress(p)
			}
		})
	})
	if errors.Is(err, jobs.ErrRunning) {
		return fmt.Errorf("crawl %d: %w", cr.ID(), ErrRunning)
	}
	return err
}

// Pause stops a running crawl, keeping its queue.
func (j *Jobs) Pause(id int64) error { return j.stop(id, ErrPaused) }

// Cancel stops a running crawl for good. A crawl that is not running is marked cancelled.
func (j *Jobs) Cancel(ctx context.Context, id int64) error {
	if err := j.stop(id, ErrCancelled); err == nil {
		return nil
	}
	return j.st.FinishRun(ctx, id, store.CrawlCancelled, "", "")
}

func (j *Jobs) stop(id int64, cause error) error {
	if err := j.jobs.Cancel(id, cause); err != nil {
		return fmt.Errorf("crawl %d: %w", id, ErrNotRunning)
	}
	return nil
}

// Running reports whether a crawl runs in this process.
func (j *Jobs) Running(id int64) bool { return j.jobs.Running(id) }

// Close pauses every running crawl and waits for them to record their state; it starts no
// crawl after.
func (j *Jobs) Close() { j.jobs.Close(ErrPaused) }

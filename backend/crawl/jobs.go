package crawl

import (
	"context"
	"errors"
	"fmt"
	"sync"

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
	st  *store.Store
	idx Index

	mu      sync.Mutex
	running map[int64]*job
	wg      sync.WaitGroup
}

// job is one run of a crawl in the background.
type job struct{ cancel context.CancelCauseFunc }

// NewJobs returns a job runner over a workspace and its index (nil: none).
func NewJobs(st *store.Store, idx Index) *Jobs {
	return &Jobs{st: st, idx: idx, running: map[int64]*job{}}
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
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, ok := j.running[cr.ID()]; ok {
		return fmt.Errorf("crawl %d: %w", cr.ID(), ErrRunning)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	jb := &job{cancel: cancel}
	j.running[cr.ID()] = jb
	// The crawl is free to run again once its end is on record: its slot goes before the
	// final report, so that whoever hears of the end (the window's Resume, a test) can start
	// it again at once instead of being told it still runs.
	release := func() {
		j.mu.Lock()
		if j.running[cr.ID()] == jb {
			delete(j.running, cr.ID())
		}
		j.mu.Unlock()
	}
	report := func(p Progress) {
		if p.State != store.CrawlRunning {
			release()
		}
		if progress != nil {
			progress(p)
		}
	}
	j.wg.Add(1)
	go func() {
		defer j.wg.Done()
		cr.Run(ctx, report) // the outcome is recorded in the store and reported through progress
		release()
		cancel(nil)
	}()
	return nil
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
	j.mu.Lock()
	jb, ok := j.running[id]
	j.mu.Unlock()
	if !ok {
		return fmt.Errorf("crawl %d: %w", id, ErrNotRunning)
	}
	jb.cancel(cause)
	return nil
}

// Running reports whether a crawl runs in this process.
func (j *Jobs) Running(id int64) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	_, ok := j.running[id]
	return ok
}

// Close pauses every running crawl and waits for them to record their state.
func (j *Jobs) Close() {
	j.mu.Lock()
	for _, jb := range j.running {
		jb.cancel(ErrPaused)
	}
	j.mu.Unlock()
	j.wg.Wait()
}

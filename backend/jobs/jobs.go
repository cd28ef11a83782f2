// Package jobs runs work in the background for a long-lived front end (the window, the
// browser front door): crawls, check runs, archive imports and exports. A Group holds the
// jobs under way, each under a key (a crawl's id, one slot for the one check run, an archive
// job's number): it starts them, refuses a second job under a key that runs, cancels one
// with a cause, and on Close cancels them all and waits, refusing new ones meanwhile. What a
// job reports and records stays with its owner; Throttle spaces its progress reports.
package jobs

import (
	"context"
	"errors"
	"sync"
	"time"
)

var (
	// ErrRunning means a job already runs under the key.
	ErrRunning = errors.New("already running")
	// ErrNotRunning means no job runs under the key.
	ErrNotRunning = errors.New("not running")
	// ErrClosing means the group is closing (its workspace is being closed): it starts nothing.
	ErrClosing = errors.New("the workspace is closing")
)

// Group is a set of background jobs keyed by K. The zero value is not usable: see NewGroup.
type Group[K comparable] struct {
	mu      sync.Mutex
	running map[K]*Job[K]
	wg      sync.WaitGroup
	closing bool
}

// NewGroup returns an empty group.
func NewGroup[K comparable]() *Group[K] { return &Group[K]{running: map[K]*Job[K]{}} }

// Job is one job of a group, as its work sees it.
type Job[K comparable] struct {
	g      *Group[K]
	key    K
	cancel context.CancelCauseFunc
}

// Go runs work in a goroutine of its own under key, with a context that Cancel and Close
// end. It refuses with ErrRunning while a job runs under key and with ErrClosing once Close
// has begun. The key is free again when work returns, or earlier if work calls Release.
func (g *Group[K]) Go(key K, work func(ctx context.Context, j *Job[K])) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closing {
		return ErrClosing
	}
	if _, ok := g.running[key]; ok {
		return ErrRunning
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	j := &Job[K]{g: g, key: key, cancel: cancel}
	g.running[key] = j
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		defer cancel(nil)
		defer j.Release()
		work(ctx, j)
	}()
	return nil
}

// Release frees the job's key before its work returns: a job whose end is on record
// releases it before telling of the end, so that whoever hears of it can start the job
// again at once instead of being told it still runs. Releasing twice does nothing.
func (j *Job[K]) Release() {
	j.g.mu.Lock()
	defer j.g.mu.Unlock()
	if j.g.running[j.key] == j {
		delete(j.g.running, j.key)
	}
}

// Cancel ends the context of the job under key with cause (nil: context.Canceled); the
// job's work decides how to end. ErrNotRunning when no job runs under key.
func (g *Group[K]) Cancel(key K, cause error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	j, ok := g.running[key]
	if !ok {
		return ErrNotRunning
	}
	j.cancel(cause)
	return nil
}

// Running reports whether a job runs under key.
func (g *Group[K]) Running(key K) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, ok := g.running[key]
	return ok
}

// Close refuses new jobs, cancels every running one with cause and waits for all of them
// (released or not) to return.
func (g *Group[K]) Close(cause error) {
	g.mu.Lock()
	g.closing = true
	for _, j := range g.running {
		j.cancel(cause)
	}
	g.mu.Unlock()
	g.wg.Wait()
}

// Throttle lets progress reports through at most once every Every; the first always passes.
// It is for one goroutine (a job's own progress callback).
type Throttle struct {
	Every time.Duration
	last  time.Time
}

// Allow reports whether a report at now may go out, and if so counts it as sent.
func (t *Throttle) Allow(now time.Time) bool {
	if !t.last.IsZero() && now.Sub(t.last) < t.Every {
		return false
	}
	t.last = now
	return true
}

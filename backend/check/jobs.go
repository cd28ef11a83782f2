package check

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"mundaneum/backend/jobs"
)

// Jobs runs check runs in the background for a long-lived front end (the window, the
// browser front door), one at a time: a second run while one is under way gets
// ErrRunning (the scheduler tries again at its next look).
type Jobs struct {
	st   Store
	lib  LibrarySource
	jobs *jobs.Group[struct{}] // one slot: the run under way

	mu sync.Mutex
	id int64 // the run under way, 0 until it is recorded (or none)
}

// NewJobs returns a job runner over a workspace; lib lists library tasks' pointers (nil
// until the library exists).
func NewJobs(st Store, lib LibrarySource) *Jobs {
	return &Jobs{st: st, lib: lib, jobs: jobs.NewGroup[struct{}]()}
}

// Start begins a run of req in the background and returns its id once it is recorded.
// progress receives snapshots (the last one with the end state); done receives the
// outcome when the run has finished.
func (j *Jobs) Start(cfg Config, req Request, progress func(Progress), done func(Result, error)) (int64, error) {
	if req.Library == nil {
		req.Library = j.lib
	}
	started, ended := make(chan int64, 1), make(chan struct{})
	err := j.jobs.Go(struct{}{}, func(ctx context.Context, jb *jobs.Job[struct{}]) {
		once := sync.Once{}
		res, err := Run(ctx, j.st, cfg, req, func(p Progress) {
			if progress != nil {
				progress(p)
			}
			once.Do(func() { started <- p.RunID })
		})
		once.Do(func() { started <- 0 })
		j.mu.Lock()
		j.id = 0
		jb.Release() // under j.mu: the next run's id is not set before this one's is cleared
		close(ended)
		j.mu.Unlock()
		if done != nil {
			done(res, err)
		}
	})
	if errors.Is(err, jobs.ErrRunning) {
		return 0, fmt.Errorf("run %d: %w", j.Running(), ErrRunning)
	}
	if err != nil {
		return 0, err
	}
	id := <-started
	if id == 0 {
		return 0, fmt.Errorf("the check run could not start")
	}
	j.mu.Lock()
	select {
	case <-ended: // over already (or another run holds the slot): none of this run's business
	default:
		j.id = id
	}
	j.mu.Unlock()
	return id, nil
}

// Running returns the id of the run under way, 0 if none.
func (j *Jobs) Running() int64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.id
}

// Cancel stops the run under way; what it tested is kept, it makes no reports.
func (j *Jobs) Cancel() error {
	if err := j.jobs.Cancel(struct{}{}, nil); err != nil {
		return fmt.Errorf("no check run is under way")
	}
	return nil
}

// Close stops the run under way and waits for it to record its end; it starts no run after.
func (j *Jobs) Close() { j.jobs.Close(nil) }

// Scheduler starts the tasks that are due while the app runs. It looks at the wall clock
// once a minute rather than sleeping until the next due time: a monotonic timer stands
// still while the machine sleeps, so after a night's suspend the tasks that fell due run
// within a minute of waking (and those due while the app was closed, right at launch).
type Scheduler struct {
	// Every is how often it looks (default one minute); Now is the clock.
	Every time.Duration
	Now   func() time.Time
	tasks func(ctx context.Context) ([]Task, error)
	start func(due []Task) error
}

// NewScheduler returns a scheduler that reads tasks with tasks and starts the due ones
// with start (which may refuse with ErrRunning: they are tried again at the next look).
func NewScheduler(tasks func(ctx context.Context) ([]Task, error), start func(due []Task) error) *Scheduler {
	return &Scheduler{Every: time.Minute, Now: time.Now, tasks: tasks, start: start}
}

// Run looks for due tasks at once and then every s.Every until ctx ends.
func (s *Scheduler) Run(ctx context.Context) {
	t := time.NewTicker(s.Every)
	defer t.Stop()
	for {
		s.Tick(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Tick starts the tasks due now, all in one run (so that they share their tests).
func (s *Scheduler) Tick(ctx context.Context) []Task {
	ts, err := s.tasks(ctx)
	if err != nil {
		return nil
	}
	now := s.Now().Round(0) // wall clock: see the type's comment
	var due []Task
	for _, t := range ts {
		if t.Due(now) {
			due = append(due, t)
		}
	}
	if len(due) == 0 || s.start(due) != nil {
		return nil
	}
	return due
}

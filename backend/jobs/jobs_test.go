package jobs

import (
	"context"
	"errors"
	"testing"
	"time"
)

var errPaused = errors.New("paused")

// TestGroup walks one key through its life: a second start is refused while the first
// runs, Cancel's cause reaches the work, the key is free once the work has released it,
// and Close refuses new jobs and waits for the running ones.
func TestGroup(t *testing.T) {
	g := NewGroup[int]()
	started, ended := make(chan struct{}), make(chan error, 1)
	work := func(ctx context.Context, j *Job[int]) {
		close(started)
		<-ctx.Done()
		ended <- context.Cause(ctx)
	}
	if err := g.Go(1, work); err != nil {
		t.Fatal(err)
	}
	<-started
	if err := g.Go(1, work); !errors.Is(err, ErrRunning) {
		t.Fatalf("second start under a running key: %v, want ErrRunning", err)
	}
	if !g.Running(1) || g.Running(2) {
		t.Fatal("Running does not tell the running key from another")
	}
	if err := g.Cancel(2, nil); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("cancelling a key with no job: %v", err)
	}
	if err := g.Cancel(1, errPaused); err != nil {
		t.Fatal(err)
	}
	if cause := <-ended; !errors.Is(cause, errPaused) {
		t.Fatalf("the work saw cause %v, want %v", cause, errPaused)
	}

	// Released before it returns: the key can be taken again from inside the work.
	again := make(chan error, 1)
	hold := make(chan struct{})
	if err := g.Go(3, func(ctx context.Context, j *Job[int]) {
		j.Release()
		again <- g.Go(3, func(ctx context.Context, j *Job[int]) { <-ctx.Done() })
		<-hold
	}); err != nil {
		t.Fatal(err)
	}
	if err := <-again; err != nil {
		t.Fatalf("starting a released key: %v", err)
	}
	close(hold)

	closed := make(chan struct{})
	go func() { g.Close(errPaused); close(closed) }()
	<-closed // returns only once the job under 3 has seen its context end
	if err := g.Go(4, work); !errors.Is(err, ErrClosing) {
		t.Fatalf("start after Close: %v, want ErrClosing", err)
	}
}

func TestThrottle(t *testing.T) {
	th := Throttle{Every: time.Second}
	t0 := time.Unix(100, 0)
	for _, c := range []struct {
		at   time.Duration
		want bool
	}{{0, true}, {time.Millisecond, false}, {999 * time.Millisecond, false}, {time.Second, true}, {1500 * time.Millisecond, false}, {3 * time.Second, true}} {
		if got := th.Allow(t0.Add(c.at)); got != c.want {
			t.Errorf("Allow at %v = %v, want %v", c.at, got, c.want)
		}
	}
}

package index

import (
	"runtime"

	"mundaneum/backend/priority"
)

// runner runs functions on a goroutine locked to a thread of its own, at a lower CPU
// priority than the process's (priority.Lower): the thread dies with the goroutine, its
// priority with it.
type runner struct{ fns chan func() }

func newRunner() *runner {
	r := &runner{fns: make(chan func())}
	go func() {
		runtime.LockOSThread()
		_, _ = priority.Lower() // not lowered: the stage competes as an equal
		for fn := range r.fns {
			fn()
		}
	}()
	return r
}

func (r *runner) do(fn func()) {
	done := make(chan struct{})
	r.fns <- func() { fn(); close(done) }
	<-done
}

func (r *runner) stop() { close(r.fns) }

package index

import (
	"runtime"
	"sync"

	"golang.org/x/sys/unix"
)

// lowerPriority gives the calling thread (the stage's, locked to it) the lowest CPU
// priority: on Linux the nice value is a thread's own. The crawl's threads then run first
// whenever both want a core, and the index takes the rest.
func lowerPriority() {
	_ = unix.Setpriority(unix.PRIO_PROCESS, unix.Gettid(), 19)
}

var moreProcs sync.Once

// makeRoom gives the Go scheduler one more processor than cores (unless GOMAXPROCS was set
// otherwise): the stage's thread holds one while it runs, and the OS may keep it waiting
// for long; without the extra one, the crawl's goroutines would have a core fewer then.
func makeRoom() {
	moreProcs.Do(func() {
		if runtime.GOMAXPROCS(0) == runtime.NumCPU() {
			runtime.GOMAXPROCS(runtime.NumCPU() + 1)
		}
	})
}

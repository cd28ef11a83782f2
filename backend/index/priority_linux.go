package index

import (
	"runtime"
	"sync"
)

var moreProcs sync.Once

// makeRoom gives the Go scheduler one more processor than cores (unless GOMAXPROCS was set
// otherwise): the stage's thread, at a lower priority (see runner), holds one while it
// runs, and the OS may keep it waiting; without the extra one, the crawl's goroutines
// would have a core fewer then.
func makeRoom() {
	moreProcs.Do(func() {
		if runtime.GOMAXPROCS(0) == runtime.NumCPU() {
			runtime.GOMAXPROCS(runtime.NumCPU() + 1)
		}
	})
}

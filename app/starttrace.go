package app

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// The window's start, step by step, for scripts/bench-window.sh: with MUNDANEUM_TRACE_START
// set, the first time each step is reached is printed on stderr as "start-trace MS STEP"
// (MS: milliseconds since the Unix epoch, so that the script can compare it with when it
// started the process). The steps:
//
//	go-main        the Go program runs (package init)
//	window-run     the window is being made (wails.Run)
//	startup        Wails' OnStartup: the runtime is up
//	workspace      the first attempt to open the workspace ended
//	frontend-code  the frontend's code runs (its first call: WorkspaceState)
//	dom-ready      Wails' OnDomReady
//	app-mounted    the app is mounted and asks for its data (its first Workspace call)
var startTrace = struct {
	on   bool
	mu   sync.Mutex
	seen map[string]bool
}{on: os.Getenv("MUNDANEUM_TRACE_START") != "", seen: map[string]bool{}}

func init() { traceStep("go-main") }

// traceStep notes that the start reached step (only the first time, only when tracing).
func traceStep(step string) {
	if !startTrace.on {
		return
	}
	now := time.Now().UnixMilli()
	startTrace.mu.Lock()
	defer startTrace.mu.Unlock()
	if startTrace.seen[step] {
		return
	}
	startTrace.seen[step] = true
	fmt.Fprintf(os.Stderr, "start-trace %d %s\n", now, step)
}

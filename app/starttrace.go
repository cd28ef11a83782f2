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
//
// The page reports its own steps, timed by its clock, once it has made its first frame
// (frontend/src/main.ts; the event "start:trace"): page-asked, page-loaded and page-parsed
// (index.html asked for, received, parsed), page-dom-loaded (DOMContentLoaded ended),
// page-load-event (the load event ended), js-start (the app's script runs), js-state
// (WorkspaceState answered), js-mounted (the app is in the DOM), js-task (the first task
// after the mount ran: the page's thread was free), js-frame-start (the first animation
// frame after the mount began) and js-first-frame (that frame was made).
var startTrace = struct {
	on   bool
	mu   sync.Mutex
	seen map[string]bool
}{on: os.Getenv("MUNDANEUM_TRACE_START") != "", seen: map[string]bool{}}

func init() { traceStep("go-main") }

// traceStep notes that the start reached step (only the first time, only when tracing).
func traceStep(step string) {
	if startTrace.on {
		traceStepAt(step, time.Now().UnixMilli())
	}
}

// pageSteps are the steps the page may report.
var pageSteps = map[string]bool{"page-asked": true, "page-loaded": true, "page-parsed": true, "page-dom-loaded": true,
	"page-load-event": true, "js-start": true, "js-state": true, "js-mounted": true, "js-task": true, "js-laid-out": true,
	"js-frame-start": true, "js-first-frame": true}

// tracePageSteps notes the steps the page reports: [step, ms since the epoch] pairs.
// Anything else in the event is ignored (it comes from the page).
func tracePageSteps(data ...any) {
	if !startTrace.on || len(data) == 0 {
		return
	}
	steps, _ := data[0].([]any)
	for _, s := range steps {
		pair, _ := s.([]any)
		if len(pair) != 2 {
			continue
		}
		step, ok1 := pair[0].(string)
		ms, ok2 := pair[1].(float64)
		if ok1 && ok2 && pageSteps[step] {
			traceStepAt(step, int64(ms))
		}
	}
}

// traceStepAt notes that the start reached step at now (ms since the epoch).
func traceStepAt(step string, now int64) {
	startTrace.mu.Lock()
	defer startTrace.mu.Unlock()
	if startTrace.seen[step] {
		return
	}
	startTrace.seen[step] = true
	fmt.Fprintf(os.Stderr, "start-trace %d %s\n", now, step)
}

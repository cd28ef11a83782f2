package app

import (
	"io"
	"os"
	"testing"
)

// The page's steps reach the trace when they are [step, ms] pairs of a known step; anything
// else the page sends is dropped, and nothing is noted when not tracing.
func TestTracePageSteps(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, on := os.Stderr, startTrace.on
	os.Stderr, startTrace.on = w, true
	defer func() { os.Stderr, startTrace.on = stderr, on }()
	startTrace.mu.Lock()
	startTrace.seen = map[string]bool{}
	startTrace.mu.Unlock()

	tracePageSteps([]any{
		[]any{"js-mounted", 1795811964119.6},
		[]any{"js-mounted", 1795811964999.0}, // the first time only
		[]any{"go-main", 1.0},                // not the page's step
		[]any{"<script>", 1.0},
		[]any{"js-start"},               // no time
		[]any{"js-state", "1795811964"}, // a time that is not a number
		"js-first-frame",
		[]any{"js-first-frame", 1795811965000.0},
	})
	tracePageSteps()
	tracePageSteps("not a list")
	startTrace.on = false
	tracePageSteps([]any{[]any{"page-asked", 1.0}})
	w.Close()
	os.Stderr = stderr
	out, _ := io.ReadAll(r)
	want := "start-trace 1795811964119 js-mounted\nstart-trace 1795811965000 js-first-frame\n"
	if string(out) != want {
		t.Errorf("traced:\n%s\nwant:\n%s", out, want)
	}
}

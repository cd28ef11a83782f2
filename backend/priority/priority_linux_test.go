package priority

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// TestLower lowers two threads of their own and reads their nice values back from the
// kernel: Step below the process's, whichever thread went first (no compounding, even when
// one of them is the main thread, whose id is the process's).
func TestLower(t *testing.T) {
	for i := range 2 {
		type result struct{ set, read int }
		got := make(chan result, 1)
		errs := make(chan error, 1)
		go func() {
			runtime.LockOSThread() // the thread ends with the goroutine, its priority with it
			set, err := Lower()
			if err != nil {
				errs <- err
				return
			}
			got <- result{set, niceOf(unix.Gettid())}
		}()
		var r result
		select {
		case err := <-errs:
			t.Fatal(err)
		case r = <-got:
		}
		if want := min(processNice+Step, 19); r.set != want || r.read != want {
			t.Fatalf("thread %d's nice: set %d, read %d, want %d (the process's is %d)", i, r.set, r.read, want, processNice)
		}
	}
}

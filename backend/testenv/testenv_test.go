package testenv

import (
	"fmt"
	"strings"
	"testing"
)

// recorder records how a test ended, stopping where Skip and Fatal stop one.
type recorder struct {
	testing.TB
	skipped, failed string
}

type stopped struct{}

func (r *recorder) Helper() {}
func (r *recorder) Skip(args ...any) {
	r.skipped = fmt.Sprint(args...)
	panic(stopped{})
}
func (r *recorder) Fatal(args ...any) {
	r.failed = fmt.Sprint(args...)
	panic(stopped{})
}

func missing() (r *recorder) {
	r = &recorder{}
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(stopped); !ok {
				panic(p)
			}
		}
	}()
	Missing(r, "warcio is not installed")
	return r
}

// TestMissing: without RequireSetup a missing tool skips, saying what to run; with it (as
// make test runs) it fails.
func TestMissing(t *testing.T) {
	t.Setenv(RequireSetup, "")
	if r := missing(); r.failed != "" || !strings.Contains(r.skipped, "warcio is not installed: run make setup") {
		t.Errorf("without %s: %+v", RequireSetup, r)
	}
	t.Setenv(RequireSetup, "1")
	if r := missing(); r.skipped != "" || !strings.Contains(r.failed, "run make setup") {
		t.Errorf("with %s: %+v", RequireSetup, r)
	}
}

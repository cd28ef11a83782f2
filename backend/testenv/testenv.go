// Package testenv says what a test does when a program or package that `make setup`
// installs is missing (webrecorder's warcio, poppler's pdftotext, ...): on a clone without
// it, `go test ./...` skips the test and says to run make setup; under `make test`, which
// sets RequireSetup, the test fails, so a machine that lacks it cannot pass. Only tests
// import it.
package testenv

import (
	"fmt"
	"os"
	"testing"
)

// RequireSetup is the environment variable that turns a skip for something missing into a
// failure (the Makefile's test-go sets it).
const RequireSetup = "MUNDANEUM_REQUIRE_SETUP"

// Missing ends the test for want of what the message names: a skip that says to run make
// setup, or, with RequireSetup set, a failure.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...) + ": run make setup"
	if os.Getenv(RequireSetup) != "" {
		t.Fatal(msg + " (" + RequireSetup + " is set: make test needs it)")
	}
	t.Skip(msg)
}

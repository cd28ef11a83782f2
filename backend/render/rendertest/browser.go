package rendertest

import (
	"testing"

	"mundaneum/backend/render"
	"mundaneum/backend/testenv"
)

// Browser returns the system's Chromium, or ends the test when there is none: a skip under
// plain `go test`, a failure under `make test` (testenv.RequireSetup).
func Browser(t testing.TB) string {
	t.Helper()
	exe, err := render.FindBrowser()
	if err == nil {
		return exe
	}
	testenv.Missing(t, "no Chromium to render pages with (%v)", err)
	return ""
}

package rendertest

import (
	"os"
	"testing"

	"mundaneum/backend/render"
)

// RequireToolsEnv is set by `make test` (MUNDANEUM_REQUIRE_TOOLS=1): a test that needs a
// tool the machine lacks fails there instead of skipping.
const RequireToolsEnv = "MUNDANEUM_REQUIRE_TOOLS"

// Browser returns the system's Chromium, or skips the test (under plain `go test`) or
// fails it (under `make test`) when there is none.
func Browser(t testing.TB) string {
	t.Helper()
	exe, err := render.FindBrowser()
	if err == nil {
		return exe
	}
	if os.Getenv(RequireToolsEnv) != "" {
		t.Fatalf("no Chromium to render pages with (%v): run make setup", err)
	}
	t.Skip("no Chromium to render pages with: run make setup")
	return ""
}

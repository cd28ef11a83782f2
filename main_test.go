package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Without a display the window is not opened, and the message names the way to use the app
// anyway: serve, in a browser (issue 28, item 14).
func TestNoDisplaySaysServe(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	err := desktop(filepath.Join(t.TempDir(), "w.mundaneum"))
	if err == nil || !strings.Contains(err.Error(), "mundaneum serve") || !strings.Contains(err.Error(), "DISPLAY") {
		t.Fatalf("desktop without a display: %v", err)
	}
}

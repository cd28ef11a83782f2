package render

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"mundaneum/backend/testenv"
)

// TestBrowserLeavesNothingBehind: what Chromium keeps in the temporary folder (its
// singleton socket's folder, which a stopped browser leaves there) is inside the profile,
// and the profile goes when the browser stops.
func TestBrowserLeavesNothingBehind(t *testing.T) {
	exe, err := FindBrowser()
	if err != nil {
		testenv.Missing(t, "no Chromium to render pages with (%v)", err)
	}
	r := New(Options{Exec: exe})
	defer r.Close()
	b, err := r.browserFor(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	inside, _ := filepath.Glob(filepath.Join(b.dir, "org.chromium.Chromium.*"))
	if len(inside) == 0 {
		t.Errorf("no singleton folder inside the profile %s: Chromium put it in the system's temporary folder", b.dir)
	}
	r.release(b)
	r.Close()
	if _, err := os.Stat(b.dir); !os.IsNotExist(err) {
		t.Errorf("the profile %s is still there after Close (%v)", b.dir, err)
	}
}

package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mundaneum/backend/capture"
	"mundaneum/backend/store"
)

func TestCaptureSavesARenderedPageAndAddsIt(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	html := filepath.Join(t.TempDir(), "page.html")
	os.WriteFile(html, []byte(`<html><head><script>var secret="s3cr3t"</script></head><body><div id="app"><h1>Rendered</h1>
<p>the narwhal timetable</p></div></body></html>`), 0o644)
	if code, _, errs := run(t, "--db", db, "library", "mkdir", "/Reading"); code != 0 {
		t.Fatalf("mkdir: %s", errs)
	}
	code, out, errs := run(t, "--db", db, "--json", "capture", "https://app.example/t", html, "--title", "Timetable \x1b[2J",
		"--library", "/Reading", "--tags", "travel,sea", "--notes", "the selection")
	if code != 0 {
		t.Fatalf("capture = %d: %s", code, errs)
	}
	var got struct {
		Saved struct {
			PageID  int64
			Changed bool
		} `json:"saved"`
		Added struct {
			Place struct{ Library string }
		} `json:"added"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || !got.Saved.Changed || got.Added.Place.Library != "/Reading" {
		t.Fatalf("capture --json = %s (%v)", out, err)
	}
	// Searchable when the command returns.
	if code, out, _ := run(t, "--db", db, "search", "narwhal"); code != 0 || !strings.Contains(out, "https://app.example/t") {
		t.Errorf("search narwhal = %d %s", code, out)
	}
	if code, out, _ := run(t, "--db", db, "capture", "https://app.example/t", html, "--title", "Timetable \x1b[2J"); code != 0 || !strings.Contains(out, "confirmed") {
		t.Errorf("the same page again = %d %s", code, out)
	}
	if code, _, errs := run(t, "--db", db, "capture", "javascript:alert(1)", html); code != 2 || !strings.Contains(errs, "http") {
		t.Errorf("a javascript: page = %d %s", code, errs)
	}
	if code, _, _ := run(t, "--db", db, "capture", "https://app.example/x", filepath.Join(t.TempDir(), "missing.html")); code == 0 {
		t.Error("a missing file was captured")
	}
}

func TestBrowsersListsAndUnpairs(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	ctx := context.Background()
	st, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := capture.NewPairing(nil)
	code, _ := p.New()
	paired, err := capture.Pair(ctx, st, p, code.Code, "moz-extension://0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", "Firefox 153 on Linux\x1b]0;x\x07")
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	c, out, _ := run(t, "--db", db, "browsers")
	if c != 0 || !strings.Contains(out, "Firefox 153 on Linux") || strings.Contains(out, "\x1b") || !strings.Contains(out, "moz-extension://") {
		t.Errorf("browsers = %d %q", c, out)
	}
	c, out, _ = run(t, "--db", db, "--json", "browsers")
	if c != 0 || !strings.Contains(out, `"origin": "moz-extension://0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"`) && !strings.Contains(out, `"origin":"moz-extension://0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"`) {
		t.Errorf("browsers --json = %d %s", c, out)
	}
	if c, _, errs := run(t, "--db", db, "browsers", "unpair", "x"); c != 2 {
		t.Errorf("unpair x = %d %s", c, errs)
	}
	if c, _, errs := run(t, "--db", db, "browsers", "unpair", "1"); c != 0 {
		t.Fatalf("unpair = %d %s", c, errs)
	}
	st, err = store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := capture.Authorize(ctx, st, paired.Token, "moz-extension://0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"); err == nil {
		t.Error("an unpaired browser is still let in")
	}
}

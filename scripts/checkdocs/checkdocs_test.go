package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The project's own documentation passes: what `make lint` checks, in `go test ./...` too.
func TestRepository(t *testing.T) {
	problems, err := check("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

func write(t *testing.T, root, name, text string) {
	t.Helper()
	p := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A tree with one of each fault: each is named, and nothing else is.
func TestFindsWhatIsMissing(t *testing.T) {
	root := t.TempDir()
	write(t, root, "README.md", "# Here\n![here](docs/screenshots/a.png)\n![gone](docs/screenshots/index.png)\n"+
		"[guide](docs/search.md#the-words-again) [gone](docs/search.md#nowhere) [web](https://example.org/x.png) [anchor](#here)\n"+
		"```\n![in code](nowhere.png)\n```\n<img src=\"docs/screenshots/b.png\">\n")
	write(t, root, "docs/screenshots/a.png", "png")
	write(t, root, "docs/search.md", "## The `words`, again\n![a](screenshots/a.png) [back](../README.md) [lost](formats.md) [up](#the-words-again)\n")
	write(t, root, "docs/architecture.md", "`backend/store`, `frontend/src/api` and `frontend/e2e`\n")
	write(t, root, "backend/store/store.go", "package store\n")
	write(t, root, "backend/store/store_test.go", "package store\n")
	write(t, root, "backend/render/render.go", "package render\n")
	write(t, root, "backend/store/testdata/x.go", "package x\n")
	write(t, root, "frontend/src/api/index.ts", "")
	write(t, root, "frontend/src/views/App.svelte", "")
	write(t, root, "frontend/e2e/app.test.mjs", "await page.screenshot({ path: path.join(shotDir, 'a.png') });\n")
	write(t, root, "frontend/node_modules/x/y.go", "package y\n")

	problems, err := check(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"README.md names the image docs/screenshots/index.png",
		"README.md names the image docs/screenshots/b.png",
		"docs/search.md names the link formats.md",
		"does not name backend/render",
		"README.md links to docs/search.md#nowhere",
		"README.md shows index.png, which no test",
		"README.md shows b.png, which no test",
		"does not name frontend/src/views",
	}
	if len(problems) != len(want) {
		t.Errorf("got %d problems, want %d:\n%s", len(problems), len(want), strings.Join(problems, "\n"))
	}
	for _, w := range want {
		found := false
		for _, p := range problems {
			found = found || strings.Contains(p, w)
		}
		if !found {
			t.Errorf("no problem says %q in:\n%s", w, strings.Join(problems, "\n"))
		}
	}
}

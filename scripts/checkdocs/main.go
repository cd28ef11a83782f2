// Command checkdocs checks the project's documentation against the tree it describes: every
// image and local link that README.md and docs/*.md name exists (a guide that moved, or a
// heading a link points at, fails it), every screenshot they show is one an end-to-end test
// writes from the current app, and docs/architecture.md names every Go
// package and every folder of the frontend's and the extension's sources, so that the map
// of the house cannot fall behind it. `make lint` runs it (and so `make test`); its test runs
// it too, so `go test ./...` does.
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	problems, err := check(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "checkdocs:", err)
		os.Exit(1)
	}
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, "checkdocs:", p)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
}

// check returns what is wrong with the documentation under root, one line each.
func check(root string) ([]string, error) {
	docs, err := markdownFiles(root)
	if err != nil {
		return nil, err
	}
	writers, err := e2eSources(root)
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, doc := range docs {
		text, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", doc, err)
		}
		problems = append(problems, missingTargets(root, doc, string(text))...)
		problems = append(problems, unwrittenScreenshots(doc, string(text), writers)...)
	}
	unnamed, err := unmappedFolders(root)
	if err != nil {
		return nil, err
	}
	return append(problems, unnamed...), nil
}

// markdownFiles lists README.md and the Markdown files directly under docs/.
func markdownFiles(root string) ([]string, error) {
	files := []string{"README.md"}
	entries, err := os.ReadDir(filepath.Join(root, "docs"))
	if err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("read docs: %w", err)
	}
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".md") {
			files = append(files, filepath.Join("docs", e.Name()))
		}
	}
	return files, nil
}

var (
	// ![alt](target) and [text](target), the target up to a space or the closing paren.
	mdLink = regexp.MustCompile(`(!?)\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	// <img src="target">
	htmlImg = regexp.MustCompile(`<img\s[^>]*src="([^"]+)"`)
	// fenced code blocks, whose brackets are not links
	fence = regexp.MustCompile("(?ms)^```.*?^```")
)

// missingTargets names each image or local link of doc (a path relative to root) whose
// file does not exist. Links to the web, to mail addresses and to anchors of the same
// file are not checked.
func missingTargets(root, doc, text string) []string {
	text = fence.ReplaceAllString(text, "")
	type ref struct{ target, kind string }
	var refs []ref
	for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
		kind := "link"
		if m[1] == "!" {
			kind = "image"
		}
		refs = append(refs, ref{m[2], kind})
	}
	for _, m := range htmlImg.FindAllStringSubmatch(text, -1) {
		refs = append(refs, ref{m[1], "image"})
	}
	var problems []string
	for _, r := range refs {
		t := r.target
		if strings.Contains(t, "://") || strings.HasPrefix(t, "mailto:") {
			continue
		}
		anchor := ""
		if i := strings.IndexByte(t, '#'); i >= 0 {
			t, anchor = t[:i], t[i+1:]
		}
		if i := strings.IndexByte(t, '?'); i >= 0 {
			t = t[:i]
		}
		p := filepath.Join(root, filepath.Dir(doc), filepath.FromSlash(t))
		if t == "" {
			p = filepath.Join(root, doc)
		}
		if _, err := os.Stat(p); err != nil {
			problems = append(problems, fmt.Sprintf("%s names the %s %s, which does not exist", doc, r.kind, r.target))
			continue
		}
		if anchor != "" && strings.HasSuffix(p, ".md") && !hasHeading(p, anchor) {
			problems = append(problems, fmt.Sprintf("%s links to %s, whose page has no heading #%s", doc, r.target, anchor))
		}
	}
	return problems
}

var heading = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*$`)

// hasHeading says whether the Markdown file has a heading whose anchor, as GitHub makes
// it (lower case, punctuation dropped, spaces as hyphens), is anchor.
func hasHeading(file, anchor string) bool {
	text, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	for _, m := range heading.FindAllStringSubmatch(fence.ReplaceAllString(string(text), ""), -1) {
		if slug(m[1]) == anchor {
			return true
		}
	}
	return false
}

// slug is GitHub's anchor for a heading's text.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

var screenshot = regexp.MustCompile(`screenshots/([A-Za-z0-9._-]+\.png)`)

// e2eSources is the text of the end-to-end tests, which write the screenshots.
func e2eSources(root string) (string, error) {
	var b strings.Builder
	for _, dir := range []string{"frontend/e2e", "extension/e2e"} {
		entries, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil && !os.IsNotExist(err) {
			return "", fmt.Errorf("read %s: %w", dir, err)
		}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".mjs") {
				continue
			}
			text, err := os.ReadFile(filepath.Join(root, dir, e.Name()))
			if err != nil {
				return "", fmt.Errorf("read %s: %w", e.Name(), err)
			}
			b.Write(text)
		}
	}
	return b.String(), nil
}

// unwrittenScreenshots names each screenshot of doc that no end-to-end test writes (by its
// file name, in quotes): such a picture would show the app as it was, not as it is.
func unwrittenScreenshots(doc, text, writers string) []string {
	var problems []string
	for _, m := range screenshot.FindAllStringSubmatch(fence.ReplaceAllString(text, ""), -1) {
		if !strings.Contains(writers, "'"+m[1]+"'") && !strings.Contains(writers, "\""+m[1]+"\"") {
			problems = append(problems, fmt.Sprintf("%s shows %s, which no test in frontend/e2e or extension/e2e writes", doc, m[1]))
		}
	}
	return problems
}

// unmappedFolders names each Go package directory, and each folder of frontend/src and
// extension/, that docs/architecture.md does not name by its path.
func unmappedFolders(root string) ([]string, error) {
	mapText, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		return nil, fmt.Errorf("read the map: %w", err)
	}
	folders := map[string]bool{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata" ||
				rel == "build" || rel == "frontend" || rel == "extension") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			if dir := filepath.ToSlash(filepath.Dir(rel)); dir != "." {
				folders[dir] = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk the tree: %w", err)
	}
	for _, parent := range []string{"frontend/src", "frontend", "extension"} {
		entries, err := os.ReadDir(filepath.Join(root, parent))
		if err != nil && !os.IsNotExist(err) {
			return nil, fmt.Errorf("read %s: %w", parent, err)
		}
		for _, e := range entries {
			name := e.Name()
			if !e.IsDir() || strings.HasPrefix(name, ".") || name == "node_modules" || name == "dist" ||
				name == "src" || name == "public" || name == "icons" || name == "static" {
				continue
			}
			folders[parent+"/"+name] = true
		}
	}
	names := make([]string, 0, len(folders))
	for f := range folders {
		names = append(names, f)
	}
	sort.Strings(names)
	var problems []string
	named := string(mapText)
	for _, f := range names {
		if !strings.Contains(named, "`"+f+"`") {
			problems = append(problems, fmt.Sprintf("docs/architecture.md does not name %s (write it as `%s` with its one job)", f, f))
		}
	}
	return problems, nil
}

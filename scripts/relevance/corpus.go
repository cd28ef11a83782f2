package main

import (
	"bufio"
	"errors"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// corpus is one documentation set that Debian ships as HTML, with its query set.
type corpus struct {
	Name     string // short name, also the query file's base name
	Title    string // human name for the report
	Package  string // the Debian package that installs it
	Root     string // the directory served as the web root
	Seed     string // the crawl's seed, relative to Root
	Required bool   // a missing package is an error rather than a skipped corpus
}

// corpora are the relevance check's documentation sets. Each has two query files in
// testdata/relevance: NAME.tsv, the tuning split, and NAME.heldout.tsv, the held-out split
// that no ranking change is tuned on.
var corpora = []corpus{
	{
		Name: "python", Title: "Python 3.11 documentation", Package: "python3.11-doc",
		Root: "/usr/share/doc/python3.11/html", Seed: "index.html", Required: true,
	},
	{
		Name: "postgres", Title: "PostgreSQL 15 documentation", Package: "postgresql-doc-15",
		Root: "/usr/share/doc/postgresql-doc-15/html", Seed: "index.html",
	},
	{
		Name: "git", Title: "Git 2.39 documentation", Package: "git-doc",
		Root: "/usr/share/doc/git-doc", Seed: "git.html", Required: true, // make test's corpus
	},
	{
		Name: "sqlite", Title: "SQLite 3.40 documentation", Package: "sqlite3-doc",
		Root: "/usr/share/doc/sqlite3", Seed: "index.html",
	},
}

// query is one known-item query: the page that answers it is Expected.
type query struct {
	Text     string // as a user types it
	Expected string // path relative to the served root
	Kind     string // api, howto, concept, typo or phrase
	Evidence string // text the expected page contains, showing it answers the query
	HeldOut  bool   // from the held-out split: never tuned on
	File     string // the query file's base name
	Line     int    // line in the query file
}

var kinds = map[string]bool{"api": true, "howto": true, "concept": true, "typo": true, "phrase": true}

// maxQueries bounds a query file.
const maxQueries = 10000

// Splits a run can be limited to (-split).
const (
	splitAll     = "all"
	splitTune    = "tune"
	splitHeldOut = "heldout"
)

// loadCorpusQueries reads a corpus's two query files from dir, the tuning split NAME.tsv
// and the held-out split NAME.heldout.tsv, and keeps those of split. A query may appear
// in only one of them.
func loadCorpusQueries(dir, name, split string) ([]query, error) {
	tune, err := loadQueries(filepath.Join(dir, name+".tsv"), false)
	if err != nil {
		return nil, err
	}
	held, err := loadQueries(filepath.Join(dir, name+".heldout.tsv"), true)
	if err != nil {
		return nil, err
	}
	where := map[string]query{}
	for _, q := range tune {
		where[q.Text] = q
	}
	for _, q := range held {
		if t, ok := where[q.Text]; ok {
			return nil, fmt.Errorf("%s:%d: query %q is also in the tuning split (%s:%d)", q.File, q.Line, q.Text, t.File, t.Line)
		}
	}
	switch split {
	case splitTune:
		return tune, nil
	case splitHeldOut:
		return held, nil
	}
	return append(tune, held...), nil
}

// loadQueries reads a query file: tab-separated query, expected path, kind, evidence;
// blank lines and lines starting with # are skipped. heldOut marks the queries as the
// held-out split's.
func loadQueries(file string, heldOut bool) ([]query, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("open queries: %w", err)
	}
	defer f.Close()
	var qs []query
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			return nil, fmt.Errorf("%s:%d: want 4 tab-separated columns, got %d", file, n, len(cols))
		}
		q := query{Text: strings.TrimSpace(cols[0]), Expected: strings.TrimSpace(cols[1]),
			Kind: strings.TrimSpace(cols[2]), Evidence: strings.TrimSpace(cols[3]),
			HeldOut: heldOut, File: filepath.Base(file), Line: n}
		switch {
		case q.Text == "" || q.Expected == "" || q.Evidence == "":
			return nil, fmt.Errorf("%s:%d: empty column", file, n)
		case !kinds[q.Kind]:
			return nil, fmt.Errorf("%s:%d: unknown kind %q", file, n, q.Kind)
		case seen[q.Text] != 0:
			return nil, fmt.Errorf("%s:%d: query %q repeats line %d", file, n, q.Text, seen[q.Text])
		case len(qs) == maxQueries:
			return nil, fmt.Errorf("%s: more than %d queries", file, maxQueries)
		}
		seen[q.Text] = n
		qs = append(qs, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read queries %s: %w", file, err)
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%s: no queries", file)
	}
	return qs, nil
}

var (
	dropElements = regexp.MustCompile(`(?is)<(script|style)\b.*?</(script|style)\s*>`)
	inlineTags   = regexp.MustCompile(`(?is)</?(a|abbr|b|code|em|i|kbd|samp|span|strong|sub|sup|tt|var)\b[^>]*>`)
	tags         = regexp.MustCompile(`(?s)<[^>]*>`)
	spaces       = regexp.MustCompile(`[\s\p{Zs}]+`)
)

// pageText is an HTML page's text as a reader sees it: inline tags dropped, other tags
// read as a space, entities decoded, white space collapsed, lower-cased.
func pageText(raw []byte) string {
	s := dropElements.ReplaceAllString(string(raw), " ")
	s = inlineTags.ReplaceAllString(s, "")
	s = tags.ReplaceAllString(s, " ")
	s = html.UnescapeString(s)
	return strings.ToLower(spaces.ReplaceAllString(s, " "))
}

// verifyQueries checks that every expected page exists under root and contains its
// evidence: the query set's answers are read from the pages, not assumed.
func verifyQueries(root string, qs []query) error {
	texts := map[string]string{}
	var errs []error
	for _, q := range qs {
		text, ok := texts[q.Expected]
		if !ok {
			raw, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(q.Expected)))
			if err != nil {
				errs = append(errs, fmt.Errorf("%s:%d %q: expected page: %w", q.File, q.Line, q.Text, err))
				continue
			}
			text = pageText(raw)
			texts[q.Expected] = text
		}
		ev := strings.ToLower(spaces.ReplaceAllString(q.Evidence, " "))
		if !strings.Contains(text, ev) {
			errs = append(errs, fmt.Errorf("%s:%d %q: %s does not contain %q", q.File, q.Line, q.Text, q.Expected, q.Evidence))
		}
	}
	return errors.Join(errs...)
}

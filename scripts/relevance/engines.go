package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// hit is one search result, its URL reduced to a path relative to the served root.
type hit struct {
	Path  string
	Title string
}

// searcher runs one query and returns up to limit hits, best first.
type searcher interface {
	search(ctx context.Context, q string, limit int) ([]hit, error)
}

// maxOutput bounds what a search command may print.
const maxOutput = 16 << 20

// run runs a command, returning its stdout; on failure the error carries stderr's end.
func run(ctx context.Context, dir string, env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var out, errb limitedBuffer
	out.max, errb.max = maxOutput, 64<<10
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, tail(errb.String(), 2000))
	}
	if out.cut {
		return nil, fmt.Errorf("%s: more than %d bytes of output", name, maxOutput)
	}
	return out.Bytes(), nil
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	bytes.Buffer
	max int
	cut bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); len(p) > room {
		b.cut = true
		b.Buffer.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// relPath reduces a result URL to a path relative to the served root: origin, query
// and fragment dropped, a directory read as its index.html.
func relPath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	p := strings.TrimPrefix(u.Path, "/")
	if p == "" || strings.HasSuffix(p, "/") {
		p = path.Join(p, "index.html")
	}
	return p
}

// mundaneum drives the mundaneum command line on one workspace.
type mundaneum struct {
	bin, db string
}

// buildMundaneum builds the command line binary from the module at root into dir.
func buildMundaneum(ctx context.Context, root, dir string) (string, error) {
	bin := filepath.Join(dir, "mundaneum")
	if _, err := run(ctx, root, []string{"CGO_ENABLED=0"}, "go", "build", "-o", bin, "."); err != nil {
		return "", fmt.Errorf("build mundaneum: %w", err)
	}
	return bin, nil
}

// crawl crawls seed as the issue prescribes: tree scope, no delay, 8 fetches per host.
// The crawler's progress goes to log.
func (m mundaneum) crawl(ctx context.Context, seed string, log io.Writer) error {
	cmd := exec.CommandContext(ctx, m.bin, "crawl", "--db", m.db, "--scope", "tree",
		"--delay", "0", "--per-host", "8", seed)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("mundaneum crawl %s: %w", seed, err)
	}
	return nil
}

func (m mundaneum) search(ctx context.Context, q string, limit int) ([]hit, error) {
	out, err := run(ctx, "", nil, m.bin, "search", "--db", m.db, "--json",
		"--limit", strconv.Itoa(limit), q)
	if err != nil {
		return nil, err
	}
	var res struct {
		Results []struct {
			URL   string `json:"url"`
			Title string `json:"title"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("mundaneum search %q: decode json: %w", q, err)
	}
	hits := make([]hit, 0, len(res.Results))
	for _, r := range res.Results {
		hits = append(hits, hit{Path: relPath(r.URL), Title: r.Title})
	}
	return hits, nil
}

// xapian is the baseline: Debian's xapian-omega indexer (omindex) and the quest tool,
// both with their stock settings (BM25, English stemming, default query parser).
type xapian struct {
	db string
}

// index copies the pages (paths relative to root) into mirror and indexes mirror with
// omindex, mapping it to the URL "/" so that results name the same paths.
func (x xapian) index(ctx context.Context, root, mirror string, pages []string, log io.Writer) error {
	for _, p := range pages {
		if err := copyFile(filepath.Join(root, filepath.FromSlash(p)), filepath.Join(mirror, filepath.FromSlash(p))); err != nil {
			return err
		}
	}
	cmd := exec.CommandContext(ctx, "omindex", "--db", x.db, "--url", "/", mirror)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("omindex %s: %w", mirror, err)
	}
	return nil
}

func copyFile(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return fmt.Errorf("copy %s: %w", from, err)
	}
	data, err := os.ReadFile(from)
	if err != nil {
		return fmt.Errorf("copy %s: %w", from, err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		return fmt.Errorf("copy %s: %w", from, err)
	}
	return nil
}

func (x xapian) search(ctx context.Context, q string, limit int) ([]hit, error) {
	out, err := run(ctx, "", nil, "quest", "--db", x.db, "--msize", strconv.Itoa(limit), "--", q)
	if err != nil {
		return nil, err
	}
	return parseQuest(out, limit), nil
}

// parseQuest reads quest's listing: each match starts with "DOCID: [WEIGHT]" and has
// key=value lines, of which url= and caption= are used.
func parseQuest(out []byte, limit int) []hit {
	var hits []hit
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	inMSet := false
	for sc.Scan() && len(hits) <= limit {
		line := sc.Text()
		switch {
		case line == "MSet:":
			inMSet = true
		case !inMSet:
		case isMatchHeader(line):
			hits = append(hits, hit{})
		case len(hits) > 0 && strings.HasPrefix(line, "url="):
			hits[len(hits)-1].Path = relPath(strings.TrimPrefix(line, "url="))
		case len(hits) > 0 && strings.HasPrefix(line, "caption="):
			hits[len(hits)-1].Title = strings.TrimPrefix(line, "caption=")
		}
	}
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits
}

// isMatchHeader reports whether line looks like "123: [4.567]".
func isMatchHeader(line string) bool {
	id, rest, ok := strings.Cut(line, ": [")
	if !ok || id == "" || !strings.HasSuffix(rest, "]") {
		return false
	}
	_, err := strconv.ParseUint(id, 10, 64)
	return err == nil
}

package summary

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"mundaneum/backend/extract"
)

// PDF, read by poppler's pdftotext and pdfinfo (Debian's poppler-utils, installed by
// scripts/setup.sh): measured on real manuals they extract five times the words the pure-Go
// readers do (docs/summaries.md). Each runs as a child process on a private copy of the
// file, with no environment but PATH and the locale, under the document's time budget and
// a memory and CPU limit (prlimit), and is killed with its process group when it overruns;
// at most one per core runs at a time. The PDF's own JavaScript, forms and links are never
// run or followed: only its text, its metadata, and the bare URLs in its text are kept.
func init() {
	Register(&Kind{Name: "pdf", Type: "pdf", Binary: true,
		Media: []string{"application/pdf", "application/x-pdf", "application/acrobat", "applications/vnd.pdf"},
		Exts:  []string{"pdf"},
		Magic: func(h []byte) bool { return bytes.Contains(h, []byte("%PDF-")) },
		Run:   pdfSummary})
}

// pdfTools are the programs used; tests may point them elsewhere.
var pdfTools = struct{ text, info, prlimit string }{"pdftotext", "pdfinfo", "prlimit"}

// pdfMemory caps a child's address space: poppler needs far less for real documents.
const pdfMemory = 1 << 30

var pdfSlots = make(chan struct{}, max(1, runtime.NumCPU()))

func pdfSummary(ctx context.Context, in Input, b *Budget) (*Result, error) {
	r := &Result{}
	if !pdfEnds(in.Body) {
		r.problem(ProblemIncomplete) // why it may be unreadable, or its last pages missing
	}
	if _, err := exec.LookPath(pdfTools.text); err != nil {
		return r, problemError(ProblemToolMissing)
	}
	select {
	case pdfSlots <- struct{}{}:
		defer func() { <-pdfSlots }()
	case <-ctx.Done():
		return r, ctx.Err()
	}
	dir, err := os.MkdirTemp("", "mundaneum-pdf-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "in.pdf")
	if err := os.WriteFile(file, in.Body, 0o600); err != nil {
		return r, err
	}
	info, infoErr := runTool(ctx, dir, extract.MaxMeta*16, pdfTools.info, "-enc", "UTF-8", "-isodates", file)
	meta := pdfInfo(info)
	if infoErr != nil && ctx.Err() != nil {
		return r, ctx.Err()
	}
	if meta["Encrypted"] != "" && strings.HasPrefix(meta["Encrypted"], "yes") {
		r.addAttr("encrypted", "yes")
	}
	text, textErr := runTool(ctx, dir, b.MaxText+1, pdfTools.text, "-enc", "UTF-8", "-eol", "unix", file, "-")
	if ctx.Err() != nil {
		return r, ctx.Err()
	}
	r.Title = clip(strings.Join(strings.Fields(meta["Title"]), " "), extract.MaxTitle)
	r.Author = clip(meta["Author"], extract.MaxMeta)
	r.Keywords = clip(meta["Keywords"], extract.MaxMeta)
	r.Description = clip(meta["Subject"], extract.MaxMeta)
	r.addAttr(AttrTitle, r.Title)
	r.addAttr(AttrAuthor, r.Author)
	r.addAttr(AttrKeywords, r.Keywords)
	r.addAttr(AttrSubject, r.Description)
	if n, err := strconv.Atoi(meta["Pages"]); err == nil && n >= 0 {
		r.addAttr(AttrPages, strconv.Itoa(n))
	}
	r.addAttr(AttrCreated, meta["CreationDate"])
	r.addAttr(AttrCreator, meta["Creator"])
	r.addAttr(AttrProducer, meta["Producer"])
	if len(text) > 0 {
		// The text's own words and bare URLs, as plain text is read; pages are separated by
		// form feeds, which count as white space.
		s := extract.Options{MaxText: b.MaxText}.Text(text, nil)
		r.Text, r.Links = s.Text, s.Links
		if len(text) > b.MaxText {
			r.problem(extract.ProblemTruncated)
		}
	}
	if r.Title == "" {
		r.Title = firstLine(text)
	}
	switch {
	case textErr == nil && len(text) == 0 && infoErr != nil:
		return r, pdfProblem(info, infoErr)
	case textErr != nil && len(text) == 0:
		if infoErr != nil {
			return r, pdfProblem(info, infoErr)
		}
		return r, pdfProblem(text, textErr)
	}
	return r, nil
}

// pdfEnds reports whether a PDF ends as the format says, with an end-of-file marker in its
// last kilobyte (where readers look for it): a file cut off on the way has none.
func pdfEnds(b []byte) bool {
	return bytes.Contains(b[max(0, len(b)-1024):], []byte("%%EOF"))
}

// pdfProblem names why poppler could not read a file.
func pdfProblem(out []byte, err error) error {
	var te *toolError
	if errors.As(err, &te) && strings.Contains(strings.ToLower(te.stderr), "password") {
		return problemError(ProblemEncrypted)
	}
	return problemError(ProblemUnreadable)
}

// pdfInfo parses pdfinfo's "Key:   value" lines.
func pdfInfo(out []byte) map[string]string {
	m := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && k != "" && !strings.ContainsAny(k, "\t") {
			if _, dup := m[k]; !dup {
				m[k] = strings.TrimSpace(v)
			}
		}
	}
	return m
}

// firstLine is the first non-blank line of a text, as a title of last resort.
func firstLine(text []byte) string {
	for _, l := range bytes.Split(text[:min(len(text), 4096)], []byte("\n")) {
		if f := strings.Join(strings.Fields(string(bytes.ToValidUTF8(l, nil))), " "); len(f) >= 3 {
			return clip(f, 200)
		}
	}
	return ""
}

type toolError struct {
	err    error
	stderr string
}

func (e *toolError) Error() string { return e.err.Error() + ": " + e.stderr }
func (e *toolError) Unwrap() error { return e.err }

// runTool runs a program with args in dir under the sandbox's limits, returning at most
// limit bytes of its output (the child is killed when it writes more).
func runTool(ctx context.Context, dir string, limit int, name string, args ...string) ([]byte, error) {
	if p, err := exec.LookPath(pdfTools.prlimit); err == nil {
		args = append([]string{"--as=" + strconv.Itoa(pdfMemory), "--cpu=60", "--core=0", "--fsize=0", "--nofile=32", "--", name}, args...)
		name = p
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "HOME=" + dir}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	out := &capped{limit: limit}
	var stderr capped
	stderr.limit = 4096
	cmd.Stdout, cmd.Stderr = out, &stderr
	err := cmd.Run()
	if err != nil && !out.over { // a child cut off at the limit has given all that is kept
		return out.b.Bytes(), &toolError{err: err, stderr: stderr.b.String()}
	}
	return out.b.Bytes(), nil
}

var errOver = errors.New("output over its limit")

// capped keeps the first limit bytes written to it, then fails the writes, which ends a
// child that writes more (its pipe closes).
type capped struct {
	b     bytes.Buffer
	limit int
	over  bool
}

func (c *capped) Write(p []byte) (int, error) {
	room := c.limit - c.b.Len()
	if len(p) > room {
		c.b.Write(p[:max(room, 0)])
		c.over = true
		return max(room, 0), errOver
	}
	return c.b.Write(p)
}

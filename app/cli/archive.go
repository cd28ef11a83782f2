package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"mundaneum/backend/archive"
	"mundaneum/backend/crawl"
)

func (e *env) exportCmd() *cobra.Command {
	var format, since string
	var crawlID int64
	cmd := &cobra.Command{
		Use:   "export --format NAME [--crawl N] [--since TIME] [FILE]",
		Short: "Write a crawl (or the whole workspace) as a WARC file, a WWWW archive, SOIF summaries or web pages to read offline",
		Long: `Write the pages of a crawl, or of the whole workspace, to FILE (or to standard output
without one) in an archive format:

  warc   ISO 28500 WARC/1.1: for each version of each page a request, its response with
         the body (or a revisit when an earlier record has the same body) and a metadata
         record; a revisit for the last time the server confirmed it (304). A gzip member
         per record unless FILE ends in .warc. Readable by warcio, pywb, ReplayWeb.page...
  wwww   the World Wide Web Worm's archive: T (page and title), R (reference and anchor),
         I (inlined image) and C (completed page) lines.
  soif   Harvest's Summary Object Interchange Format: a @FILE template per page summary
         (title, full text, references, times, content hash, size), byte-counted; with
         --since TIME only the pages whose content changed since then.
  html-site
         the pages as a folder of web pages to read offline, like a wget mirror: FILE is
         the folder (it must not exist), or a .zip of it. Each page is sanitised as in the
         window, its links to the other pages rewritten to their files, its stored style
         sheets, images and fonts (crawl --requisites) beside it in _requisites/, and
         index.html lists them all. Open FILE/index.html in a browser.

The file appears whole or not at all: it is written beside FILE and renamed at the end.`,
		Args: usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.exportArchive(cmd.Context(), args, format, since, crawlID)
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "the archive format: "+strings.Join(archive.Names(), " or "))
	cmd.Flags().Int64Var(&crawlID, "crawl", 0, "the crawl to export (default: every page of the workspace)")
	cmd.Flags().StringVar(&since, "since", "", "soif: only pages changed since TIME (2026-11-23, an RFC 3339 time, or 36h back)")
	cmd.MarkFlagRequired("format")
	return cmd
}

// exportArchive writes the workspace, or crawl crawlID, to the file args names (stdout without one) in format.
func (e *env) exportArchive(ctx context.Context, args []string, format, since string, crawlID int64) error {
	f, err := archive.Lookup(format)
	if err != nil {
		return usageError{err}
	}
	after, err := parseSince(since)
	if err != nil {
		return err
	}
	if !after.IsZero() && f.Name != "soif" {
		return usageError{errors.New("--since is for --format soif")}
	}
	name := ""
	if len(args) == 1 && args[0] != "-" {
		name = args[0]
	}
	if name == "" && e.json {
		return usageError{errors.New("--json prints the report on standard output: give a FILE to export to")}
	}
	if name == "" && f.Folder != nil && isTerminal(e.stdout) {
		return usageError{fmt.Errorf("--format %s writes a folder: give its name (or a .zip file)", f.Name)}
	}
	st, err := e.open(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	bar := newArchiveBar(e.stderr, isTerminal(e.stderr), e.json, "exported")
	opt := archive.ExportOptions{CrawlID: crawlID, Since: after, Progress: bar.update}
	var rep archive.ExportReport
	if name != "" {
		rep, err = archive.ExportFile(ctx, st, f, name, opt)
	} else {
		bw := bufio.NewWriterSize(e.stdout, 256<<10)
		opt.Compress = f.Compressed("")
		if rep, err = f.Export(ctx, st, bw, opt); err == nil {
			err = bw.Flush()
		}
	}
	bar.done()
	if err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return err
	}
	if e.json {
		return e.printJSON(rep)
	}
	where := name
	if where == "" {
		where = "standard output"
	}
	if f.Folder != nil {
		fmt.Fprintf(e.stderr, "exported %d page(s) and %d requisite(s) as %d file(s), %s, to %s\n",
			rep.Responses, rep.Requisites, rep.Records, humanBytes(rep.Bytes), where)
		if name != "" && !strings.HasSuffix(strings.ToLower(name), ".zip") {
			fmt.Fprintf(e.stderr, "open %s in a browser\n", filepath.Join(name, "index.html"))
		}
		return nil
	}
	fmt.Fprintf(e.stderr, "exported %d record(s), %d page version(s) in full and %d revisit(s), %s, to %s\n",
		rep.Records, rep.Responses, rep.Revisits, humanBytes(rep.Bytes), where)
	return nil
}

func (e *env) importCmd() *cobra.Command {
	var format, scope string
	var depth int
	var run bool
	cmd := &cobra.Command{
		Use:   "import FILE [--format NAME]",
		Short: "Bring a WARC file, a WWWW archive or a SOIF file into the workspace",
		Long: `Read an archive into the workspace; its format is recognised from its contents.

  warc   (.warc, .warc.gz: Heritrix, wget --warc-file, Browsertrix, ArchiveBox...) every
         HTML or text response becomes a page version, stored and indexed as a crawl would
         have stored it, with its links; bodies are stored once per content (revisit
         records and duplicates cost nothing); redirects and errors are recorded; records
         that cannot be read are reported and skipped, and nothing is half-written.
  wwww   the World Wide Web Worm's archive: pages with their titles and references with
         their anchor text, searchable at once, and a rerun crawl seeded from the pages no
         other page references, which fetches every page without a C line and none with one
         (--run runs it; else resume it later like any paused crawl).

  soif   Harvest's SOIF summaries (a Mundaneum export or another Gatherer's, plain or gzip):
         each template becomes a searchable page marked as coming from the file (its
         source); the whole file is checked before any of it is applied.

The import appears as a crawl of its own (its number is printed): search it with crawl:N
or export it again with export --crawl N.`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.importArchive(cmd.Context(), args, format, scope, depth, run)
		},
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "", "the archive format (default: recognised from the file): "+strings.Join(archive.Names(), " or "))
	f.StringVar(&scope, "scope", crawl.ScopeSite, "WWWW: the rerun's scope: site, tree, domain or list")
	f.IntVar(&depth, "depth", 0, "WWWW: the rerun's depth limit from its seeds (0: none)")
	f.BoolVar(&run, "run", false, "WWWW: run the rerun crawl right after the import")
	return cmd
}

// importArchive reads the archive file args[0] names into the workspace.
func (e *env) importArchive(ctx context.Context, args []string, format, scope string, depth int, run bool) error {
	if format != "" {
		if _, err := archive.Lookup(format); err != nil {
			return usageError{err}
		}
	}
	w, err := e.openIndexed(ctx, false)
	if err != nil {
		return err
	}
	defer w.Close()
	st := w.st
	bar := newArchiveBar(e.stderr, isTerminal(e.stderr), e.json, "read")
	rep, err := archive.ImportFile(ctx, st, args[0], format,
		archive.ImportOptions{Progress: bar.update, Scope: scope, MaxDepth: depth, Index: w.idx})
	if errors.Is(err, archive.ErrFormat) {
		bar.done()
		return usageError{err}
	}
	bar.done()
	if err != nil && ctx.Err() != nil {
		return errInterrupted
	}
	if err != nil {
		return err
	}
	if e.json {
		if err := e.printJSON(rep); err != nil {
			return err
		}
	} else {
		e.printImport(rep)
	}
	if run && rep.RerunCrawlID != 0 {
		cr, err := crawl.Resume(ctx, st, w.idx, rep.RerunCrawlID)
		if err != nil {
			return err
		}
		rctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
		defer cancel(nil)
		go func() {
			select {
			case <-ctx.Done():
				cancel(crawl.ErrPaused)
			case <-rctx.Done():
			}
		}()
		pb := newProgressBar(e.stderr, isTerminal(e.stderr))
		p, err := cr.Run(rctx, pb.update)
		pb.done()
		if !e.json {
			fmt.Fprintf(e.stdout, "rerun crawl %d %s: %d fetched, %d failed, %d skipped\n", p.CrawlID, p.State,
				p.Fetched, p.Failed, p.Skipped)
		}
		if err != nil {
			return err
		}
		if errors.Is(context.Cause(rctx), crawl.ErrPaused) {
			return errInterrupted
		}
	}
	return nil
}

func (e *env) printImport(r archive.ImportReport) {
	w := e.stdout
	fmt.Fprintf(w, "import %d (%s): %d record(s) read, %s in %.1fs\n", r.CrawlID, r.Format, r.Records,
		humanBytes(r.Bytes), r.Elapsed.Seconds())
	switch r.Format {
	case "soif":
		fmt.Fprintf(w, "  %d summaries applied (new or changed), %d unchanged (this content is here already), %d older than the copy here\n",
			r.Pages, r.Duplicates, r.Kept)
	case "wwww":
		fmt.Fprintf(w, "  %d page(s) recorded with their titles and references", r.Pages)
		if r.Kept > 0 {
			fmt.Fprintf(w, "; %d already had content and were left as they are", r.Kept)
		}
		fmt.Fprintln(w)
		if r.RerunCrawlID != 0 {
			fmt.Fprintf(w, "  rerun: crawl %d is seeded and paused (import --run, or resume it in the window)\n", r.RerunCrawlID)
		}
	default:
		fmt.Fprintf(w, "  %d page version(s) stored (%d duplicate content, %d from revisit records), %d other responses\n",
			r.Versions, r.Duplicates, r.Revisits, r.Other)
		if r.Elapsed > 0 {
			fmt.Fprintf(w, "  %.0f pages/s\n", float64(r.Pages)/r.Elapsed.Seconds())
		}
	}
	if r.ProblemCount > 0 {
		fmt.Fprintf(w, "  %d record(s) could not be used and were skipped:\n", r.ProblemCount)
		for _, p := range r.Problems {
			where := p.Where
			if p.URL != "" {
				where += " " + clean(p.URL)
			}
			fmt.Fprintf(w, "    %s: %s\n", where, clean(p.Reason))
		}
		if r.ProblemCount > len(r.Problems) {
			fmt.Fprintf(w, "    ... and %d more\n", r.ProblemCount-len(r.Problems))
		}
	}
}

// archiveBar draws an import's or an export's progress on a terminal: a line that never
// moves back.
type archiveBar struct {
	w     io.Writer
	tty   bool
	quiet bool
	verb  string
	last  time.Time
	shown bool
}

// newArchiveBar draws on a terminal, prints a line every few seconds elsewhere (logs, cron),
// and nothing when quiet (--json).
func newArchiveBar(w io.Writer, tty, quiet bool, verb string) *archiveBar {
	return &archiveBar{w: w, tty: tty, quiet: quiet, verb: verb, last: time.Now()}
}

func (b *archiveBar) update(p archive.Progress) {
	every := 150 * time.Millisecond
	if !b.tty {
		every = 5 * time.Second
	}
	if b.quiet || time.Since(b.last) < every {
		return
	}
	b.last = time.Now()
	var s string
	switch {
	case p.Total > 0 && b.verb == "read":
		s = fmt.Sprintf("%3.0f%% %s of %s read · %d pages", 100*float64(p.Done)/float64(p.Total), humanBytes(p.Done),
			humanBytes(p.Total), p.Pages)
	case p.Total > 0:
		s = fmt.Sprintf("%3.0f%% %d of %d versions %s", 100*float64(p.Done)/float64(p.Total), p.Done, p.Total, b.verb)
	default:
		s = fmt.Sprintf("%d %s · %d pages", p.Done, b.verb, p.Pages)
	}
	if secs := p.Elapsed.Seconds(); secs > 0 {
		s += fmt.Sprintf(" · %.0f pages/s", float64(p.Pages)/secs)
	}
	if p.Note != "" {
		s += " · " + p.Note
	}
	if !b.tty {
		fmt.Fprintln(b.w, s)
		return
	}
	fmt.Fprintf(b.w, "\r\x1b[K%s", s)
	b.shown = true
}

func (b *archiveBar) done() {
	if b.shown {
		fmt.Fprintln(b.w)
	}
}

package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"mundaneum/app"
	"mundaneum/backend/crawl"
	"mundaneum/backend/library"
	"mundaneum/backend/libsearch"
	"mundaneum/backend/store"
)

func (e *env) libImportCmd() *cobra.Command {
	var to, author string
	var pw passwordFlag
	cmd := &cobra.Command{
		Use:   "import FILE",
		Short: "Import links: a browser's bookmarks file, a JSON tree, or a list of URLs (GENVL's Pointers)",
		Long: `Import a file of links into a library (- reads stdin). The format is found from the
content: a Netscape bookmark file (what browsers export), Mundaneum's JSON tree, or a list
with one URL or Markdown link [title](url) per line (Markdown headings become libraries).

--to names the library to import into; one that does not exist is made (as 'library mkdir
-p' would), as part of the import. Folders become libraries; one of the same title
already there is posted into. A link already in its library is left out; addresses other
than http(s) are left out; each is reported with its line. The import is one transaction:
a file that cannot be read imports nothing, and the error names the line. Importing into
a protected library needs its password. 'mundaneum library undo' takes it back.`,
		Example: `  mundaneum library import bookmarks.html --to /Browser
  pbpaste | mundaneum library import - --to /Reading`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error { return e.libImport(cmd.Context(), args, to, author, pw) },
	}
	cmd.Flags().StringVar(&to, "to", "/", "the library to import into (made if it does not exist)")
	cmd.Flags().StringVar(&author, "author", "", "your name, recorded with what is imported")
	pw.add(cmd, "the password of the protected library imported into")
	return cmd
}

// libImport imports the bookmarks or library file args[0] under to.
func (e *env) libImport(ctx context.Context, args []string, to, author string, pw passwordFlag) error {
	data, err := readImport(args[0])
	if err != nil {
		return err
	}
	password, err := pw.get()
	if err != nil {
		return err
	}
	return e.libWrite(ctx, func(l *library.Library, st *store.Store) error {
		parent, missing, err := l.ResolveExisting(ctx, to)
		if err != nil {
			return err
		}
		start := time.Now()
		rep, err := l.ImportUnder(ctx, parent.ID, missing, data, library.Author{Name: author, LibraryPassword: password})
		if err != nil {
			return err
		}
		took := time.Since(start)
		secs := took.Seconds()
		if e.json {
			// The window's LibImport: the same object everywhere.
			return e.printJSON(app.ImportOf(rep, took))
		}
		if len(missing) > 0 {
			fmt.Fprintf(e.stdout, "Created %s\n", clean(to))
		}
		fmt.Fprintf(e.stdout, "Imported %s from a %s file in %.1fs: %s, %s, %s, %s\n",
			nouns(rep.Added(), "posting", "postings"), rep.Format, secs, nouns(rep.Libraries, "library", "libraries"),
			nouns(rep.Pointers, "pointer", "pointers"), nouns(rep.Reports, "report", "reports"), nouns(rep.Views, "view", "views"))
		if rep.Merged > 0 || rep.Duplicates > 0 || rep.Elsewhere > 0 {
			fmt.Fprintf(e.stdout, "%s %s there already; %s %s in %s library already (left out); %d %s elsewhere in the library too\n",
				nouns(rep.Merged, "library", "libraries"), verb(rep.Merged, "was", "were"),
				nouns(rep.Duplicates, "link", "links"), verb(rep.Duplicates, "was", "were"), verb(rep.Duplicates, "its", "their"),
				rep.Elsewhere, verb(rep.Elsewhere, "is", "are"))
		}
		for _, p := range rep.Problems {
			fmt.Fprintf(e.stderr, "line %d: %s\n", p.Line, clean(p.Reason))
		}
		if rep.MoreProblems > 0 {
			fmt.Fprintf(e.stderr, "… and %d more\n", rep.MoreProblems)
		}
		return nil
	})
}

// maxImport bounds an import file.
const maxImport = 64 << 20

func readImport(name string) ([]byte, error) {
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxImport+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxImport {
		return nil, fmt.Errorf("%s: larger than %d MiB", name, maxImport>>20)
	}
	return b, nil
}

func (e *env) libExportCmd() *cobra.Command {
	var format, out string
	cmd := &cobra.Command{
		Use:   "export [PATH]",
		Short: "Export a library: browser bookmarks, a JSON tree, or a static HTML site",
		Long: `Export a library and everything below it (default: the whole library):
  --format netscape   a bookmark file every browser imports (reports without an address
                      and saved views have no place in it)
  --format json       Mundaneum's JSON tree: everything but passwords
  --format html       a folder of web pages to browse from the disk (--out DIR)
to stdout, or to --out.`,
		Example: `  mundaneum library export --format netscape > bookmarks.html
  mundaneum library export /Computing --format html --out computing-site`,
		Args: usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error { return e.libExport(cmd.Context(), args, format, out) },
	}
	cmd.Flags().StringVar(&format, "format", library.FormatNetscape, "netscape, json or html")
	cmd.Flags().StringVarP(&out, "out", "o", "", "the file (or, for html, the folder) to write")
	return cmd
}

// libExport writes the library at args[0] (the root without one) in format to out.
func (e *env) libExport(ctx context.Context, args []string, format, out string) error {
	path := "/"
	if len(args) == 1 {
		path = args[0]
	}
	if format == library.FormatHTML && out == "" {
		return usageError{errors.New("--format html writes a folder: give it with --out DIR")}
	}
	return e.libRead(ctx, func(l *library.Library, _ *store.Store) error {
		n, err := libraryAt(ctx, l, path)
		if err != nil {
			return err
		}
		if format == library.FormatHTML {
			return e.exportSite(ctx, l, n, out)
		}
		var buf bytes.Buffer
		rep, err := l.Export(ctx, n.ID, format, &buf)
		if err != nil {
			return err
		}
		if rep.Note != "" {
			fmt.Fprintln(e.stderr, "note:", rep.Note)
		}
		if out == "" {
			_, err = e.stdout.Write(buf.Bytes())
			return err
		}
		if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "Exported %d libraries, %d pointers, %d reports, %d views to %s\n",
			rep.Libraries, rep.Pointers, rep.Reports, rep.Views, out)
		return nil
	})
}

func (e *env) exportSite(ctx context.Context, l *library.Library, n library.Node, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rep, err := l.ExportSite(ctx, n.ID, func(name string, data []byte) error {
		return os.WriteFile(filepath.Join(dir, filepath.Base(name)), data, 0o644)
	})
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSON(map[string]any{"dir": dir, "files": rep.Files, "libraries": rep.Libraries,
			"pointers": rep.Pointers, "reports": rep.Reports, "views": rep.Views})
	}
	fmt.Fprintf(e.stdout, "Wrote %d files to %s: open %s in a browser\n", rep.Files, dir, filepath.Join(dir, "index.html"))
	return nil
}

func (e *env) libSearchCmd() *cobra.Command {
	var in string
	var limit int
	cmd := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search the library: titles, URLs, notes, tags and report text",
		Long: `Search the library's own index with the query language of 'mundaneum search'
(words, "phrases", -word, OR, title:, url:, site:, folder:PATH, tag:NAME), and what the link
checks found: is:broken (dead: failing on several checks over time), is:redirect, is:failed,
is:blocked, is:ok. A URL alone also finds the pointers that had it (accepted redirects).`,
		Example: `  mundaneum library search concurrency --in /Computing
  mundaneum library search 'tag:go -title:tour'`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			return e.libRead(ctx, func(l *library.Library, st *store.Store) error {
				n, err := libraryAt(ctx, l, in)
				if err != nil {
					return err
				}
				res, err := libsearch.New(st.ReadDB()).Search(ctx, libsearch.Request{Query: strings.Join(args, " "), In: n.ID, Limit: limit})
				if err != nil {
					return err
				}
				return e.printLibraryHits(res, true)
			})
		},
	}
	cmd.Flags().StringVar(&in, "in", "/", "search only this library and what is below it")
	cmd.Flags().IntVar(&limit, "limit", 20, "hits to show")
	return cmd
}

func (e *env) printLibraryHits(res libsearch.Results, alone bool) error {
	if e.json && alone {
		return e.printJSON(app.LibSearchResultsOf(res))
	}
	if alone {
		fmt.Fprintf(e.stdout, "%d postings in the library (%.1f ms)\n", res.Total, float64(res.Took.Microseconds())/1000)
		if res.Note != "" {
			fmt.Fprintln(e.stdout, "note:", clean(res.Note))
		}
	}
	for _, h := range res.Hits {
		line := clean(h.Path)
		if h.URL != "" {
			line += "  " + clean(h.URL)
		}
		fmt.Fprintf(e.stdout, "  [%s] %s\n", h.Kind, line)
		if len(h.Snippet) > 0 {
			fmt.Fprintf(e.stdout, "      %s\n", clean(strings.Join(h.Snippet, "")))
		}
	}
	return nil
}

func (e *env) libCrawlCmd() *cobra.Command {
	cfg := crawl.Config{}
	cmd := &cobra.Command{
		Use:   "crawl PATH",
		Short: "Crawl from a pointer, or from every pointer of a library (\"crawl from here\")",
		Long: `Crawl from a pointer's URL, or from the URLs of every pointer at or below a library
(with --scope list: fetch each once, for its title and offline copy). It is a crawl like
'mundaneum crawl': it needs the workspace to itself.`,
		Example: `  mundaneum library crawl "/Computing/Go/The Go site" --scope tree --depth 2
  mundaneum library crawl /Computing --scope list`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error { return e.libCrawl(cmd.Context(), args, cfg) },
	}
	f := cmd.Flags()
	f.StringVar(&cfg.Scope, "scope", crawl.ScopeTree, "site, tree, domain or list (see 'mundaneum crawl --help')")
	f.IntVar(&cfg.MaxDepth, "depth", 0, "link depth limit from the seeds (0: none)")
	f.IntVar(&cfg.MaxPages, "max-pages", 0, "stop after visiting N pages (0: no limit)")
	return cmd
}

// libCrawl crawls from the pointers at or below args[0].
func (e *env) libCrawl(ctx context.Context, args []string, cfg crawl.Config) error {
	err := e.libRead(ctx, func(l *library.Library, _ *store.Store) error {
		n, err := l.Resolve(ctx, args[0])
		if err != nil {
			return err
		}
		cfg.Seeds, err = l.Seeds(ctx, n.ID)
		return err
	})
	if err != nil {
		return err
	}
	if len(cfg.Seeds) == 0 {
		return usageError{fmt.Errorf("%s has no pointers to crawl from", args[0])}
	}
	cfg.Delay = -1
	crawlErr := e.crawl(ctx, cfg, nil)
	// Pointers added without a title take their page's, now that it is known.
	if err := e.libWrite(context.WithoutCancel(ctx), func(l *library.Library, _ *store.Store) error {
		_, err := l.FillTitles(ctx, cfg.Seeds)
		return err
	}); err != nil && crawlErr == nil {
		return err
	}
	return crawlErr
}

// nouns writes a count with its noun agreeing ("1 library", "2 libraries").
func nouns(n int, one, many string) string { return fmt.Sprintf("%d %s", n, verb(n, one, many)) }

// verb picks the word agreeing with a count of n.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

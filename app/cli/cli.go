// Package cli is Mundaneum's command-line front door: crawl, search and status over a
// workspace, human-readable text by default and JSON with --json.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"sync/atomic"
	"syscall"

	"github.com/spf13/cobra"

	"mundaneum/app"
	"mundaneum/backend/check"
	"mundaneum/backend/crawl"
	"mundaneum/backend/store"
)

// Exit codes.
const (
	ExitOK           = 0
	ExitError        = 1
	ExitUsage        = 2
	ExitUnreachable  = 3
	ExitLocked       = 4
	ExitNotWorkspace = 5
	ExitInterrupted  = 130
)

// Desktop opens the window on the workspace at path; main supplies it (with the embedded
// frontend and the display checks).
type Desktop func(path string) error

type env struct {
	db     string
	json   bool
	stdout io.Writer
	stderr io.Writer
}

// Run executes the command line args and returns the process exit code.
func Run(args []string, desktop Desktop) int {
	// A write to a pipe whose reader has gone returns EPIPE (see readerGone) rather than
	// killing the process.
	signal.Ignore(syscall.SIGPIPE)
	return Main(args, os.Stdout, os.Stderr, desktop)
}

// readerGone is the standard output of a command. When its reader leaves early (`| head`,
// `| grep -q`), the command stops (its context is cancelled) and ends with success, writing
// nothing more, as ls, grep and git do: the output was not wanted past that point.
type readerGone struct {
	w      io.Writer
	cancel context.CancelFunc
	gone   atomic.Bool
}

func (r *readerGone) Write(p []byte) (int, error) {
	n, err := r.w.Write(p)
	if errors.Is(err, syscall.EPIPE) {
		r.gone.Store(true)
		r.cancel()
	}
	return n, err
}

// Main is Run with the output streams given.
func Main(args []string, stdout, stderr io.Writer, desktop Desktop) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := &readerGone{w: stdout, cancel: cancel}
	e := &env{stdout: out, stderr: stderr}
	root := e.root(desktop)
	defer pprof.StopCPUProfile() // started by the hidden --cpuprofile
	root.SetArgs(args)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)

	cmd, err := root.ExecuteContextC(ctx)
	if err == nil || out.gone.Load() {
		return ExitOK
	}
	code := exitCode(err)
	var shown reported
	if code != ExitInterrupted && !errors.As(err, &shown) {
		fmt.Fprintln(e.stderr, "mundaneum:", err)
	}
	if code == ExitUsage {
		if cmd == nil {
			cmd = root
		}
		fmt.Fprintf(e.stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	}
	return code
}

// Command is the command tree, for writing its manual pages (scripts/genman); it opens
// no window.
func Command() *cobra.Command {
	e := &env{stdout: io.Discard, stderr: io.Discard}
	return e.root(func(string) error { return errors.New("no window from this command tree") })
}

// root builds the command tree over e; without a command it opens desktop.
func (e *env) root(desktop Desktop) *cobra.Command {
	root := &cobra.Command{
		Use:   "mundaneum [WORKSPACE" + app.Extension + "]",
		Short: "Crawl the web you care about into a local workspace, search it offline",
		Long: "Mundaneum crawls the parts of the web you care about into a local SQLite workspace,\n" +
			"searches all of it offline, and watches it for rot and change.\n" +
			"Without a command it opens the desktop window, on the workspace given (as --db or as\n" +
			"the one argument, as a file manager does) or the one in your data directory.",
		Version: crawl.Version,
		// A mistyped command gets a suggestion (see root.Args).
		SuggestionsMinimumDistance: 2,
		SilenceUsage:               true,
		SilenceErrors:              true,
		RunE: func(cmd *cobra.Command, args []string) error {
			// A file manager opens a workspace with its path as the one argument.
			if len(args) == 1 {
				if e.db != "" {
					return usageError{fmt.Errorf("two workspaces given (--db %s and %s): give one", e.db, args[0])}
				}
				e.db = args[0]
			}
			path, err := e.path()
			if err != nil {
				return err
			}
			return desktop(path)
		},
	}
	root.PersistentFlags().StringVar(&e.db, "db", "", "workspace file (default: the workspace in your data directory)")
	root.PersistentFlags().BoolVar(&e.json, "json", false, "print machine-readable JSON on stdout")
	var cpuProfile string
	root.PersistentFlags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile to this file")
	root.PersistentFlags().MarkHidden("cpuprofile")
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		if cpuProfile == "" {
			return nil
		}
		f, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		return pprof.StartCPUProfile(f)
	}
	root.AddCommand(e.crawlCmd(), e.searchCmd(), e.viewsCmd(), e.statusCmd(), e.serveCmd())
	root.AddCommand(e.checkCmd(), e.taskCmd(), e.reportCmd(), e.avoidCmd(), e.sitesCmd())
	root.AddCommand(e.reindexCmd())
	root.AddCommand(e.tokenCmd(), e.sourceCmd())
	root.AddCommand(e.rulesCmd(), e.pathCmd(), e.linksCmd(), e.treeCmd(), e.orphansCmd())
	root.AddCommand(e.pageCmd(), e.pagesCmd(), e.screenshotCmd())
	root.AddCommand(e.libraryCmd())
	root.AddCommand(e.browsersCmd(), e.captureCmd())
	root.AddCommand(e.historyCmd(), e.diffCmd(), e.retentionCmd(), e.exportCmd(), e.importCmd())
	root.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 || len(args) == 1 && workspaceArg(args[0]) {
			return nil
		}
		msg := fmt.Sprintf("unknown command %q", args[0])
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			msg += fmt.Sprintf(": did you mean %q?", s[0])
		}
		return usageError{errors.New(msg)}
	}
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return usageError{flagSuggestion(cmd, err)} })
	return root
}

type usageError struct{ error }

// reported is an error the command has already shown (as JSON on stdout): exit non-zero, say nothing more.
type reported struct{ error }

func (r reported) Unwrap() error { return r.error }

func (u usageError) Unwrap() error { return u.error }

var errInterrupted = errors.New("interrupted")

func exitCode(err error) int {
	var u usageError
	switch {
	case errors.As(err, &u), errors.Is(err, crawl.ErrConfig):
		return ExitUsage
	case errors.Is(err, crawl.ErrUnreachable), errors.Is(err, check.ErrOffline):
		return ExitUnreachable
	case errors.Is(err, store.ErrLocked):
		return ExitLocked
	case errors.Is(err, store.ErrNotWorkspace), errors.Is(err, store.ErrTooNew):
		return ExitNotWorkspace
	case errors.Is(err, errInterrupted):
		return ExitInterrupted
	case errors.Is(err, errBroken):
		return ExitBroken
	}
	return ExitError
}

// path is the workspace's file: --db's, or the default in the data directory (whose
// directory the store creates). A --db in a directory that does not exist is refused: it is
// far more often a typo than a wish for a new directory, and a workspace silently made
// there would be lost to the user.
func (e *env) path() (string, error) {
	if e.db == "" {
		return store.DefaultPath()
	}
	dir := filepath.Dir(e.db)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("no directory %s for the workspace %s: create it first (mkdir -p %s) or give a path in a directory that exists",
			dir, filepath.Base(e.db), dir)
	}
	return e.db, nil
}

// open opens the workspace; read-only commands do not take the writer lock, so they work
// while another process crawls, and they never write: not into an empty file, not to
// upgrade an older workspace.
func (e *env) open(ctx context.Context, readOnly bool) (*store.Store, error) {
	path, err := e.path()
	if err != nil {
		return nil, err
	}
	if readOnly {
		fi, err := os.Stat(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return nil, fmt.Errorf("no workspace at %s yet: run 'mundaneum crawl URL' first", path)
		case err == nil && fi.Size() == 0:
			return nil, fmt.Errorf("%s is an empty file, not a workspace yet (a crawl makes one): %w", path, store.ErrNotWorkspace)
		}
		return store.Open(ctx, path, store.Options{ReadOnly: true})
	}
	st, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		return nil, err
	}
	if err := st.MarkInterrupted(ctx); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}

func (e *env) printJSON(v any) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(app.ListsNotNull(v))
}

// usageArgs makes an argument check's failure a usage error.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usageError{err}
		}
		return nil
	}
}

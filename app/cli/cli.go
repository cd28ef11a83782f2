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
	"runtime/pprof"
	"syscall"

	"github.com/spf13/cobra"

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
	return Main(args, os.Stdout, os.Stderr, desktop)
}

// Main is Run with the output streams given.
func Main(args []string, stdout, stderr io.Writer, desktop Desktop) int {
	e := &env{stdout: stdout, stderr: stderr}
	root := &cobra.Command{
		Use:     "mundaneum",
		Short:   "Crawl the web you care about into a local workspace, search it offline",
		Long:    "Mundaneum crawls the parts of the web you care about into a local SQLite workspace,\nsearches all of it offline, and watches it for rot and change.\nWithout a command it opens the desktop window.",
		Version: crawl.Version,
		// A mistyped command gets a suggestion (see root.Args).
		SuggestionsMinimumDistance: 2,
		SilenceUsage:               true,
		SilenceErrors:              true,
		RunE: func(cmd *cobra.Command, _ []string) error {
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
	defer pprof.StopCPUProfile()
	root.AddCommand(e.crawlCmd(), e.searchCmd(), e.viewsCmd(), e.statusCmd(), e.serveCmd())
	root.AddCommand(e.checkCmd(), e.taskCmd(), e.reportCmd(), e.avoidCmd(), e.sitesCmd())
	root.AddCommand(e.reindexCmd())
	root.AddCommand(e.tokenCmd(), e.sourceCmd())
	root.AddCommand(e.rulesCmd(), e.pathCmd(), e.linksCmd(), e.treeCmd(), e.orphansCmd())
	root.AddCommand(e.pageCmd(), e.pagesCmd(), e.screenshotCmd())
	root.AddCommand(e.libraryCmd())
	root.AddCommand(e.historyCmd(), e.diffCmd(), e.retentionCmd(), e.exportCmd(), e.importCmd())
	root.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		msg := fmt.Sprintf("unknown command %q", args[0])
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			msg += fmt.Sprintf(": did you mean %q?", s[0])
		}
		return usageError{errors.New(msg)}
	}
	root.SetArgs(args)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	code := exitCode(err)
	var shown reported
	if code != ExitInterrupted && !errors.As(err, &shown) {
		fmt.Fprintln(e.stderr, "mundaneum:", err)
	}
	if code == ExitUsage {
		fmt.Fprintln(e.stderr, "Run 'mundaneum --help' for usage.")
	}
	return code
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
	case errors.Is(err, crawl.ErrUnreachable):
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

func (e *env) path() (string, error) {
	if e.db != "" {
		return e.db, nil
	}
	return store.DefaultPath()
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
	return enc.Encode(v)
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

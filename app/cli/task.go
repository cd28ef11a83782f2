package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"mundaneum/app"
	"mundaneum/backend/check"
	"mundaneum/backend/check/momfile"
	"mundaneum/backend/store"
)

func (e *env) taskCmd() *cobra.Command {
	var o taskFlags
	cmd := &cobra.Command{
		Use:   "task [ls | add NAME | edit NAME | rm NAME | import FILE]",
		Short: "Maintenance tasks: the infostructures 'mundaneum check' watches",
		Long: `A maintenance task names an infostructure (MOMspider's): its type, top, whom it is for,
which news to report, and when to run.

  mundaneum task add docs --type tree --top https://example.org/docs/ --for me@example.org --email --every 24h
  mundaneum task add links --library /Research                 every pointer under a library
  mundaneum task ls
  mundaneum task edit docs --every 12h --report broken,moved,changed=3
  mundaneum task rm docs
  mundaneum task import instructions.mom                         MOMspider's instruction file

Types: site (the top's host and port), tree (at or below the top's directory), owner
(documents whose Owner meta element or header is the task's name), library (a library
subtree's pointers). Anything outside is a leaf: tested, not traversed.`,
		Args: usageArgs(cobra.ArbitraryArgs),
		RunE: func(cmd *cobra.Command, args []string) error { return e.task(cmd.Context(), cmd, args, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.typ, "type", "site", "site, tree, owner or library")
	f.StringVar(&o.top, "top", "", "the top document's URL (for library: the subtree's path)")
	f.StringVar(&o.library, "library", "", "every pointer under this library path: --type library --top PATH")
	f.StringVar(&o.title, "title", "", "the index document's title")
	f.StringVar(&o.forAddr, "for", "", "whom the task is for: an e-mail address")
	f.BoolVar(&o.email, "email", false, "mail the reported news to --for (needs the SMTP settings)")
	f.StringVar(&o.report, "report", "moved,broken,changed=7,expiring=7", "news to report: moved, broken, changed=DAYS, expiring=DAYS")
	f.StringVar(&o.every, "every", "", "run every period while the app runs or from 'check --due', e.g. 6h, 1d, 7d (\"\" or 0: when asked)")
	f.IntVar(&o.maxPages, "max-pages", 0, "documents traversed per run (0: 100000)")
	f.IntVar(&o.maxDepth, "max-depth", 0, "links from the top (0: no limit)")
	f.StringVar(&o.indexFile, "index-file", "", "also write the HTML index here after each run (the prior one is kept beside it)")
	f.BoolVar(&o.internalOnly, "internal-only", false, "leave links outside the infostructure's site untested")
	return cmd
}

// task lists, adds, edits, removes or imports the maintenance tasks.
func (e *env) task(ctx context.Context, cmd *cobra.Command, args []string, o taskFlags) error {
	if len(args) == 0 {
		args = []string{"ls"}
	}
	switch verb, rest := args[0], args[1:]; {
	case verb == "ls" && len(rest) == 0:
		return e.listTasks(ctx)
	case verb == "add" && len(rest) == 1:
		return e.saveTask(ctx, cmd, rest[0], o, true)
	case verb == "edit" && len(rest) == 1:
		return e.saveTask(ctx, cmd, rest[0], o, false)
	case verb == "rm" && len(rest) == 1:
		return e.removeTask(ctx, rest[0])
	case verb == "import" && len(rest) == 1:
		return e.importTasks(ctx, rest[0])
	}
	return usageError{errors.New("usage: task [ls | add NAME | edit NAME | rm NAME | import FILE]")}
}

type taskFlags struct {
	typ, top, library, title, forAddr, report, every, indexFile string
	email, internalOnly                                         bool
	maxPages, maxDepth                                          int
}

// apply sets the options a command line gave (all of them for add, the changed ones for edit).
func (o taskFlags) apply(cmd *cobra.Command, t *check.Task, all bool) error {
	set := func(name string) bool { return all || cmd.Flags().Changed(name) }
	if cmd.Flags().Changed("library") {
		if cmd.Flags().Changed("top") || cmd.Flags().Changed("type") && o.typ != string(check.Library) {
			return usageError{errors.New("--library PATH is --type library --top PATH: give one or the other")}
		}
		o.typ, o.top = string(check.Library), o.library
		set = func(name string) bool { return name == "type" || name == "top" || all || cmd.Flags().Changed(name) }
	}
	if set("type") {
		t.Type = check.Type(o.typ)
	}
	if set("top") {
		t.Top = o.top
	}
	if set("title") {
		t.Options.Title = o.title
	}
	if set("for") {
		t.Options.For = o.forAddr
	}
	if set("email") {
		t.Options.Email = o.email
	}
	if set("report") {
		r, err := parseReport(o.report)
		if err != nil {
			return usageError{err}
		}
		t.Options.Report = r
	}
	if set("every") {
		m, err := parseEvery(o.every)
		if err != nil {
			return usageError{err}
		}
		t.Options.EveryMinutes = m
	}
	if set("max-pages") {
		t.Options.MaxPages = o.maxPages
	}
	if set("max-depth") {
		t.Options.MaxDepth = o.maxDepth
	}
	if set("index-file") {
		t.Options.IndexFile = o.indexFile
	}
	if set("internal-only") {
		t.Options.InternalOnly = o.internalOnly
	}
	return nil
}

// parseReport reads "moved,broken,changed=7,expiring=7".
func parseReport(s string) (check.Report, error) {
	var r check.Report
	for _, part := range strings.Split(s, ",") {
		k, v, hasV := strings.Cut(strings.TrimSpace(part), "=")
		days := 7
		if hasV {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return r, fmt.Errorf("--report: %q wants a number of days", part)
			}
			days = n
		}
		switch k {
		case "":
		case "moved":
			r.Moved = true
		case "broken":
			r.Broken = true
		case "changed":
			r.ChangedDays = days
		case "expiring":
			r.ExpiringDays = days
		default:
			return r, fmt.Errorf("--report: %q is not moved, broken, changed or expiring", k)
		}
	}
	return r, nil
}

// parseEvery reads a period: Go durations (6h, 90m) and days (1d, 7d); "" or 0 is none.
func parseEvery(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "0" {
		return 0, nil
	}
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n < 1 {
			return 0, fmt.Errorf("--every: %q is not a number of days", s)
		}
		return n * 24 * 60, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("--every: %q is not a period like 6h or 7d", s)
	}
	return int(d / time.Minute), nil
}

func (e *env) listTasks(ctx context.Context) error {
	st, err := e.open(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	ts, err := check.Tasks(ctx, st)
	if err != nil {
		return err
	}
	if e.json {
		out := make([]app.CheckTask, 0, len(ts))
		for _, t := range ts {
			out = append(out, app.TaskOf(t))
		}
		return e.printJSON(out)
	}
	if len(ts) == 0 {
		fmt.Fprintln(e.stdout, "No tasks yet: mundaneum task add NAME --type site --top URL")
		return nil
	}
	for _, t := range ts {
		sched := "when asked"
		if m := t.Options.EveryMinutes; m > 0 {
			sched = "every " + (time.Duration(m) * time.Minute).String()
		}
		last := "never run"
		if !t.LastRunAt.IsZero() {
			last = "last run " + t.LastRunAt.Format("2006-01-02 15:04")
		}
		fmt.Fprintf(e.stdout, "%-20s %-7s %s\n%20s %s, %s", clean(t.Name), t.Type, clean(t.Top), "", sched, last)
		if t.Options.For != "" {
			fmt.Fprintf(e.stdout, ", for %s", clean(t.Options.For))
		}
		fmt.Fprintln(e.stdout)
	}
	return nil
}

func (e *env) saveTask(ctx context.Context, cmd *cobra.Command, name string, o taskFlags, add bool) error {
	st, err := e.open(ctx, false)
	if err != nil {
		return err
	}
	defer st.Close()
	var t check.Task
	if add {
		t = check.Task{Name: name}
		if err := o.apply(cmd, &t, true); err != nil {
			return err
		}
		t, err = check.AddTask(ctx, st, t)
	} else {
		if t, err = check.TaskNamed(ctx, st, name); err != nil {
			return noTask(name, err)
		}
		if err := o.apply(cmd, &t, false); err != nil {
			return err
		}
		t, err = check.UpdateTask(ctx, st, t)
	}
	if err != nil {
		return taskErr(err)
	}
	if e.json {
		return e.printJSON(app.TaskOf(t))
	}
	fmt.Fprintf(e.stdout, "Saved task %q: %s %s\n", clean(t.Name), t.Type, clean(t.Top))
	return nil
}

func (e *env) removeTask(ctx context.Context, name string) error {
	st, err := e.open(ctx, false)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := check.DeleteTask(ctx, st, name); err != nil {
		return noTask(name, err)
	}
	if e.json {
		return e.printJSON(map[string]string{"deleted": name})
	}
	fmt.Fprintf(e.stdout, "Deleted task %q with its rules and reports\n", clean(name))
	return nil
}

func (e *env) importTasks(ctx context.Context, path string) error {
	var ti check.TaskImport
	err := e.withImport(ctx, path, func(st *store.Store, r io.Reader) (err error) {
		ti, err = check.ImportTasks(ctx, st, r)
		return err
	})
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSON(map[string]any{"added": ti.Added, "skipped": ti.Skipped, "warnings": ti.Warnings})
	}
	fmt.Fprintf(e.stdout, "Imported %d task(s): %s\n", len(ti.Added), clean(strings.Join(ti.Added, ", ")))
	for _, s := range ti.Skipped {
		fmt.Fprintf(e.stdout, "skipped %s\n", clean(s))
	}
	for _, w := range ti.Warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", clean(w))
	}
	return nil
}

// noTask turns a missing task into a usage error that names it.
func noTask(name string, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return usageError{fmt.Errorf("no task named %q (see 'mundaneum task ls')", name)}
	}
	return taskErr(err)
}

// taskErr makes a task the user got wrong a usage error.
func taskErr(err error) error {
	if errors.Is(err, check.ErrBadTask) || errors.Is(err, store.ErrExists) || errors.Is(err, momfile.ErrSyntax) {
		return usageError{err}
	}
	return err
}

package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"mundaneum/app"
	"mundaneum/backend/check"
	"mundaneum/backend/check/record"
	"mundaneum/backend/check/report"
	"mundaneum/backend/store"
)

// ExitBroken is the exit code of `check URL...` when a link fails (broken, server error,
// timeout, invalid): scripts and CI can test for it.
const ExitBroken = 6

// errBroken makes `check URL...` exit with ExitBroken.
var errBroken = errors.New("some links fail")

func (e *env) checkCmd() *cobra.Command {
	var tasks []string
	var all, due bool
	var pol politeFlags
	cmd := &cobra.Command{
		Use:   "check [URL...] [--task NAME]... [--all | --due]",
		Short: "Check links now, or run maintenance tasks (MOMspider's link checks and change reports)",
		Long: `Check the given links now, or run maintenance tasks (see 'mundaneum task').

  mundaneum check https://example.org/a https://example.org/b
  mundaneum check --task docs          run one task (repeat --task for more)
  mundaneum check --all                run every task
  mundaneum check --due                run the tasks whose schedule says so (for cron)

A URL is tested once per run however many tasks reference it: HEAD first, GET when HEAD
is refused or fails, behind robots.txt and per-host politeness (the workspace's settings).
Verdicts: ok, redirected, broken, server_error, blocked, rate_limited, timeout,
robots_excluded, invalid, fragment_missing, offline. Blocked and rate-limited links are never
called dead; a failing link is dead only after several failing checks spread over time
('mundaneum check' keeps every check as history). A link to a part of a page (URL#part) is
fragment_missing when the page has no element with that id or name: never broken. Checking URLs exits 6 when one of them fails. When no host
outside this machine can be reached, the run says this machine is offline, records the
links to other hosts as offline (not broken, their health untouched) and exits 3.

After a task run: each task's report is stored ('mundaneum report'), its index file
written when it has one, its news mailed when it asks for it, and a desktop notification
shown when a session is there to show it. With --due, a workspace that is open in the
window or in 'mundaneum serve' is left to them (they run the same schedule).`,
		Args: usageArgs(cobra.ArbitraryArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			n := 0
			for _, b := range []bool{len(args) > 0, len(tasks) > 0, all, due} {
				if b {
					n++
				}
			}
			if n != 1 {
				return usageError{errors.New("give URLs, or --task NAME, or --all, or --due")}
			}
			return e.check(cmd.Context(), cmd, args, tasks, all, due, pol)
		},
	}
	f := cmd.Flags()
	f.IntVar(&pol.agents, "agents", 0, "parallel requests (default: the workspace's setting, 16 unless changed)")
	f.IntVar(&pol.perHost, "per-host", 0, "parallel requests per host (default: the workspace's setting, 2 unless changed)")
	f.DurationVar(&pol.delay, "delay", 0, "gap between requests to one host, e.g. 500ms (default: the workspace's setting, 1s\nunless changed; 0: none, for your own servers; robots.txt Crawl-delay still applies)")
	f.StringArrayVar(&tasks, "task", nil, "run this task (repeatable)")
	f.BoolVar(&all, "all", false, "run every task")
	f.BoolVar(&due, "due", false, "run the tasks that are due by their schedule (for cron)")
	return cmd
}

// taskRunJSON is one task's outcome in --json output.
type taskRunJSON struct {
	Task     string           `json:"task"`
	ReportID int64            `json:"reportId,omitempty"`
	Error    string           `json:"error,omitempty"`
	News     check.NewsCounts `json:"news"`
	Links    []app.LinkCheck  `json:"links"` // as the window lists a run's links
}

type checkJSON struct {
	RunID    int64           `json:"runId"`
	State    string          `json:"state"`
	Tested   int64           `json:"tested"`
	Requests int64           `json:"requests"`
	Seconds  float64         `json:"seconds"`
	Links    []app.LinkCheck `json:"links,omitempty"`
	Tasks    []taskRunJSON   `json:"tasks,omitempty"`
	Error    string          `json:"error,omitempty"`
	// Offline says why this machine was offline and what it left untested (check.Result).
	Offline string `json:"offline,omitempty"`
}

// politeFlags override the workspace's politeness settings for one run.
type politeFlags struct {
	agents, perHost int
	delay           time.Duration
}

func (p politeFlags) apply(cmd *cobra.Command, cfg *check.Config) {
	if cmd.Flags().Changed("agents") && p.agents > 0 {
		cfg.Agents = p.agents
	}
	if cmd.Flags().Changed("per-host") && p.perHost > 0 {
		cfg.PerHost = p.perHost
	}
	if cmd.Flags().Changed("delay") && p.delay >= 0 {
		cfg.Delay = p.delay
	}
}

func (e *env) check(ctx context.Context, cmd *cobra.Command, urls, names []string, all, due bool, pol politeFlags) error {
	st, err := e.open(ctx, false)
	if errors.Is(err, store.ErrLocked) {
		if due {
			fmt.Fprintln(e.stderr, "mundaneum: the workspace is open in Mundaneum, which runs the due tasks itself")
			return nil
		}
		return fmt.Errorf("%w (its window or 'mundaneum serve' runs maintenance: use its Maintenance view)", err)
	}
	if err != nil {
		return err
	}
	defer st.Close()
	req := check.Request{URLs: urls, Library: app.CheckLibrary(st)}
	if len(urls) == 0 {
		if req.Tasks, err = e.selectTasks(ctx, st, names, all, due); err != nil {
			return err
		}
		if len(req.Tasks) == 0 {
			if !e.json {
				fmt.Fprintln(e.stderr, "no task is due")
				return nil
			}
			return e.printJSON(checkJSON{State: "idle"})
		}
	}
	ws, err := st.Settings(ctx)
	if err != nil {
		return err
	}
	cs, err := check.LoadSettings(ctx, st)
	if err != nil {
		return err
	}
	cfg := check.ConfigFor(app.CheckCrawling(ws), cs)
	pol.apply(cmd, &cfg)
	bar := newCheckBar(e.stderr, isTerminal(e.stderr))
	start := time.Now()
	res, runErr := check.Run(ctx, st, cfg, req, bar.update)
	bar.done()
	if errors.Is(runErr, context.Canceled) {
		runErr = errInterrupted
	}
	out := checkJSON{RunID: res.Run.ID, State: res.Run.State, Tested: res.Run.Tested, Requests: res.Run.Requests,
		Seconds: time.Since(start).Seconds(), Offline: res.Offline}
	failing := false
	for _, l := range res.Links {
		lj := app.LinkCheckOf(l)
		failing = failing || check.Kind(lj.Verdict).Failing()
		out.Links = append(out.Links, lj)
	}
	if runErr == nil {
		notices, err := check.After(ctx, st, cs, res)
		if err != nil {
			fmt.Fprintln(e.stderr, "mundaneum:", err)
		}
		if cs.Notify {
			for _, n := range notices {
				_ = app.DesktopNotifier{}.Notify(ctx, n.Title, n.Text) // best effort: cron has no desktop
			}
		}
		for _, rr := range res.Reports {
			tj := taskRunJSON{Task: rr.Task.Name, ReportID: rr.ReportID, Error: rr.Err, News: rr.News}
			if rr.ReportID > 0 && e.json {
				m, err := report.Load(ctx, st, rr.ReportID)
				if err != nil {
					return err
				}
				tj.Links = reportLinks(m)
			}
			out.Tasks = append(out.Tasks, tj)
		}
	} else {
		out.Error = runErr.Error()
	}
	if e.json {
		if err := e.printJSON(out); err != nil {
			return err
		}
	} else {
		e.printCheck(out)
	}
	if runErr != nil {
		return runErr
	}
	if res.Offline != "" {
		return fmt.Errorf("%w: %s", check.ErrOffline, strings.TrimPrefix(res.Offline, "this machine was offline "))
	}
	if failing {
		return errBroken
	}
	return nil
}

// selectTasks returns the tasks to run: named, all, or due now.
func (e *env) selectTasks(ctx context.Context, st *store.Store, names []string, all, due bool) ([]check.Task, error) {
	ts, err := check.Tasks(ctx, st)
	if err != nil {
		return nil, err
	}
	var out []check.Task
	for _, name := range names {
		found := false
		for _, t := range ts {
			if t.Name == name {
				out, found = append(out, t), true
			}
		}
		if !found {
			return nil, usageError{fmt.Errorf("no task named %q (see 'mundaneum task ls')", name)}
		}
	}
	now := time.Now()
	for _, t := range ts {
		if all || due && t.Due(now) {
			out = append(out, t)
		}
	}
	return out, nil
}

// reportLinks lists every tested link of a report.
func reportLinks(m *report.Model) []app.LinkCheck {
	out := make([]app.LinkCheck, 0, len(m.Links))
	for _, l := range m.Links {
		if l.Tested {
			out = append(out, app.ReportLinkOf(l))
		}
	}
	return out
}

func (e *env) printCheck(out checkJSON) {
	for _, l := range out.Links {
		line := fmt.Sprintf("%-15s %3s %s", l.Verdict, statusText(l.Status), clean(l.URL))
		if l.Verdict != "ok" {
			line += "  " + clean(l.Reason)
		}
		if l.Dead {
			line += " [dead]"
		}
		fmt.Fprintln(e.stdout, line)
	}
	for _, t := range out.Tasks {
		if t.Error != "" {
			fmt.Fprintf(e.stdout, "task %s: %s\n", clean(t.Task), clean(t.Error))
			continue
		}
		n := t.News
		broken := fmt.Sprintf("%d broken", n.Broken)
		if f := n.FailingText(); f != "" {
			broken += " (" + f + ")"
		}
		fmt.Fprintf(e.stdout, "task %s: report %d: %d moved, %s, %d changed, %d expiring, %d missing fragments", clean(t.Task),
			t.ReportID, n.Moved, broken, n.Changed, n.Expiring, n.Fragments)
		if n.Tell() > 0 {
			fmt.Fprintf(e.stdout, " (new: %d dead, %d moved, %d changed, %d expiring)", n.TellDead, n.TellMoved, n.TellChanged, n.TellExpire)
		}
		fmt.Fprintln(e.stdout)
	}
	fmt.Fprintf(e.stdout, "run %d %s: %d links tested with %d requests in %.1fs\n", out.RunID, out.State, out.Tested, out.Requests, out.Seconds)
	if out.Offline != "" {
		fmt.Fprintf(e.stdout, "offline: %s\n", clean(out.Offline))
	}
}

func statusText(s int) string {
	if s == 0 {
		return "-"
	}
	return fmt.Sprint(s)
}

// checkBar shows a check run's progress: a live line on a terminal, a line every few
// seconds otherwise.
type checkBar struct {
	w     io.Writer
	tty   bool
	last  time.Time
	drawn bool
}

func newCheckBar(w io.Writer, tty bool) *checkBar { return &checkBar{w: w, tty: tty} }

func (b *checkBar) update(p check.Progress) {
	now := time.Now()
	every := 5 * time.Second
	if b.tty {
		every = 100 * time.Millisecond
	}
	if now.Sub(b.last) < every && p.State == record.RunRunning {
		return
	}
	b.last = now
	var bad []string
	for _, k := range check.Kinds {
		if n := p.Verdicts[k]; n > 0 && k != check.OK {
			bad = append(bad, fmt.Sprintf("%d %s", n, strings.ReplaceAll(string(k), "_", " ")))
		}
	}
	line := fmt.Sprintf("%d tested · %d documents · %d queued · %.0f links/s · %s", p.Tested, p.Documents, p.Queued,
		p.PerSec, p.Elapsed.Round(time.Second))
	if len(bad) > 0 {
		line += " · " + strings.Join(bad, ", ")
	}
	if b.tty {
		fmt.Fprintf(b.w, "\r\x1b[K%s", line)
		b.drawn = true
		return
	}
	fmt.Fprintln(b.w, line)
}

func (b *checkBar) done() {
	if b.tty && b.drawn {
		fmt.Fprintln(b.w)
	}
}

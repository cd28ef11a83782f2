package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"mundaneum/app"
	"mundaneum/backend/check"
	"mundaneum/backend/check/report"
	"mundaneum/backend/store"
)

func (e *env) reportCmd() *cobra.Command {
	var format, output string
	var id int64
	cmd := &cobra.Command{
		Use:   "report [TASK] [--format html|csv|json] [--id N] [-o FILE]",
		Short: "A maintenance task's latest report: news, or the whole index as HTML, CSV or JSON",
		Long: `Show a task's latest report (or report --id N), or list the reports when no task is named.

Without --format it prints the report's news: MOMspider's four kinds (moved, broken,
recently changed, expiring). --format html writes the index document as MOMspider wrote
it (each document with its header information and typed references, cross-references,
the closing table of news); csv writes one row per reference; json the whole report.`,
		Args: usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch format {
			case "", "html", "csv", "json":
			default:
				return usageError{fmt.Errorf("--format is html, csv or json, not %q", format)}
			}
			task := ""
			if len(args) == 1 {
				task = args[0]
			}
			return e.report(cmd.Context(), task, id, format, output)
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "html, csv or json (default: the news as text, or JSON with --json)")
	cmd.Flags().Int64Var(&id, "id", 0, "this report instead of the task's latest")
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to this file instead of standard output")
	return cmd
}

func (e *env) report(ctx context.Context, task string, id int64, format, output string) error {
	st, err := e.open(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	if task == "" && id == 0 {
		return e.listReports(ctx, st)
	}
	if id == 0 {
		t, err := check.TaskNamed(ctx, st, task)
		if err != nil {
			return noTask(task, err)
		}
		rs, err := st.Reports(ctx, t.ID, 1)
		if err != nil {
			return err
		}
		if len(rs) == 0 {
			return usageError{fmt.Errorf("task %q has no report yet: run 'mundaneum check --task %s'", task, task)}
		}
		id = rs[0].ID
	}
	m, err := report.Load(ctx, st, id)
	if err != nil {
		return noReport(id, err)
	}
	if format == "" && e.json {
		format = "json"
	}
	var w io.Writer = e.stdout
	if output != "" {
		f, err := os.Create(output)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	switch format {
	case "html":
		return report.WriteHTML(w, m)
	case "csv":
		return report.WriteCSV(w, m)
	case "json":
		return report.WriteJSON(w, m)
	}
	printNews(w, m)
	return nil
}

func noReport(id int64, err error) error {
	if errors.Is(err, check.ErrNoTask) {
		return usageError{fmt.Errorf("no report %d", id)}
	}
	return err
}

func printNews(w io.Writer, m *report.Model) {
	fmt.Fprintf(w, "Report %d of task %s (%s %s), %s, run %d took %s\n", m.ID, clean(m.Task.Name), m.Task.Type,
		clean(m.Task.Top), m.Generated.Local().Format("2006-01-02 15:04"), m.RunID, m.Elapsed)
	c := m.Counts
	fmt.Fprint(w, c.Summary(m.Task.Type))
	var kinds []string
	for _, k := range check.Kinds {
		if n := c.Verdicts[string(k)]; n > 0 {
			kinds = append(kinds, fmt.Sprintf("%d %s", n, strings.ReplaceAll(string(k), "_", " ")))
		}
	}
	if len(kinds) > 0 {
		fmt.Fprintf(w, ": %s", strings.Join(kinds, ", "))
	}
	fmt.Fprintln(w)
	if c.Dead > 0 {
		fmt.Fprintf(w, "%d dead", c.Dead)
		if c.Failing > 0 {
			fmt.Fprint(w, "; ")
		}
	}
	if f := report.FailingText(c.Failing, c.DeadFrom, c.ChecksLeft); f != "" {
		fmt.Fprint(w, f)
	}
	if c.Dead > 0 || c.Failing > 0 {
		fmt.Fprintln(w)
	}
	if m.Note != "" {
		fmt.Fprintln(w, clean(m.Note))
	}
	for _, l := range m.News.Lists() {
		fmt.Fprintf(w, "\n%s (%d)\n", l.Kind, len(l.Items))
		for _, it := range l.Items {
			mark := "  "
			if it.New {
				mark = "+ "
			}
			if it.Dead {
				mark += "[dead] "
			}
			fmt.Fprintf(w, "%s%s\n    %s\n", mark, clean(it.URL), clean(it.Detail))
			if len(it.From) > 0 {
				fmt.Fprintf(w, "    cited by %s%s\n", clean(strings.Join(it.From, ", ")), moreCiting(it.FromMore))
			}
		}
	}
}

func (e *env) listReports(ctx context.Context, st *store.Store) error {
	rs, err := st.Reports(ctx, 0, 100)
	if err != nil {
		return err
	}
	if e.json {
		out := make([]app.CheckReportInfo, 0, len(rs))
		for _, r := range rs {
			out = append(out, app.ReportInfoOf(r))
		}
		return e.printJSON(out)
	}
	if len(rs) == 0 {
		fmt.Fprintln(e.stdout, "No reports yet: mundaneum check --all")
		return nil
	}
	for _, r := range rs {
		fmt.Fprintf(e.stdout, "%6d  %-20s run %d, %d documents\n", r.ID, clean(r.Task), r.RunID, r.Docs)
	}
	return nil
}

// moreCiting says how many more documents cite a piece of news than are listed.
func moreCiting(n int) string {
	switch {
	case n == 1:
		return " and 1 more document"
	case n > 1:
		return fmt.Sprintf(" and %d more documents", n)
	}
	return ""
}

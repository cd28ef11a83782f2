package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"mundaneum/app"
	"mundaneum/backend/check"
	"mundaneum/backend/check/momfile"
	"mundaneum/backend/store"
)

func (e *env) avoidCmd() *cobra.Command {
	var task, expires string
	cmd := &cobra.Command{
		Use:   "avoid [ls | add avoid|leaf PREFIX | rm ID | import FILE | export] [--task NAME]",
		Short: "Avoid and Leaf URL prefixes of maintenance runs (MOMspider's avoid file)",
		Long: `URL prefixes that runs avoid (neither test nor traverse) or leaf (test, never traverse),
system-wide or for one task (--task), each with an optional expiry date.

  mundaneum avoid add avoid https://example.org/calendar/ --expires 2027-01-01
  mundaneum avoid add leaf https://example.org/archive/ --task docs
  mundaneum avoid import ~/.momspider-avoid     MOMspider's avoid file
  mundaneum avoid export > avoid.mom`,
		Args: usageArgs(cobra.ArbitraryArgs),
		RunE: func(cmd *cobra.Command, args []string) error { return e.avoid(cmd.Context(), args, task, expires) },
	}
	cmd.Flags().StringVar(&task, "task", "", "the task's own rules (default: the system-wide rules)")
	cmd.Flags().StringVar(&expires, "expires", "", "the rule no longer applies after this date (YYYY-MM-DD or RFC 3339)")
	return cmd
}

// avoid lists, adds, removes, imports or exports the avoid and leaf rules of task (or the system-wide ones).
func (e *env) avoid(ctx context.Context, args []string, task, expires string) error {
	if len(args) == 0 {
		args = []string{"ls"}
	}
	switch verb, rest := args[0], args[1:]; {
	case verb == "ls" && len(rest) == 0:
		return e.listRules(ctx, task)
	case verb == "add" && len(rest) == 2:
		return e.addRule(ctx, task, rest[0], rest[1], expires)
	case verb == "rm" && len(rest) == 1:
		return e.removeRule(ctx, rest[0])
	case verb == "import" && len(rest) == 1:
		return e.importRules(ctx, task, rest[0])
	case verb == "export" && len(rest) == 0:
		return e.exportRules(ctx, task)
	}
	return usageError{errors.New("usage: avoid [ls | add avoid|leaf PREFIX | rm ID | import FILE | export] [--task NAME]")}
}

// taskIDOf is a task's id, 0 for "" (the system-wide list).
func taskIDOf(ctx context.Context, st check.TaskStore, name string) (int64, error) {
	if name == "" {
		return 0, nil
	}
	t, err := check.TaskNamed(ctx, st, name)
	if err != nil {
		return 0, noTask(name, err)
	}
	return t.ID, nil
}

// rulesOf reads the rules of a task, or the system-wide ones for "".
func (e *env) rulesOf(ctx context.Context, task string) ([]check.Rule, error) {
	st, err := e.open(ctx, true)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	id, err := taskIDOf(ctx, st, task)
	if err != nil {
		return nil, err
	}
	return check.Rules(ctx, st, id)
}

// withImport opens a file to import and the workspace for writing, and hands both to fn.
func (e *env) withImport(ctx context.Context, path string, fn func(st *store.Store, r io.Reader) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := e.open(ctx, false)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := fn(st, f); err != nil {
		return taskErr(fmt.Errorf("%s: %w", path, err))
	}
	return nil
}

func (e *env) listRules(ctx context.Context, task string) error {
	rs, err := e.rulesOf(ctx, task)
	if err != nil {
		return err
	}
	now := time.Now()
	if e.json {
		out := make([]app.AvoidRule, 0, len(rs))
		for _, r := range rs {
			out = append(out, app.AvoidRuleOf(r))
		}
		return e.printJSON(out)
	}
	if len(rs) == 0 {
		fmt.Fprintln(e.stdout, "No rules: mundaneum avoid add avoid|leaf PREFIX")
		return nil
	}
	for _, r := range rs {
		exp := "never expires"
		if !r.Expires.IsZero() {
			exp = "expires " + r.Expires.Format("2006-01-02")
			if !r.Active(now) {
				exp = "expired " + r.Expires.Format("2006-01-02")
			}
		}
		fmt.Fprintf(e.stdout, "%5d  %-5s %s  (%s)\n", r.ID, r.Action, clean(r.Prefix), exp)
	}
	return nil
}

func (e *env) addRule(ctx context.Context, task, action, prefix, expires string) error {
	st, err := e.open(ctx, false)
	if err != nil {
		return err
	}
	defer st.Close()
	id, err := taskIDOf(ctx, st, task)
	if err != nil {
		return err
	}
	r := check.Rule{TaskID: id, Action: action, Prefix: prefix}
	if expires != "" {
		t, ok := momfile.ParseDate(expires)
		if !ok {
			return usageError{fmt.Errorf("--expires: cannot read the date %q", expires)}
		}
		r.Expires = t
	}
	if _, err := check.AddRules(ctx, st, []check.Rule{r}); err != nil {
		return taskErr(err)
	}
	if !e.json {
		fmt.Fprintf(e.stdout, "Added: %s %s\n", action, clean(prefix))
		return nil
	}
	return e.printJSON(map[string]string{"added": prefix})
}

func (e *env) removeRule(ctx context.Context, arg string) error {
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil {
		return usageError{fmt.Errorf("avoid rm takes a rule's number (see 'mundaneum avoid ls'), not %q", arg)}
	}
	st, err := e.open(ctx, false)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.DeleteRule(ctx, id); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return usageError{fmt.Errorf("no rule %d", id)}
		}
		return err
	}
	if !e.json {
		fmt.Fprintf(e.stdout, "Deleted rule %d\n", id)
		return nil
	}
	return e.printJSON(map[string]int64{"deleted": id})
}

func (e *env) importRules(ctx context.Context, task, path string) error {
	var n int
	err := e.withImport(ctx, path, func(st *store.Store, r io.Reader) error {
		id, err := taskIDOf(ctx, st, task)
		if err == nil {
			n, err = check.ImportRules(ctx, st, id, r)
		}
		return err
	})
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSON(map[string]int{"added": n})
	}
	fmt.Fprintf(e.stdout, "Imported %s: %d new rule(s)\n", path, n)
	return nil
}

func (e *env) exportRules(ctx context.Context, task string) error {
	rs, err := e.rulesOf(ctx, task)
	if err != nil {
		return err
	}
	return check.ExportRules(e.stdout, rs)
}

func (e *env) sitesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "sites [ls | expire ORIGIN [now|never|DATE] | import FILE | export]",
		Short: "The robots.txt table: which sites' robots.txt is kept, until when (MOMspider's sites file)",
		Long: `Each site's robots.txt is fetched once and kept until it expires (a day by default; see
the maintenance settings), as MOMspider's sites file recorded.

  mundaneum sites                                  list them
  mundaneum sites expire https://example.org now   fetch it again at the next request
  mundaneum sites expire https://example.org never keep it (MOMspider's [*])
  mundaneum sites import ~/.momspider-sites        set the expiries of a sites file`,
		Args: usageArgs(cobra.ArbitraryArgs),
		RunE: func(cmd *cobra.Command, args []string) error { return e.sites(cmd.Context(), args) },
	}
}

// sites lists, expires, imports or exports the robots.txt table.
func (e *env) sites(ctx context.Context, args []string) error {
	if len(args) == 0 {
		args = []string{"ls"}
	}
	switch verb, rest := args[0], args[1:]; {
	case verb == "ls" && len(rest) == 0:
		return e.listSites(ctx)
	case verb == "expire" && (len(rest) == 1 || len(rest) == 2):
		when := "now"
		if len(rest) == 2 {
			when = rest[1]
		}
		return e.expireSite(ctx, rest[0], when)
	case verb == "import" && len(rest) == 1:
		return e.importSites(ctx, rest[0])
	case verb == "export" && len(rest) == 0:
		st, err := e.open(ctx, true)
		if err != nil {
			return err
		}
		defer st.Close()
		ss, err := st.RobotsSites(ctx)
		if err != nil {
			return err
		}
		return check.ExportSites(e.stdout, ss)
	}
	return usageError{errors.New("usage: sites [ls | expire ORIGIN [now|never|DATE] | import FILE | export]")}
}

func (e *env) listSites(ctx context.Context) error {
	st, err := e.open(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	ss, err := st.RobotsSites(ctx)
	if err != nil {
		return err
	}
	if e.json {
		out := make([]app.RobotsSite, 0, len(ss))
		for _, s := range ss {
			out = append(out, app.SiteOf(s))
		}
		return e.printJSON(out)
	}
	if len(ss) == 0 {
		fmt.Fprintln(e.stdout, "No robots.txt kept yet: crawls and checks fetch them as they go")
		return nil
	}
	for _, s := range ss {
		exp := time.UnixMilli(s.ExpiresAt)
		until := "until " + exp.Format("2006-01-02 15:04")
		if exp.Year() >= 9999 {
			until = "kept for good"
		}
		status := strconv.Itoa(s.Status)
		if s.Status == 0 {
			status = "no answer"
		}
		fmt.Fprintf(e.stdout, "%-40s %-9s %6d B  %s\n", clean(s.Origin), status, s.Bytes, until)
	}
	return nil
}

func (e *env) expireSite(ctx context.Context, origin, when string) error {
	var at time.Time
	switch when {
	case "now":
		at = time.Now()
	case "never":
		at = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
	default:
		t, ok := momfile.ParseDate(when)
		if !ok {
			return usageError{fmt.Errorf("cannot read the date %q", when)}
		}
		at = t
	}
	st, err := e.open(ctx, false)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.SetRobotsExpiry(ctx, strings.TrimSuffix(origin, "/"), at.UnixMilli()); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return usageError{fmt.Errorf("no robots.txt kept for %q (see 'mundaneum sites')", origin)}
		}
		return err
	}
	if !e.json {
		fmt.Fprintf(e.stdout, "robots.txt of %s: %s\n", clean(origin), when)
		return nil
	}
	return e.printJSON(map[string]string{"origin": origin, "expires": at.UTC().Format(time.RFC3339)})
}

func (e *env) importSites(ctx context.Context, path string) error {
	var si check.SiteImport
	err := e.withImport(ctx, path, func(st *store.Store, r io.Reader) (err error) {
		si, err = check.ImportSites(ctx, st, r)
		return err
	})
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSON(map[string]any{"updated": si.Updated, "unknown": si.Unknown})
	}
	fmt.Fprintf(e.stdout, "Set the expiry of %d site(s)\n", si.Updated)
	if len(si.Unknown) > 0 {
		fmt.Fprintf(e.stdout, "%d site(s) have no robots.txt here yet (fetched when first needed): %s\n", len(si.Unknown), strings.Join(si.Unknown, ", "))
	}
	return nil
}

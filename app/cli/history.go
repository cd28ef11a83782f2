package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"mundaneum/app"
	"mundaneum/backend/history"
	"mundaneum/backend/store"
	"mundaneum/backend/urlnorm"
)

// historyJSON is history --json: the window's versions (app.PageVersion) of one page.
type historyJSON struct {
	URL      string            `json:"url"`
	PageID   int64             `json:"pageId"`
	Versions []app.PageVersion `json:"versions"`
}

func stamp(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.RFC3339) }

// pageOf finds a URL's page in the workspace.
func pageOf(ctx context.Context, st *store.Store, raw string) (int64, string, error) {
	u, err := urlnorm.Normalize(raw)
	if err != nil {
		return 0, "", usageError{fmt.Errorf("%s: %w", raw, err)}
	}
	id, err := st.PageID(ctx, u)
	if errors.Is(err, store.ErrNotFound) {
		return 0, u, fmt.Errorf("%s is not in the workspace", u)
	}
	return id, u, err
}

func (e *env) historyCmd() *cobra.Command {
	var headers bool
	cmd := &cobra.Command{
		Use:   "history URL",
		Short: "The versions of a page: every content it had, with dates",
		Long: `List the versions of a page, oldest first: when each content was first fetched, when the
server last answered with it again, its status, size and title, and whether the 200 answer
was in fact a dead page (soft-404: the site's error page; parked: a domain-parking page).
Compare two with 'mundaneum diff URL --from N --to M'.`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error { return e.history(cmd.Context(), args, headers) },
	}
	cmd.Flags().BoolVar(&headers, "headers", false, "show each version's response headers")
	return cmd
}

// history lists the versions of the page at args[0].
func (e *env) history(ctx context.Context, args []string, headers bool) error {
	st, err := e.open(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	id, u, err := pageOf(ctx, st, args[0])
	if err != nil {
		return err
	}
	if e.json {
		vs, err := app.PageHistory(ctx, st, id, headers)
		if err != nil {
			return err
		}
		return e.printJSON(historyJSON{URL: u, PageID: id, Versions: vs})
	}
	vs, err := st.Versions(ctx, id)
	if err != nil {
		return err
	}
	if len(vs) == 0 {
		fmt.Fprintf(e.stdout, "%s: no version kept (never fetched with content)\n", u)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s: %d version(s)\n", u, len(vs))
	for i, v := range vs {
		e.printVersion(i+1, v)
		if headers && v.Header != "" {
			for _, l := range strings.Split(strings.TrimRight(v.Header, "\r\n"), "\r\n") {
				fmt.Fprintf(e.stdout, "      %s\n", clean(l))
			}
		}
	}
	return nil
}

func (e *env) printVersion(n int, v store.Version) {
	var notes []string
	if v.ConfirmedAt > 0 {
		notes = append(notes, fmt.Sprintf("still so at %s (%d)", stamp(v.ConfirmedAt), v.ConfirmedStatus))
	}
	if v.Flag != "" {
		notes = append(notes, "looks dead: "+v.Flag)
	}
	if v.Current {
		notes = append(notes, "current")
	}
	if !v.Cached {
		notes = append(notes, "body not kept")
	}
	line := fmt.Sprintf("  %2d  %s  %d  %s  %s", n, stamp(v.FetchedAt), v.Status, humanBytes(v.Size), clean(v.Title))
	if len(notes) > 0 {
		line += "  [" + strings.Join(notes, "; ") + "]"
	}
	fmt.Fprintln(e.stdout, line)
}

func (e *env) diffCmd() *cobra.Command {
	var from, to string
	var context int
	var full bool
	cmd := &cobra.Command{
		Use:   "diff URL",
		Short: "What changed in a page between two versions, word by word",
		Long: `Compare the extracted text of two versions of a page, word by word: removed words are
shown [-like this-] and added ones {+like this+} (in colour on a terminal).

--from and --to name a version by its number in 'mundaneum history URL' (1 the oldest,
-1 the newest) or by a time (2026-03-01, "2026-03-01 14:30", RFC 3339): the version in
force then. By default --to is the newest version and --from the one before it.`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.diff(cmd.Context(), args, from, to, context, full)
		},
	}
	f := cmd.Flags()
	f.StringVar(&from, "from", "", "the older version: a number from 'history' or a time")
	f.StringVar(&to, "to", "", "the newer version: a number from 'history' or a time (default: the newest)")
	f.IntVar(&context, "context", 8, "unchanged words shown around each change")
	f.BoolVar(&full, "full", false, "show the whole text, not only the changes")
	return cmd
}

// diff prints what changed in the page at args[0] between the versions from and to.
func (e *env) diff(ctx context.Context, args []string, from, to string, around int, full bool) error {
	st, err := e.open(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	id, u, err := pageOf(ctx, st, args[0])
	if err != nil {
		return err
	}
	vs, err := st.Versions(ctx, id)
	if err != nil {
		return err
	}
	if len(vs) == 0 {
		return fmt.Errorf("%s has no version to compare", u)
	}
	var fromID, toID int64
	n := map[int64]int{}
	for i, v := range vs {
		n[v.ID] = i + 1
	}
	if to != "" {
		v, err := history.Pick(vs, to)
		if err != nil {
			return usageError{fmt.Errorf("--to: %w", err)}
		}
		toID = v.ID
	}
	if from != "" {
		v, err := history.Pick(vs, from)
		if err != nil {
			return usageError{fmt.Errorf("--from: %w", err)}
		}
		fromID = v.ID
	}
	if e.json {
		if full {
			around = -1
		}
		d, err := app.ComparePage(ctx, st, id, fromID, toID, around)
		if err != nil {
			return err
		}
		return e.printJSON(d)
	}
	c, err := history.Compare(ctx, st, id, fromID, toID)
	if err != nil {
		return err
	}
	e.printDiff(c, n, around, full)
	return nil
}

func (e *env) printDiff(c history.Comparison, n map[int64]int, context int, full bool) {
	w := e.stdout
	label := func(v store.Version) string {
		s := "#" + strconv.Itoa(n[v.ID]) + " of " + stamp(v.FetchedAt)
		if v.Flag != "" {
			s += " (looks dead: " + v.Flag + ")"
		}
		return s
	}
	if c.From.ID == 0 {
		fmt.Fprintf(w, "%s: only one version, %s; everything in it is new\n", c.Page.URL, label(c.To))
	} else {
		fmt.Fprintf(w, "%s: %s -> %s: %d word(s) added, %d removed\n", c.Page.URL, label(c.From), label(c.To), c.Added, c.Removed)
	}
	if c.From.ID != 0 && c.From.Hash == c.To.Hash {
		fmt.Fprintln(w, "the two versions have the same content")
		return
	}
	ops := c.Ops
	if !full {
		ops = history.Hunks(ops, context)
	}
	color := isTerminal(w)
	var b strings.Builder
	for _, o := range ops {
		t := cleanKeepLines(o.Text)
		switch {
		case o.Kind == history.Added && color:
			b.WriteString("\x1b[32;1m" + t + "\x1b[0m")
		case o.Kind == history.Removed && color:
			b.WriteString("\x1b[31;9m" + t + "\x1b[0m")
		case o.Kind == history.Added:
			b.WriteString("{+" + t + "+}")
		case o.Kind == history.Removed:
			b.WriteString("[-" + t + "-]")
		default:
			b.WriteString(t)
		}
	}
	fmt.Fprintln(w, b.String())
}

// cleanKeepLines is clean for text whose line breaks mean something.
func cleanKeepLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		c := clean(l)
		// Keep the spaces at the ends: they separate this piece from its neighbours.
		if c != "" && strings.TrimLeft(l, " \t") != l {
			c = " " + c
		}
		if c != "" && strings.TrimRight(l, " \t") != l {
			c += " "
		}
		if c == "" && l != "" {
			c = " "
		}
		lines[i] = c
	}
	return strings.Join(lines, "\n")
}

func (e *env) retentionCmd() *cobra.Command {
	var crawlID int64
	cmd := &cobra.Command{
		Use:   "retention [--crawl N] [all | last N | none | default]",
		Short: "How many versions of each page the workspace (or a crawl) keeps, and the disk they take",
		Long: `Without arguments, show the retention setting and what the history takes on disk.
With one, set it and apply it at once:

  all       keep every version (the default: a crawl is evidence)
  last N    keep the newest N versions of each page
  none      keep only each page's content now (no history)
  default   with --crawl: follow the workspace's setting again

With --crawl N the setting is that crawl's own and overrides the workspace's for its pages
(a page of several crawls keeps as many versions as the most generous of them); the disk
shown is what the crawl's pages' versions take.

Applying it deletes the versions beyond it and the bodies nothing names any more, in one
transaction: a body another page or version names is never deleted, and a kill before the
end leaves everything as it was.`,
		Args: usageArgs(cobra.RangeArgs(0, 2)),
		RunE: func(cmd *cobra.Command, args []string) error { return e.retention(cmd.Context(), cmd, args, crawlID) },
	}
	cmd.Flags().Int64Var(&crawlID, "crawl", 0, "the crawl whose own setting to show or set")
	return cmd
}

// retention shows or sets how many versions a crawl (or the workspace) keeps.
func (e *env) retention(ctx context.Context, cmd *cobra.Command, args []string, crawlID int64) error {
	r, err := parseRetention(args, crawlID != 0)
	if err != nil {
		return usageError{err}
	}
	st, err := e.open(ctx, len(args) == 0)
	if err != nil {
		return err
	}
	defer st.Close()
	if crawlID != 0 {
		return e.crawlRetention(cmd, st, crawlID, args, r)
	}
	var pr store.Prune
	if len(args) > 0 {
		if pr, err = st.SetRetention(ctx, *r); err != nil {
			return err
		}
	}
	cur, err := st.Retention(ctx)
	if err != nil {
		return err
	}
	u, err := st.HistoryUsage(ctx)
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSON(map[string]any{"keep": cur.Keep, "last": cur.Last, "versions": u.Versions,
			"pagesWithHistory": u.Pages, "historyBodies": u.Bodies, "historyBytes": u.Bytes,
			"unnamedBodies": u.Unnamed, "unnamedBytes": u.UnnamedBytes,
			"pruned": map[string]any{"versions": pr.Versions, "bodies": pr.Bodies, "bytes": pr.Bytes}})
	}
	if len(args) > 0 {
		fmt.Fprintf(e.stdout, "pruned %d version(s) and %d bod(ies), %s\n", pr.Versions, pr.Bodies, humanBytes(pr.Bytes))
	}
	fmt.Fprintf(e.stdout, "keeps %s\n%d version(s); %d page(s) with more than one\n", policyWords(cur), u.Versions, u.Pages)
	fmt.Fprintf(e.stdout, "earlier versions' bodies: %d, %s\n", u.Bodies, humanBytes(u.Bytes))
	if u.Unnamed > 0 {
		fmt.Fprintf(e.stdout, "bodies nothing names (older workspaces): %d, %s; setting a retention frees them\n",
			u.Unnamed, humanBytes(u.UnnamedBytes))
	}
	return nil
}

// parseRetention reads "all", "last N", "none" (and with a crawl "default": nil) from args;
// no args give nil.
func parseRetention(args []string, crawl bool) (*store.Retention, error) {
	var r store.Retention
	switch {
	case len(args) == 0:
		return nil, nil
	case crawl && args[0] == "default" && len(args) == 1:
		return nil, nil
	case args[0] == store.KeepLast && len(args) == 2:
		n, err := strconv.Atoi(args[1])
		if err != nil {
			return nil, fmt.Errorf("last N: %q is not a number", args[1])
		}
		r = store.Retention{Keep: store.KeepLast, Last: n}
	case (args[0] == store.KeepAll || args[0] == store.KeepNone) && len(args) == 1:
		r = store.Retention{Keep: args[0]}
	default:
		return nil, fmt.Errorf("usage: retention [--crawl N] [all | last N | none | default]")
	}
	if err := r.Valid(); err != nil {
		return nil, err
	}
	return &r, nil
}

func policyWords(r store.Retention) string {
	switch r.Keep {
	case store.KeepLast:
		return fmt.Sprintf("the newest %d versions of each page", r.Last)
	case store.KeepNone:
		return "no history (each page's content now only)"
	}
	return "every version"
}

// crawlRetention shows (and with args sets) a crawl's own retention and its disk.
func (e *env) crawlRetention(cmd *cobra.Command, st *store.Store, id int64, args []string, r *store.Retention) error {
	ctx := cmd.Context()
	var pr store.Prune
	var err error
	if len(args) > 0 {
		if pr, err = st.SetCrawlRetention(ctx, id, r); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return usageError{fmt.Errorf("no crawl %d", id)}
			}
			return err
		}
	}
	h, err := st.CrawlHistoryUsage(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return usageError{fmt.Errorf("no crawl %d", id)}
	}
	if err != nil {
		return err
	}
	ws, err := st.Retention(ctx)
	if err != nil {
		return err
	}
	eff, own := ws, h.Retention != nil
	if own {
		eff = *h.Retention
	}
	if e.json {
		return e.printJSON(map[string]any{"crawlId": id, "own": own, "keep": eff.Keep, "last": eff.Last,
			"versions": h.Versions, "bodies": h.Bodies, "bytes": h.Bytes,
			"pruned": map[string]any{"versions": pr.Versions, "bodies": pr.Bodies, "bytes": pr.Bytes}})
	}
	if len(args) > 0 {
		fmt.Fprintf(e.stdout, "pruned %d version(s) and %d bod(ies), %s\n", pr.Versions, pr.Bodies, humanBytes(pr.Bytes))
	}
	whose := "its own setting"
	if !own {
		whose = "the workspace's setting"
	}
	fmt.Fprintf(e.stdout, "crawl %d keeps %s (%s)\n%d version(s) of its pages, %d bod(ies), %s\n",
		id, policyWords(eff), whose, h.Versions, h.Bodies, humanBytes(h.Bytes))
	return nil
}

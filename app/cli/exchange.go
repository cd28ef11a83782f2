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

	"mundaneum/backend/exchange"
)

// exchangeError maps the exchange's errors to exit codes.
func exchangeError(err error) error {
	if errors.Is(err, exchange.ErrInvalid) || errors.Is(err, exchange.ErrNotFound) {
		return usageError{err}
	}
	return err
}

func idArg(s, what string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimPrefix(s, "#"), 10, 64)
	if err != nil || id <= 0 {
		return 0, usageError{fmt.Errorf("%s: a %s number is expected, not %q", what, what, s)}
	}
	return id, nil
}

func (e *env) tokenCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Issue, list and revoke the read-only tokens other instances pull this workspace's summaries with",
		Long: `Another Mundaneum instance pulls this workspace's page summaries (a gzip SOIF stream,
from 'mundaneum serve' at /exchange/soif) with a token issued here: read-only, and
revocable at any time. Only a hash of each token is kept: the token is shown once.`,
	}
	issue := &cobra.Command{
		Use:   "issue NAME",
		Short: "Issue a token for NAME (whom it is for); it is printed once",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE:  func(cmd *cobra.Command, args []string) error { return e.tokenIssue(cmd.Context(), args[0]) },
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List the tokens issued (never their secrets)",
		Args:  usageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return e.tokenList(cmd.Context()) },
	}
	revoke := &cobra.Command{
		Use:   "revoke ID",
		Short: "Revoke a token: pulls with it are refused from now on",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE:  func(cmd *cobra.Command, args []string) error { return e.tokenRevoke(cmd.Context(), args[0]) },
	}
	cmd.AddCommand(issue, list, revoke)
	return cmd
}

func when(ms int64) string {
	if ms <= 0 {
		return "-"
	}
	return time.UnixMilli(ms).Local().Format("2006-01-02 15:04")
}

func (e *env) sourceCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "source",
		Short: "Pull page summaries from other Mundaneum instances (Harvest's Gatherer/Broker exchange)",
		Long: `Another instance running 'mundaneum serve' offers its page summaries to holders of a
token it issued ('mundaneum token issue' there). Add it here as a source, then pull:
each pull brings only the summaries that changed since the last one, checks the whole
stream before applying any of it, and marks each page with the source it came from
(search --json shows it as "source"; the window shows a badge).`,
		Example: `  mundaneum source add http://127.0.0.1:8123/ --token mdx_...
  mundaneum source pull 1
  mundaneum search --json otlet`,
	}
	var token string
	add := &cobra.Command{
		Use:   "add URL --token TOKEN",
		Short: "Add another instance (the address its serve prints) as a source",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE:  func(cmd *cobra.Command, args []string) error { return e.sourceAdd(cmd.Context(), args[0], token) },
	}
	add.Flags().StringVar(&token, "token", "", "the token the other instance issued")
	add.MarkFlagRequired("token")
	list := &cobra.Command{
		Use:   "list",
		Short: "List the sources, with their cursors and last pulls",
		Args:  usageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return e.sourceList(cmd.Context()) },
	}
	remove := &cobra.Command{
		Use:   "remove ID",
		Short: "Forget a source (its pages stay, no longer marked as its)",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE:  func(cmd *cobra.Command, args []string) error { return e.sourceRemove(cmd.Context(), args[0]) },
	}
	pull := &cobra.Command{
		Use:   "pull [ID...]",
		Short: "Pull what changed at the sources since their last pull (every source without an ID)",
		RunE:  func(cmd *cobra.Command, args []string) error { return e.sourcePull(cmd.Context(), args) },
	}
	cmd.AddCommand(add, list, remove, pull)
	return cmd
}

// tokenIssue issues a token for name and prints it once.
func (e *env) tokenIssue(ctx context.Context, name string) error {
	st, err := e.openShared(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	t, err := exchange.Issue(ctx, st, name)
	if err != nil {
		return exchangeError(err)
	}
	if e.json {
		return e.printJSON(t)
	}
	fmt.Fprintf(e.stdout, "%s\n", t.Secret)
	fmt.Fprintf(e.stderr, "token %d for %s: give it to them now, it is not shown again (mundaneum token revoke %d ends it)\n",
		t.ID, clean(t.Name), t.ID)
	return nil
}

// tokenList lists the tokens issued, never their secrets.
func (e *env) tokenList(ctx context.Context) error {
	st, err := e.open(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	ts, err := exchange.Tokens(ctx, st)
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSON(map[string]any{"tokens": ts})
	}
	if len(ts) == 0 {
		fmt.Fprintln(e.stdout, "no tokens issued (mundaneum token issue NAME)")
	}
	for _, t := range ts {
		state := "live"
		if t.RevokedAt > 0 {
			state = "revoked " + when(t.RevokedAt)
		}
		used := "never used"
		if t.UsedAt > 0 {
			used = fmt.Sprintf("used %d times, last %s", t.Uses, when(t.UsedAt))
		}
		fmt.Fprintf(e.stdout, "%4d  %-24s issued %s, %s, %s\n", t.ID, clean(t.Name), when(t.CreatedAt), state, used)
	}
	return nil
}

// tokenRevoke revokes the token numbered arg.
func (e *env) tokenRevoke(ctx context.Context, arg string) error {
	id, err := idArg(arg, "token")
	if err != nil {
		return err
	}
	st, err := e.openShared(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := exchange.Revoke(ctx, st, id); err != nil {
		return exchangeError(err)
	}
	if e.json {
		return e.printJSON(map[string]any{"revoked": id})
	}
	fmt.Fprintf(e.stdout, "token %d revoked\n", id)
	return nil
}

// sourceAdd adds the instance at url, which issued token, as a source.
func (e *env) sourceAdd(ctx context.Context, url, token string) error {
	st, err := e.openShared(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	s, err := exchange.AddPeer(ctx, st, url, token)
	if err != nil {
		return exchangeError(err)
	}
	if e.json {
		return e.printJSON(s)
	}
	fmt.Fprintf(e.stdout, "source %d: %s (mundaneum source pull %d brings its summaries)\n", s.ID, clean(s.URL), s.ID)
	return nil
}

// sourceList lists the sources with their cursors and last pulls.
func (e *env) sourceList(ctx context.Context) error {
	st, err := e.open(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	ss, err := exchange.List(ctx, st)
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSON(map[string]any{"sources": ss})
	}
	if len(ss) == 0 {
		fmt.Fprintln(e.stdout, "no sources (mundaneum source add URL --token TOKEN)")
	}
	for _, s := range ss {
		fmt.Fprintf(e.stdout, "%4d  %-4s %s  %d summaries, crawl:%d, last pull %s, cursor %d", s.ID, s.Kind, clean(s.URL),
			s.Summaries, s.CrawlID, when(s.PulledAt), s.Cursor.Seq)
		if s.Name != "" {
			fmt.Fprintf(e.stdout, " (%s)", clean(s.Name))
		}
		fmt.Fprintln(e.stdout)
		if s.Error != "" {
			fmt.Fprintf(e.stdout, "      last pull failed: %s\n", clean(s.Error))
		}
	}
	return nil
}

// sourceRemove forgets the source numbered arg.
func (e *env) sourceRemove(ctx context.Context, arg string) error {
	id, err := idArg(arg, "source")
	if err != nil {
		return err
	}
	st, err := e.openShared(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := exchange.Remove(ctx, st, id); err != nil {
		return exchangeError(err)
	}
	if e.json {
		return e.printJSON(map[string]any{"removed": id})
	}
	fmt.Fprintf(e.stdout, "source %d removed\n", id)
	return nil
}

// sourcePull pulls what changed at the sources numbered args (every peer without one).
func (e *env) sourcePull(ctx context.Context, args []string) error {
	var ids []int64
	for _, a := range args {
		id, err := idArg(a, "source")
		if err != nil {
			return err
		}
		ids = append(ids, id)
	}
	w, err := e.openIndexed(ctx, false)
	if err != nil {
		return err
	}
	defer w.Close()
	if len(ids) == 0 {
		ss, err := exchange.List(ctx, w.st)
		if err != nil {
			return err
		}
		for _, s := range ss {
			if s.Kind == exchange.KindPeer {
				ids = append(ids, s.ID)
			}
		}
	}
	var reps []exchange.ImportReport
	var firstErr error
	for _, id := range ids {
		bar := newPullBar(e.stderr, isTerminal(e.stderr), e.json, id)
		rep, err := exchange.Pull(ctx, w.st, w.idx, id, bar.update)
		bar.done()
		if ctx.Err() != nil {
			return errInterrupted
		}
		reps = append(reps, rep)
		if err != nil {
			if firstErr == nil {
				firstErr = exchangeError(err)
			} else {
				fmt.Fprintf(e.stderr, "source %d: %s\n", id, clean(err.Error()))
			}
			continue
		}
		if !e.json {
			fmt.Fprintf(e.stdout, "source %d: %d summaries received (%s, %s on the wire) in %.1fs: %d new or changed, %d unchanged, %d older than ours; cursor %d\n",
				id, rep.Templates, humanBytes(rep.Bytes), humanBytes(rep.Wire), rep.Seconds, rep.Applied, rep.Unchanged,
				rep.Older, rep.Cursor.Seq)
			for _, p := range rep.Problems {
				fmt.Fprintf(e.stderr, "  byte %d %s: %s\n", p.Offset, clean(p.URL), clean(p.Reason))
			}
		}
	}
	if e.json {
		if err := e.printJSON(map[string]any{"pulls": reps}); err != nil {
			return err
		}
		if firstErr != nil {
			return reported{firstErr}
		}
	}
	return firstErr
}

// pullBar shows a pull's progress: bytes checked as they arrive, then summaries applied.
type pullBar struct {
	*archiveBar
	id int64
}

func newPullBar(w io.Writer, tty, quiet bool, id int64) *pullBar {
	return &pullBar{archiveBar: newArchiveBar(w, tty, quiet, "pulled"), id: id}
}

func (b *pullBar) update(p exchange.Progress) {
	every := 150 * time.Millisecond
	if !b.tty {
		every = 5 * time.Second
	}
	if b.quiet || time.Since(b.last) < every || p.Phase == "done" {
		return
	}
	b.last = time.Now()
	s := fmt.Sprintf("source %d: %s %d summaries, %s", b.id, p.Phase, p.Templates, humanBytes(p.Bytes))
	if p.Phase == "apply" && p.Total > 0 {
		s = fmt.Sprintf("source %d: applied %d of %d summaries (%3.0f%%)", b.id, p.Templates, p.Total, 100*float64(p.Templates)/float64(p.Total))
	}
	if secs := p.Elapsed.Seconds(); secs > 0 {
		s += fmt.Sprintf(" · %.0f/s", float64(p.Templates)/secs)
	}
	if !b.tty {
		fmt.Fprintln(b.w, s)
		return
	}
	fmt.Fprintf(b.w, "\r\x1b[K%s", s)
	b.shown = true
}

// parseSince reads --since: an RFC 3339 time, a date (2006-01-02), or a duration back from
// now (36h).
func parseSince(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return time.Now().Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, usageError{fmt.Errorf("--since %q: give a time (2026-11-23T10:00:00Z), a date (2026-11-23) or a duration back from now (36h)", s)}
}

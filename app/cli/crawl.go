package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"mundaneum/backend/crawl"
	"mundaneum/backend/rules"
	"mundaneum/backend/store"
)

func (e *env) crawlCmd() *cobra.Command {
	cfg := crawl.Config{}
	var delay time.Duration
	var rulesArg string
	cmd := &cobra.Command{
		Use:   "crawl URL...",
		Short: "Crawl from seed URLs into the workspace (resumes or refreshes the same crawl)",
		Long: `Crawl from the seed URLs, within the scope, into the workspace.

Running the same command again (same seeds and scope) resumes an unfinished crawl, even
after a kill; on a finished crawl it refreshes only the pages that are due, with
conditional requests (--refresh re-checks every page). Ctrl-C pauses: run it again to go on.`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg.Seeds = args
			cfg.Delay = delay
			if rulesArg != "" {
				text, err := readRules(rulesArg)
				if err != nil {
					return err
				}
				if _, err := rules.Parse(text); err != nil {
					return usageError{ruleError(text, err)}
				}
				cfg.Rules = text
			}
			if !cmd.Flags().Changed("delay") {
				cfg.Delay = -1
			}
			return e.crawl(cmd.Context(), cfg)
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.Scope, "scope", crawl.ScopeSite, "what to follow: site (same host and port), tree (at or below the seed's directory), domain (registrable domain), list (the seeds only)")
	f.IntVar(&cfg.MaxDepth, "depth", 0, "link depth limit from the seeds (0: none)")
	f.IntVar(&cfg.MaxPages, "max-pages", 0, "stop this run after visiting N pages (0: no limit)")
	f.DurationVar(&cfg.MaxTime, "max-time", 0, "stop this run after a duration, e.g. 10m (0: no limit)")
	f.Int64Var(&cfg.MaxBytes, "max-bytes", 0, "stop this run after downloading N bytes (0: no limit)")
	f.IntVar(&cfg.Agents, "agents", 0, "parallel fetches (default: the workspace's setting, 16 unless changed)")
	f.IntVar(&cfg.PerHost, "per-host", 0, "parallel fetches per host (default: the workspace's setting, 2 unless changed)")
	f.DurationVar(&delay, "delay", 0, "gap between requests to one host, e.g. 500ms (default: the workspace's setting, 1s\nunless changed; 0: none; robots.txt Crawl-delay still applies)")
	f.BoolVar(&cfg.Refresh, "refresh", false, "re-check every page with conditional requests, not only those due")
	f.StringVar(&cfg.From, "from", "", "your e-mail address, sent in the From header (default: the workspace's setting)")
	f.StringVar(&rulesArg, "rules", "", "the webbot's rules: what to follow and in which order, as TEXT or @FILE\n(see 'mundaneum rules --help'); an imperative rule reaches outside the scope")
	return cmd
}

// crawlSummary is the --json output of crawl.
type crawlSummary struct {
	CrawlID     int64   `json:"crawlId"`
	State       string  `json:"state"`
	Note        string  `json:"note,omitempty"`
	Fetched     int64   `json:"fetched"`
	Failed      int64   `json:"failed"`
	Skipped     int64   `json:"skipped"`
	Queued      int64   `json:"queued"`
	Bytes       int64   `json:"bytes"`
	Seconds     float64 `json:"seconds"`
	PagesPerSec float64 `json:"pagesPerSec"`
	// Searchable is how many pages the search index holds at the end of the run.
	Searchable int64  `json:"searchable"`
	Error      string `json:"error,omitempty"`
}

func (e *env) crawl(ctx context.Context, cfg crawl.Config) error {
	w, err := e.openIndexed(ctx, false)
	if err != nil {
		return err
	}
	defer w.Close()
	st := w.st
	cr, err := crawl.Open(ctx, st, w.idx, cfg)
	if err != nil {
		return err
	}
	bar := newProgressBar(e.stderr, isTerminal(e.stderr))
	// Ctrl-C pauses the crawl: it is resumable by running the same command.
	rctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	defer cancel(nil)
	go func() {
		select {
		case <-ctx.Done():
			cancel(crawl.ErrPaused)
		case <-rctx.Done():
		}
	}()
	if !e.json {
		fmt.Fprintf(e.stderr, "crawl %d: %s scope, %d seed(s), workspace %s\n", cr.ID(), cr.Config().Scope, len(cr.Config().Seeds), st.Path())
	}
	start := time.Now()
	p, runErr := cr.Run(rctx, bar.update)
	bar.done()
	secs := time.Since(start).Seconds()
	sum := crawlSummary{CrawlID: p.CrawlID, State: p.State, Note: p.Note, Fetched: p.Fetched, Failed: p.Failed,
		Skipped: p.Skipped, Queued: p.Queued, Bytes: p.Bytes, Seconds: secs, Searchable: p.Index.Indexed}
	if secs > 0 {
		sum.PagesPerSec = float64(p.Fetched+p.Failed+p.Skipped) / secs
	}
	if runErr != nil {
		sum.Error = runErr.Error()
	}
	if e.json {
		if err := e.printJSON(sum); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(e.stdout, "crawl %d %s: %d fetched, %d failed, %d skipped, %d queued, %s in %.1fs (%.1f pages/s); %s\n",
			sum.CrawlID, sum.State, sum.Fetched, sum.Failed, sum.Skipped, sum.Queued, humanBytes(sum.Bytes), secs, sum.PagesPerSec, p.Index)
		if sum.Note != "" && sum.State == store.CrawlPaused {
			fmt.Fprintf(e.stdout, "%s; run the same command again to continue\n", sum.Note)
		}
	}
	if runErr != nil {
		return runErr
	}
	if errors.Is(context.Cause(rctx), crawl.ErrPaused) {
		return errInterrupted
	}
	return nil
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

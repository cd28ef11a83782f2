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
	"mundaneum/backend/crawl"
	"mundaneum/backend/rules"
	"mundaneum/backend/search"
	"mundaneum/backend/store"
	"mundaneum/backend/summary"
)

func (e *env) crawlCmd() *cobra.Command {
	cfg := crawl.Config{}
	def := crawl.DefaultConfig(store.DefaultSettings())
	var delay time.Duration
	var rulesArg, retention string
	cmd := &cobra.Command{
		Use:   "crawl URL...",
		Short: "Crawl from seed URLs into the workspace (resumes or refreshes the same crawl)",
		Long: `Crawl from the seed URLs, within the scope, into the workspace.

Running the same command again (same seeds and scope) resumes an unfinished crawl, even
after a kill; on a finished crawl it refreshes only the pages that are due, with
conditional requests (--refresh re-checks every page). Ctrl-C pauses: run it again to go on.

Limits are per run; 0 is no limit, and a negative one is refused. The guards (--max-per-host,
--max-variants, --max-body, --agents, --per-host, --delay) default to the workspace's
settings, which the window's Settings change.`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.crawlURLs(cmd.Context(), cmd, args, cfg, def, delay, rulesArg, retention)
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.Scope, "scope", def.Scope, "what to follow: site (same host and port), tree (at or below the seed's directory), domain (registrable domain), list (the seeds only)")
	f.IntVar(&cfg.MaxDepth, "depth", def.MaxDepth, "link depth limit from the seeds (0: none)")
	f.IntVar(&cfg.MaxPages, "max-pages", def.MaxPages, "stop this run after visiting N pages (0: no limit)")
	f.DurationVar(&cfg.MaxTime, "max-time", def.MaxTime, "stop this run after a duration, e.g. 10m (0: no limit)")
	f.Int64Var(&cfg.MaxBytes, "max-bytes", def.MaxBytes, "stop this run after downloading N bytes (0: no limit)")
	f.IntVar(&cfg.MaxPerHost, "max-per-host", 0, fmt.Sprintf("fetch at most N pages from one host in a run; 404s and redirects do not count\n(default: the workspace's setting, %d unless changed)", def.MaxPerHost))
	f.IntVar(&cfg.MaxQueryVariants, "max-variants", 0, fmt.Sprintf("queue at most N URLs of one path that differ only in their query (faceted\nnavigation, calendars) (default: the workspace's setting, %d unless changed)", def.MaxQueryVariants))
	f.Int64Var(&cfg.MaxBody, "max-body", 0, fmt.Sprintf("keep at most N bytes of a document: a longer one is cut there, indexed and marked\n\"truncated\" (default: the workspace's setting, %s unless changed)", humanBytes(def.MaxBody)))
	f.StringSliceVar(&cfg.Types, "types", nil, "the document types to download and summarise, comma-separated, from\n"+
		strings.Join(summary.AllTypes(), ",")+" or all (default: "+strings.Join(summary.DefaultTypes, ",")+"; html is always on)")
	f.BoolVar(&cfg.Sitemaps, "sitemaps", false, "also crawl what each seed host's sitemaps list (those robots.txt names, else /sitemap.xml)")
	f.IntVar(&cfg.Agents, "agents", 0, fmt.Sprintf("parallel fetches (default: the workspace's setting, %d unless changed)", def.Agents))
	f.IntVar(&cfg.PerHost, "per-host", 0, fmt.Sprintf("parallel fetches per host (default: the workspace's setting, %d unless changed)", def.PerHost))
	f.DurationVar(&delay, "delay", 0, fmt.Sprintf("gap between requests to one host, e.g. 500ms (default: the workspace's setting, %s\nunless changed; 0: none; robots.txt Crawl-delay still applies)", time.Duration(store.DefaultSettings().DelayMs)*time.Millisecond))
	f.BoolVar(&cfg.Refresh, "refresh", false, "re-check every page with conditional requests, not only those due")
	f.BoolVar(&cfg.Requisites, "requisites", false, "also store what the fetched pages need to look like themselves offline: their style\nsheets, images and fonts (wget's -p); asked for later, a run gathers what earlier ones did not")
	f.StringVar(&cfg.From, "from", "", "your e-mail address, sent in the From header (default: the workspace's setting)")
	f.StringVar(&retention, "retention", "", "this crawl's own retention of page versions: all, \"last N\", none, or default (the\nworkspace's; see 'mundaneum retention --help')")
	f.StringVar(&cfg.Toward, "toward", "", "crawl toward a query (WebCrawler's real-time search): follow first the links whose\nanchor text, nearby text and page best match it, and show the matching pages as they are found")
	f.StringVar(&rulesArg, "rules", "", "the webbot's rules: what to follow and in which order, as TEXT or @FILE\n(see 'mundaneum rules --help'); an imperative rule reaches outside the scope")
	renderFlags(f, &cfg)
	return cmd
}

// crawlURLs crawls from the seeds args with cfg and the flags given as text.
func (e *env) crawlURLs(ctx context.Context, cmd *cobra.Command, args []string, cfg crawl.Config, def crawl.Config, delay time.Duration, rulesArg, retention string) error {
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
	} else if delay < 0 {
		return usageError{fmt.Errorf("--delay must not be negative (0: no delay)")}
	}
	// Refuse what cannot be meant before the workspace is opened (or created).
	if err := cfg.Validate(); err != nil {
		return usageError{err}
	}
	var keep *store.Retention
	if cmd.Flags().Changed("retention") {
		r, err := parseRetention(strings.Fields(retention), true)
		if err != nil {
			return usageError{fmt.Errorf("--retention: %w", err)}
		}
		keep = r
		if keep == nil {
			keep = &store.Retention{} // "default": the workspace's setting
		}
	}
	return e.crawl(ctx, cfg, keep)
}

// crawlSummary is the --json output of crawl. Fetched, Failed, Skipped, Redirected and
// Queued are the crawl's pages by state, counted as status, the window and the crawl's page
// list count them; Run is what this run did.
type crawlSummary struct {
	CrawlID    int64            `json:"crawlId"`
	State      string           `json:"state"`
	Note       string           `json:"note,omitempty"`
	Error      string           `json:"error,omitempty"`
	Pages      map[string]int64 `json:"pages"`
	Fetched    int64            `json:"fetched"`
	Failed     int64            `json:"failed"`
	Skipped    int64            `json:"skipped"`  // pages left out (robots.txt, depth, caps, traps)
	Recorded   int64            `json:"recorded"` // links recorded, not pages (store.Recorded)
	Redirected int64            `json:"redirected"`
	Queued     int64            `json:"queued"`
	ToVisit    int64            `json:"toVisit"` // left in this run's queue
	why        map[string]int64 // the skipped rows by reason
	Run        runSummary       `json:"run"`
	// Searchable is how many pages the search index holds at the end of the run.
	Searchable int64  `json:"searchable"`
	index      string // how far the index is, in words
	// Matches are, for a crawl --toward, its pages that match the query, best first.
	Matches []app.Result `json:"matches,omitempty"`
	// Render counts the crawl's pages by how their HTML was read (rendered, static,
	// shell-WHY for shells not rendered); Browser is what this run's browser did.
	Render  map[string]int64 `json:"render,omitempty"`
	Browser *browserSummary  `json:"browser,omitempty"`
}

// runSummary is what one run of a crawl did.
type runSummary struct {
	Visited     int64   `json:"visited"` // pages dealt with
	Fetched     int64   `json:"fetched"` // of which fetched (or confirmed unchanged)
	Failed      int64   `json:"failed"`
	Skipped     int64   `json:"skipped"`
	NotDue      int64   `json:"notDue"`     // visited from the store, no request: not due for a re-check
	Requisites  int64   `json:"requisites"` // style sheets, images and fonts stored (--requisites)
	Bytes       int64   `json:"bytes"`
	Seconds     float64 `json:"seconds"`
	PagesPerSec float64 `json:"pagesPerSec"` // this process's visits per second
}

func summarize(p crawl.Progress, secs float64, runErr error) crawlSummary {
	sum := crawlSummary{CrawlID: p.CrawlID, State: p.State, Note: p.Note, Pages: p.Pages,
		Fetched: p.Pages[store.StateFetched], Failed: p.Pages[store.StateFailed], Skipped: p.Pages[store.StateSkipped],
		Recorded: p.Pages[store.Recorded], Redirected: p.Pages[store.StateRedirected], Queued: p.Pages[store.StateQueued], ToVisit: p.Queued,
		Run: runSummary{Visited: p.Visited(), Fetched: p.Fetched, Failed: p.Failed, Skipped: p.Skipped,
			NotDue: p.NotDue, Requisites: p.Requisites, Bytes: p.Bytes, Seconds: secs},
		Searchable: p.Index.Indexed}
	if !p.Index.Missing {
		sum.index = p.Index.String()
	}
	if secs > 0 {
		sum.Run.PagesPerSec = float64(p.ByThisProcess) / secs
	}
	if runErr != nil {
		sum.Error = runErr.Error()
	}
	return sum
}

// crawl runs the crawl cfg describes; keep, when set, becomes its own retention setting
// (its zero value: the workspace's again).
func (e *env) crawl(ctx context.Context, cfg crawl.Config, keep *store.Retention) error {
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
	if keep != nil {
		r := keep
		if r.Keep == "" {
			r = nil
		}
		if _, err := st.SetCrawlRetention(ctx, cr.ID(), r); err != nil {
			return err
		}
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
		warnNoBrowser(e.stderr, cr.Config())
	}
	var live *towardResults
	if q := cr.Config().Toward; q != "" {
		live = &towardResults{s: search.New(w.idx.SearchDB()), query: towardQuery(cr.ID(), q), shown: map[string]bool{}}
		if !e.json {
			live.out = e.stdout
			fmt.Fprintf(e.stderr, "toward %q: the best links first; matching pages as the index takes them in\n", q)
		}
		wctx, stop := context.WithCancel(rctx)
		defer stop()
		go live.watch(wctx, 2*time.Second)
	}
	start := time.Now()
	p, runErr := cr.Run(rctx, bar.update)
	bar.done()
	sum := summarize(p, time.Since(start).Seconds(), runErr)
	addRenderSummary(context.WithoutCancel(ctx), st, cr, &sum)
	sum.why, _ = st.SkipReasons(context.WithoutCancel(ctx), cr.ID()) // without them, the summary names no reasons
	if live != nil {
		live.poll(context.WithoutCancel(ctx)) // the crawl waited for the index: the final ranking
		sum.Matches = app.SearchResultsOf(live.last).Results
	}
	if e.json {
		if err := e.printJSON(sum); err != nil {
			return err
		}
	} else {
		printSummary(e.stdout, sum)
		if live != nil {
			printToward(e.stdout, live.last)
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

// printSummary says how a crawl ended: the crawl's pages (as status counts them), what this
// run did, and what cut it short.
func printSummary(w io.Writer, s crawlSummary) {
	fmt.Fprintf(w, "crawl %d %s: %s\n", s.CrawlID, s.State, pageCounts(s.Pages))
	if why := skipWhy(s.why); why != "" {
		fmt.Fprintln(w, why)
	}
	r := s.Run
	line := fmt.Sprintf("this run: %d pages visited", r.Visited)
	var parts []string
	if r.NotDue > 0 {
		parts = append(parts, fmt.Sprintf("%d not due for a re-check, so not requested", r.NotDue))
	}
	if s.ToVisit > 0 {
		parts = append(parts, fmt.Sprintf("%d left to visit", s.ToVisit))
	}
	if len(parts) > 0 {
		line += " (" + strings.Join(parts, ", ") + ")"
	}
	if r.Requisites > 0 {
		line += fmt.Sprintf(", %d page requisites stored", r.Requisites)
	}
	fmt.Fprintf(w, "%s, %s in %.1fs (%.1f pages/s)\n", line, humanBytes(r.Bytes), r.Seconds, r.PagesPerSec)
	if s.index != "" {
		fmt.Fprintln(w, "index: "+s.index)
	}
	printRenderSummary(w, s)
	note := clean(s.Note)
	if s.State == store.CrawlPaused {
		note = joinNote(note, "paused: run the same command again to continue")
	}
	if note != "" {
		fmt.Fprintln(w, note)
	}
}

// printToward lists a query-directed crawl's matching pages, best first.
func printToward(w io.Writer, res search.Results) {
	if len(res.Results) == 0 {
		fmt.Fprintln(w, "no page of this crawl matches the query yet")
		return
	}
	fmt.Fprintf(w, "%d pages of this crawl match the query; the best:\n", res.Total)
	for i, r := range res.Results {
		fmt.Fprintf(w, "%2d. %4d  %s  %s\n", i+1, r.Score, r.URL, clean(r.Title))
	}
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// pageCounts renders a crawl's pages by state, the one way they are counted, and the links
// recorded, not pages, apart (store.Recorded).
func pageCounts(pages map[string]int64) string {
	s := fmt.Sprintf("%d fetched, %d failed, %d skipped, %d redirected, %d queued",
		pages[store.StateFetched], pages[store.StateFailed], pages[store.StateSkipped], pages[store.StateRedirected],
		pages[store.StateQueued])
	if n := pages[store.Recorded]; n > 0 {
		s += "; " + recordedWords(n)
	}
	return s
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

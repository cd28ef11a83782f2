package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"mundaneum/app"
	"mundaneum/backend/crawl"
	"mundaneum/backend/render"
	"mundaneum/backend/store"
)

// renderFlags are the crawl's flags for pages that scripts build.
func renderFlags(f *pflag.FlagSet, cfg *crawl.Config) {
	f.StringVar(&cfg.Render, "render", "", "read pages in Chromium after their scripts ran: auto (those whose HTML is an empty\nshell), always or never (default: the workspace's setting, auto unless changed)")
	f.BoolVar(&cfg.RenderExternal, "render-external", false, "let rendered pages load scripts and data from hosts outside the crawl's (default: refused)")
	f.IntVar(&cfg.RenderTabs, "render-tabs", 0, fmt.Sprintf("pages rendered at once, each in a tab of its own (default %d)", render.DefaultTabs))
	f.DurationVar(&cfg.RenderBudget, "render-budget", 0, fmt.Sprintf("the most a page may take in the browser, everything included (default %s)", render.DefaultBudget))
	f.BoolVar(&cfg.RenderFullPage, "full-page", false, "keep a screenshot of each rendered page whole, not only of its first screen")
}

// warnNoBrowser says, before a crawl that would render pages starts, that there is no
// browser to render them with and how to install one.
func warnNoBrowser(w io.Writer, cfg crawl.Config) {
	if cfg.Render == string(render.Never) {
		return
	}
	if _, err := render.FindBrowser(); err != nil {
		fmt.Fprintf(w, "rendering: %v; the crawl goes on and reads pages as served\n", err)
	}
}

// browserSummary is what a crawl's browser did.
type browserSummary struct {
	Rendered int64 `json:"rendered"`
	Failed   int64 `json:"failed"`
	Restarts int64 `json:"restarts"`
	// PeakPSS and PeakRSS are the browser's processes together at their peak, bytes.
	PeakPSS    int64 `json:"peakPss"`
	PeakRSS    int64 `json:"peakRss"`
	Processes  int   `json:"processes"`
	TabsClosed int64 `json:"tabsClosedForMemory"`
}

func addRenderSummary(ctx context.Context, st *store.Store, cr *crawl.Crawler, sum *crawlSummary) {
	if counts, err := st.RenderCounts(ctx, cr.ID()); err == nil && len(counts) > 0 {
		sum.Render = counts
	}
	if s := cr.RenderStats(); s != nil && (s.Rendered > 0 || s.Failed > 0) {
		sum.Browser = &browserSummary{Rendered: s.Rendered, Failed: s.Failed, Restarts: s.Restarts, PeakPSS: s.Peak.PSS,
			PeakRSS: s.Peak.RSS, Processes: s.Peak.Processes, TabsClosed: s.TabsClosed}
	}
}

// printRenderSummary says how the crawl's pages were read, when any went through (or
// would have gone through) the browser.
func printRenderSummary(w io.Writer, s crawlSummary) {
	if s.Render[store.RenderRendered] == 0 && len(shellCounts(s.Render)) == 0 {
		return
	}
	line := fmt.Sprintf("rendering: %d pages rendered in Chromium, %d static", s.Render[store.RenderRendered], s.Render[store.RenderStatic])
	if sh := shellCounts(s.Render); len(sh) > 0 {
		line += ", shells not rendered: " + strings.Join(sh, ", ")
	}
	if b := s.Browser; b != nil {
		line += fmt.Sprintf(" (browser peak %d MB together", b.PeakPSS>>20)
		if b.Restarts > 0 {
			line += fmt.Sprintf(", restarted %d times", b.Restarts)
		}
		line += ")"
	}
	fmt.Fprintln(w, line)
}

func shellCounts(m map[string]int64) []string {
	var out []string
	for k, n := range m {
		if why, ok := strings.CutPrefix(k, store.RenderShell+"-"); ok {
			out = append(out, fmt.Sprintf("%d (%s)", n, why))
		}
	}
	sort.Strings(out)
	return out
}

func (e *env) screenshotCmd() *cobra.Command {
	var full bool
	var out string
	cmd := &cobra.Command{
		Use:   "screenshot URL",
		Short: "Write the screenshot of a rendered page (WebP) as the browser saw it when the crawl read it",
		Long: `Write the screenshot kept with a page's newest rendered version: its first screen, or
the whole page with --full (when the crawl kept one, crawl --full-page). With --json, say
what is kept instead (sizes, times) and write nothing.`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.screenshot(cmd.Context(), args[0], full, out)
		},
	}
	cmd.Flags().BoolVar(&full, "full", false, "the whole page, not its first screen")
	cmd.Flags().StringVarP(&out, "out", "o", "", "the file to write (default: stdout when it is not a terminal)")
	return cmd
}

func (e *env) screenshot(ctx context.Context, raw string, full bool, out string) error {
	st, err := e.open(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	id, err := app.PageIDOf(ctx, st, raw)
	if err != nil {
		return fmt.Errorf("no page %s in the workspace: %w", raw, err)
	}
	p, err := app.PageView(ctx, st, id)
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSON(map[string]any{"url": p.URL, "render": p.Render, "screenshots": p.Screenshots})
	}
	kind := store.ShotViewport
	if full {
		kind = store.ShotFull
	}
	var vid int64
	for _, s := range p.Screenshots {
		if s.Kind == kind {
			vid = s.VersionID
		}
	}
	if vid == 0 {
		why := "it was not rendered"
		if p.Render != nil && p.Render.Text != "" {
			why = p.Render.Text
		}
		return fmt.Errorf("no %s screenshot of %s: %s", kind, p.URL, why)
	}
	sh, err := st.VersionScreenshot(ctx, vid, kind)
	if err != nil {
		return err
	}
	if out == "" {
		if isTerminal(e.stdout) {
			return usageError{fmt.Errorf("the screenshot is an image: give --out FILE or redirect stdout")}
		}
		_, err = e.stdout.Write(sh.Data)
		return err
	}
	if err := os.WriteFile(out, sh.Data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "%s: %dx%d %s, %s\n", out, sh.Width, sh.Height, sh.Format, humanBytes(int64(len(sh.Data))))
	return nil
}

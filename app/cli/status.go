package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"mundaneum/app"
	"mundaneum/backend/store"
)

func (e *env) statusCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show the workspace's counts and crawls",
		Long: `Show the workspace's pages by state, and each crawl's. A crawl's pages are those it visited
last, or found and no crawl has visited since: counted the same way in the window, in
'mundaneum pages' and by the crawl: search filter, they add up to the workspace's.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return e.status(cmd.Context())
		},
	}
}

type statusJSON struct {
	Workspace string `json:"workspace"`
	// Pages by state, with the links recorded, not pages, apart ("recorded"; store.Counts).
	Pages map[string]int64 `json:"pages"`
	Hosts int64            `json:"hosts"`
	Links int64            `json:"links"`
	Blobs int64            `json:"blobs"`
	// Searchable splits the index's rows: pages, and files known from links.
	Searchable searchableJSON  `json:"searchable"`
	Crawls     []app.Crawl     `json:"crawls"` // as the window lists them
	Index      app.IndexStatus `json:"index"`
}

type searchableJSON struct {
	Pages int64 `json:"pages"`
	Files int64 `json:"files"` // files known from links, found by what cites them
}

func (e *env) status(ctx context.Context) error {
	w, err := e.openIndexed(ctx, true)
	if err != nil {
		return err
	}
	defer w.Close()
	st := w.st
	c, err := st.Counts(ctx)
	if err != nil {
		return err
	}
	crawls, err := st.Crawls(ctx)
	if err != nil {
		return err
	}
	ip := w.idx.Progress(ctx)
	out := statusJSON{Workspace: st.Path(), Pages: c.Pages, Hosts: c.Hosts, Links: c.Links, Blobs: c.Blobs,
		Crawls: make([]app.Crawl, 0, len(crawls)), Index: app.IndexStatusOf(ctx, st, ip)}
	out.Searchable.Pages, out.Searchable.Files = c.Searchable(ip.Indexed)
	writing := st.WriterActive()
	for i, cr := range crawls {
		if cr.State == store.CrawlRunning && !writing {
			crawls[i].State = "interrupted"
		}
		out.Crawls = append(out.Crawls, app.CrawlOf(crawls[i]))
	}
	if e.json {
		return e.printJSON(out)
	}
	fmt.Fprintf(e.stdout, "workspace %s\n", st.Path())
	fmt.Fprintf(e.stdout, "pages: %s\n", pageCounts(c.Pages))
	fmt.Fprintf(e.stdout, "hosts: %d   links: %d   cached bodies: %d\n", c.Hosts, c.Links, c.Blobs)
	fmt.Fprintf(e.stdout, "search index: %s\n", searchableWords(out.Index, ip.Missing, out.Searchable))
	for _, cr := range crawls {
		fmt.Fprintf(e.stdout, "crawl %d  %-9s %-6s %s\n         %s", cr.ID, cr.State, cr.Scope, clean(crawlOrigin(cr)), pageCounts(cr.Pages))
		if cr.Queued > 0 && (cr.State == store.CrawlRunning || cr.State == store.CrawlPaused || cr.State == "interrupted") {
			fmt.Fprintf(e.stdout, "; %d left to visit in this run", cr.Queued)
		}
		fmt.Fprintln(e.stdout)
		for _, s := range []string{cr.Error, cr.Note} {
			if s != "" {
				fmt.Fprintf(e.stdout, "         %s\n", clean(s))
			}
		}
	}
	return nil
}

// searchableWords says how far the index is and what its rows are when they are not all
// pages: "1,173 of 1,173 pages searchable" is 1,169 pages and 4 files known from links.
func searchableWords(ix app.IndexStatus, missing bool, s searchableJSON) string {
	if s.Files == 0 || missing {
		return ix.Summary
	}
	return fmt.Sprintf("%s (%s pages and %s %s known from links, found by what cites them)", ix.Summary,
		thousands(s.Pages), thousands(s.Files), map[bool]string{true: "file", false: "files"}[s.Files == 1])
}

// crawlOrigin says where a crawl's pages come from: its seeds, or, for the crawl record of an
// import or a pull (which has no seeds), the file it read or its key ("source 2 peer URL").
func crawlOrigin(c store.Crawl) string {
	if len(c.Seeds) > 0 {
		s := c.Seeds[0]
		if len(c.Seeds) > 1 {
			s += fmt.Sprintf(" (+%d)", len(c.Seeds)-1)
		}
		return s
	}
	var cfg struct {
		Import struct {
			Format string `json:"format"`
			File   string `json:"file"`
		} `json:"import"`
	}
	if json.Unmarshal(c.Config, &cfg) == nil && cfg.Import.File != "" {
		return fmt.Sprintf("%s file %s", cfg.Import.Format, cfg.Import.File)
	}
	if c.Key != "" {
		return c.Key
	}
	return "(no seeds)"
}

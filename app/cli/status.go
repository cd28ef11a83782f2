package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"mundaneum/backend/store"
)

func (e *env) statusCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show the workspace's counts and crawls",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return e.status(cmd.Context())
		},
	}
}

type statusJSON struct {
	Workspace string           `json:"workspace"`
	Pages     map[string]int64 `json:"pages"`
	Hosts     int64            `json:"hosts"`
	Links     int64            `json:"links"`
	Blobs     int64            `json:"blobs"`
	Crawls    []crawlJSON      `json:"crawls"`
	Index     indexJSON        `json:"index"`
}

type crawlJSON struct {
	ID      int64    `json:"id"`
	Seeds   []string `json:"seeds"`
	Scope   string   `json:"scope"`
	State   string   `json:"state"`
	Fetched int64    `json:"fetched"`
	Failed  int64    `json:"failed"`
	Skipped int64    `json:"skipped"`
	Queued  int64    `json:"queued"`
	Bytes   int64    `json:"bytes"`
	Error   string   `json:"error,omitempty"`
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
	out := statusJSON{Workspace: st.Path(), Pages: c.Pages, Hosts: c.Hosts, Links: c.Links, Blobs: c.Blobs, Crawls: []crawlJSON{},
		Index: toIndexJSON(w.idx.Progress(ctx))}
	writing := st.WriterActive()
	for _, cr := range crawls {
		if cr.State == store.CrawlRunning && !writing {
			cr.State = "interrupted"
		}
		out.Crawls = append(out.Crawls, crawlJSON{ID: cr.ID, Seeds: cr.Seeds, Scope: cr.Scope, State: cr.State,
			Fetched: cr.Fetched, Failed: cr.Failed, Skipped: cr.Skipped, Queued: cr.Queued, Bytes: cr.Bytes, Error: cr.Error})
	}
	if e.json {
		return e.printJSON(out)
	}
	p := c.Pages
	fmt.Fprintf(e.stdout, "workspace %s\n", st.Path())
	fmt.Fprintf(e.stdout, "pages: %d fetched, %d queued, %d failed, %d skipped, %d redirected\n",
		p[store.StateFetched], p[store.StateQueued], p[store.StateFailed], p[store.StateSkipped], p[store.StateRedirected])
	fmt.Fprintf(e.stdout, "hosts: %d   links: %d   cached bodies: %d\n", c.Hosts, c.Links, c.Blobs)
	fmt.Fprintf(e.stdout, "search index: %s\n", out.Index.Summary)
	for _, cr := range out.Crawls {
		seeds := clean(cr.Seeds[0])
		if len(cr.Seeds) > 1 {
			seeds += fmt.Sprintf(" (+%d)", len(cr.Seeds)-1)
		}
		fmt.Fprintf(e.stdout, "crawl %d  %-9s %-6s %s  %d fetched, %d failed, %d skipped, %d queued\n",
			cr.ID, cr.State, cr.Scope, seeds, cr.Fetched, cr.Failed, cr.Skipped, cr.Queued)
	}
	return nil
}

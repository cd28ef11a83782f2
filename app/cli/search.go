package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"mundaneum/backend/search"
)

func (e *env) searchCmd() *cobra.Command {
	var limit, offset int
	cmd := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search the workspace offline",
		Long: `Search titles, headings, text, incoming anchor text and URL words of every page.

Words must all match; "quoted words" match as a phrase; -word excludes; word* matches a
prefix; a OR b matches either. Scores are normalised to 1000 for the best hit.`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.search(cmd.Context(), strings.Join(args, " "), limit, offset)
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 10, "results to show")
	cmd.Flags().IntVar(&offset, "offset", 0, "results to skip")
	return cmd
}

type searchJSON struct {
	Query   string       `json:"query"`
	Total   int          `json:"total"`
	TookMs  float64      `json:"tookMs"`
	Note    string       `json:"note,omitempty"`
	Results []resultJSON `json:"results"`
}

type resultJSON struct {
	URL     string `json:"url"`
	Title   string `json:"title"`
	Score   int    `json:"score"`
	Snippet string `json:"snippet"`
	// Highlights is the snippet as alternating plain and matched fragments.
	Highlights []string `json:"highlights"`
}

func (e *env) search(ctx context.Context, q string, limit, offset int) error {
	if limit <= 0 {
		return usageError{fmt.Errorf("--limit must be positive")}
	}
	st, err := e.open(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	res, err := search.New(st.ReadDB()).Search(ctx, q, limit, offset)
	if err != nil {
		return err
	}
	if e.json {
		out := searchJSON{Query: res.Query, Total: res.Total, TookMs: float64(res.Took.Microseconds()) / 1000,
			Note: res.Note, Results: []resultJSON{}}
		for _, r := range res.Results {
			out.Results = append(out.Results, resultJSON{URL: r.URL, Title: r.Title, Score: r.Score,
				Snippet: strings.Join(r.Snippet, ""), Highlights: r.Snippet})
		}
		return e.printJSON(out)
	}
	tty := isTerminal(e.stdout)
	if res.Note != "" {
		fmt.Fprintln(e.stdout, res.Note)
	}
	for _, r := range res.Results {
		title := clean(r.Title)
		if title == "" {
			title = "(no title)"
		}
		fmt.Fprintf(e.stdout, "%4d  %s\n      %s\n", r.Score, title, clean(r.URL))
		if snip := renderSnippet(r.Snippet, tty); snip != "" {
			fmt.Fprintf(e.stdout, "      %s\n", snip)
		}
		fmt.Fprintln(e.stdout)
	}
	shown := len(res.Results)
	fmt.Fprintf(e.stdout, "%d of %d results (%.1f ms)\n", shown, res.Total, float64(res.Took.Microseconds())/1000)
	return nil
}

// renderSnippet marks matches in bold on a terminal and with [brackets] elsewhere; the
// fragments themselves are cleaned of control characters first.
func renderSnippet(frags []string, tty bool) string {
	var b strings.Builder
	for i, f := range frags {
		f = clean(f)
		if i%2 == 0 {
			if b.Len() > 0 && f != "" {
				b.WriteByte(' ')
			}
			b.WriteString(f)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if tty {
			b.WriteString("\x1b[1m" + f + "\x1b[0m")
		} else {
			b.WriteString("[" + f + "]")
		}
	}
	return b.String()
}

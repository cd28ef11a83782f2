package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"mundaneum/app"
	"mundaneum/backend/extract"
	"mundaneum/backend/store"
	"mundaneum/backend/summary"
)

func (e *env) pageCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "page URL",
		Short: "Show everything known about a page: its state and why, status, problems, links in and out",
		Long: `Show what the window's page view shows of a page: its state and the reason for it (why it
failed, was skipped or redirected), HTTP status, final URL after redirects, canonical URL,
problems found in its HTML, when it was fetched and confirmed, and its links out and in with
their anchor text. The URL is matched in canonical form (a URL without a scheme is tried as
http and https).`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.page(cmd.Context(), args[0])
		},
	}
}

func (e *env) page(ctx context.Context, raw string) error {
	st, err := e.open(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	id, err := app.PageIDOf(ctx, st, raw)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no page %s in the workspace (not crawled or linked to)", raw)
	}
	if err != nil {
		return usageError{err}
	}
	p, err := app.PageView(ctx, st, id)
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSON(p)
	}
	printPage(e.stdout, p)
	return nil
}

// printPage writes a page view as text; everything crawled is cleaned of control characters.
func printPage(w io.Writer, p app.Page) {
	field := func(name, v string) {
		if v != "" {
			fmt.Fprintf(w, "%-14s %s\n", name+":", clean(v))
		}
	}
	title := p.Title
	if title == "" {
		title = "(no title)"
	}
	fmt.Fprintf(w, "%s\n%s\n\n", clean(title), clean(p.URL))
	state := p.State
	if p.Reason != "" {
		state += ": " + p.ReasonText
	}
	field("state", state)
	field("detail", p.Detail)
	if p.Status != 0 {
		field("status", fmt.Sprint(p.Status))
	}
	field("final URL", p.FinalURL)
	field("canonical", p.Canonical)
	if p.Alternates > 0 {
		field("copies", fmt.Sprintf("%d pages name it as their canonical URL", p.Alternates))
	}
	field("duplicate of", p.DuplicateURL)
	field("type", strings.TrimSpace(p.ContentType+" "+p.Charset))
	if p.Size > 0 {
		field("size", humanBytes(p.Size))
	}
	field("language", p.Lang)
	field("description", p.Description)
	field("author", p.Author)
	field("owner", p.Owner)
	var problems []string
	for _, pr := range p.Problems {
		problems = append(problems, problemText(pr))
	}
	field("problems", strings.Join(problems, ", "))
	var flags []string
	if p.NoIndex {
		flags = append(flags, "noindex")
	}
	if p.NoFollow {
		flags = append(flags, "nofollow")
	}
	field("robots", strings.Join(flags, ", "))
	if r := p.Render; r != nil {
		field("read", r.Text)
		field("rendering", r.Detail)
	}
	for _, sh := range p.Screenshots {
		field("screenshot", fmt.Sprintf("%s %dx%d, %s (mundaneum screenshot%s URL)", sh.Kind, sh.Width, sh.Height,
			humanBytes(sh.Bytes), map[bool]string{true: " --full", false: ""}[sh.Kind == store.ShotFull]))
	}
	field("crawl", fmt.Sprint(p.CrawlID))
	field("depth", fmt.Sprint(p.Depth))
	field("found on", p.ParentURL)
	field("discovered", p.DiscoveredAt)
	field("fetched", p.FetchedAt)
	field("confirmed", p.ConfirmedAt)
	field("changed", p.ChangedAt)
	field("due", p.RefreshAt)
	if p.Cached {
		field("offline copy", "yes")
	}
	links := func(head string, ls []app.LinkRef, total int) {
		fmt.Fprintf(w, "\n%s (%d):\n", head, total)
		for _, l := range ls {
			what := l.Kind
			if l.Rel != "" {
				what += " " + l.Rel
			}
			st := l.State
			if l.Status != 0 {
				st += fmt.Sprintf(" %d", l.Status)
			}
			fmt.Fprintf(w, "  %-10s %-16s %s", clean(what), st, clean(l.URL))
			if l.Anchor != "" {
				fmt.Fprintf(w, "  %q", clean(l.Anchor))
			}
			fmt.Fprintln(w)
		}
		if len(ls) < total {
			fmt.Fprintf(w, "  ... and %d more\n", total-len(ls))
		}
	}
	links("links out", p.LinksOut, p.Outlinks)
	links("links in", p.LinksIn, max(p.Inlinks, len(p.LinksIn)))
}

// problemText is a problem's code with its words ("unreadable (the file is broken: ...)").
func problemText(code string) string {
	words := problemWords[code]
	if words == "" {
		words = summary.ProblemWords[code]
	}
	if words == "" {
		return code
	}
	return code + " (" + words + ")"
}

// problemWords are the words for the problems extract records (summary.ProblemWords has
// those of the other types' summarisers).
var problemWords = map[string]string{
	extract.ProblemNoTitle:         "no <title> element",
	extract.ProblemEmptyTitle:      "the title is empty",
	extract.ProblemMultipleTitles:  "more than one <title>",
	extract.ProblemUnclosedQuote:   "an attribute's quote is never closed",
	extract.ProblemUnclosedComment: "a comment runs to the end of the document",
	extract.ProblemUnclosedElement: "an element is never closed, or a link inside a link",
	extract.ProblemUnclosedTag:     "a tag is missing its closing >",
	extract.ProblemBadBase:         "the <base> URL is unusable",
	extract.ProblemBadLink:         "a link target does not parse as a URL",
	extract.ProblemTruncated:       "longer than --max-body: only its beginning is kept",
}

func (e *env) pagesCmd() *cobra.Command {
	var state string
	var crawlID int64
	var limit, offset int
	cmd := &cobra.Command{
		Use:   "pages [--crawl N] [--state S]",
		Short: "List a crawl's pages with why each failed or was skipped",
		Long: `List a crawl's pages (the newest crawl unless --crawl says which): those it visited last,
or found and no crawl has visited since, as status counts them. --state keeps one state:
fetched, queued, failed, skipped or redirected, or recorded: the links recorded, not pages
(other sites, style sheets, scripts, images and files links name), which skipped leaves out.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch state {
			case "", store.StateFetched, store.StateQueued, store.StateFailed, store.StateSkipped, store.StateRedirected, store.Recorded:
			default:
				return usageError{fmt.Errorf("--state %q: fetched, queued, failed, skipped, redirected or recorded", state)}
			}
			if limit <= 0 || limit > 1000 || offset < 0 {
				return usageError{fmt.Errorf("--limit must be 1 to 1000 and --offset not negative")}
			}
			return e.pages(cmd.Context(), crawlID, state, offset, limit)
		},
	}
	f := cmd.Flags()
	f.StringVar(&state, "state", "", "only pages in this state: fetched, queued, failed, skipped, redirected, recorded")
	f.Int64Var(&crawlID, "crawl", 0, "the crawl (default: the newest)")
	f.IntVar(&limit, "limit", 100, "pages to list (at most 1000)")
	f.IntVar(&offset, "offset", 0, "pages to skip")
	return cmd
}

// pagesJSON is pages --json: which crawl, state and offset, and the window's CrawlPages.
type pagesJSON struct {
	Crawl  int64  `json:"crawl"`
	State  string `json:"state,omitempty"`
	Offset int    `json:"offset"`
	app.CrawlPages
}

func (e *env) pages(ctx context.Context, crawlID int64, state string, offset, limit int) error {
	st, err := e.open(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	if crawlID == 0 {
		cs, err := st.Crawls(ctx)
		if err != nil {
			return err
		}
		if len(cs) == 0 {
			return fmt.Errorf("no crawl in the workspace yet: run 'mundaneum crawl URL' first")
		}
		crawlID = cs[0].ID
	} else if _, err := st.Crawl(ctx, crawlID); errors.Is(err, store.ErrNotFound) {
		return usageError{fmt.Errorf("no crawl %d (see 'mundaneum status')", crawlID)}
	}
	cp, err := app.CrawlPagesOf(ctx, st, crawlID, state, offset, limit)
	if err != nil {
		return err
	}
	out := pagesJSON{Crawl: crawlID, State: state, Offset: offset, CrawlPages: cp}
	ps, total := cp.Pages, cp.Total
	if e.json {
		return e.printJSON(out)
	}
	what := "pages"
	if state != "" {
		what = state + " pages"
	}
	fmt.Fprintf(e.stdout, "crawl %d: %d %s", crawlID, total, what)
	if len(ps) > 0 && (offset > 0 || len(ps) < total) {
		fmt.Fprintf(e.stdout, " (%d-%d shown)", offset+1, offset+len(ps))
	}
	fmt.Fprintln(e.stdout)
	for _, p := range out.Pages {
		status := ""
		if p.Status != 0 {
			status = fmt.Sprint(p.Status)
		}
		fmt.Fprintf(e.stdout, "%-10s %3s  %s\n", p.State, status, clean(p.URL))
		if p.ReasonText != "" || p.Detail != "" {
			why := p.ReasonText
			if p.Detail != "" {
				why = strings.TrimPrefix(why+" ("+p.Detail+")", " ")
			}
			fmt.Fprintf(e.stdout, "%16s%s\n", "", clean(why))
		}
	}
	return nil
}

package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"mundaneum/app"
	"mundaneum/backend/crawl"
	"mundaneum/backend/index"
	"mundaneum/backend/libsearch"
	"mundaneum/backend/search"
)

// searchHelp documents the query language.
const searchHelp = `Search titles, headings, text, incoming anchor text and URL words of every page, and
the images, movies and archives known only from links (by their anchor text and the
titles of the pages citing them).

Words
  otlet index          pages with all the words (a plain word also finds its other
                       forms: connections finds connect, connected, connecting)
  "card index"         the exact phrase ("index" in quotes: that word only, no other forms)
  cat OR dog           either word (also: cat | dog); OR binds tighter than side by side
  -word, NOT word      leave out pages with the word; -"a phrase", -(a b), -site:x work too
  (a OR b) c           parentheses group
  mund*                words starting with mund (two letters or more)
  NEAR(otlet index, 5) the words within 5 words of each other (default 10; phrases allowed)

Where the words must be
  title:otlet  anchor:otlet  body:otlet  heading:otlet  url:otlet
  title:(a OR b)       a field applies to a whole group
  url:/\.pdf$/         a regular expression (RE2, case-insensitive) on the URL;
  title:/^the /        ... or on the title

Which pages
  site:example.com     that host and its subdomains (site:fi: all of Finland)
  host:www.example.com that host only
  ext:mpg              URLs ending in .mpg (site:fi ext:mpg: MPEG movies in Finland)
  type:image           html, pdf, image, video, audio, archive, document, data, text,
                       a media type (type:application/pdf) or an extension
  inlinks:URL          pages that the page at URL links to
  linkto:URL           pages that link to URL
  after:2024-03        last modified (or else fetched) in or after March 2024;
  before:1995          ... before 1995 (YYYY, YYYY-MM or YYYY-MM-DD)
  status:404, 4xx      by HTTP status
  is:broken            broken links (also: is:redirect, is:failed, is:ok, is:resource, is:blocked)
  problem:no-title     pages with a problem found in their HTML: no-title, empty-title,
                       multiple-titles, unclosed-quote, unclosed-comment, unclosed-element,
                       unclosed-tag, bad-base, bad-link, truncated (cut at --max-body), or any;
                       and in documents: unreadable, encrypted, bomb, too-deep, too-many,
                       timeout, tool-missing
  lang:en              by the language the page declares
  author:otlet         by the author its summary names (a PDF's, a page's meta author);
                       author:"Paul Otlet" for a phrase
  pages:>10            documents of more than 10 pages (also pages:12, pages:<=3)
  crawl:3              pages of crawl 3
  folder:/Computing/Go pages the library's pointers under that library point at
  tag:go               pages the library's pointers tagged go point at

The library's own postings that match (titles, URLs, notes, tags, report text) are
listed first, apart from the pages ('mundaneum library search' searches only them).

Any input is a query: what cannot be read as an operator is read as words, with a note.
A word may start with "-" without quoting or "--": mundaneum search -library otlet.
Duplicates are shown once, with the number of identical copies, and so are copies that name
another page as their canonical URL (rel=canonical: a print version, a link with tracking
parameters). Scores are normalised to 1000 for the best hit; only the best 500 matches of a
text query are ranked, and paging stops there. When nothing matches, misspelled words are
corrected from the index's own vocabulary and the corrected query is run instead.`

func (e *env) searchCmd() *cobra.Command {
	var limit, offset int
	var facets, explain bool
	cmd := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search the workspace offline",
		Long:  searchHelp,
	}
	freeText(cmd, func(cmd *cobra.Command, words []string) error {
		if err := needWords(words, "search"); err != nil {
			return err
		}
		if limit <= 0 {
			return usageError{fmt.Errorf("--limit must be positive")}
		}
		if offset < 0 {
			return usageError{fmt.Errorf("--offset must not be negative")}
		}
		return e.search(cmd.Context(), search.Request{Query: strings.Join(words, " "), Limit: limit, Offset: offset, Facets: facets, Explain: explain})
	})
	cmd.Flags().IntVar(&limit, "limit", 10, "results to show")
	cmd.Flags().IntVar(&offset, "offset", 0, "results to skip")
	cmd.Flags().BoolVar(&facets, "facets", false, "count the matches by host, type, crawl and status")
	cmd.Flags().BoolVar(&explain, "explain", false, "say how each result's score was made (bm25, citations, title and URL signals)")
	return cmd
}

// searchJSON is search --json: the window's results (app.SearchResults) and, when another
// process is crawling and the index has not caught up, how far it is.
type searchJSON struct {
	app.SearchResults
	Index *app.IndexStatus `json:"index,omitempty"`
}

func (e *env) search(ctx context.Context, r search.Request) error {
	w, err := e.openSearchable(ctx)
	if err != nil {
		return err
	}
	defer w.Close()
	p := w.idx.Progress(ctx)
	if p.Missing {
		return fmt.Errorf("%w: it is built when the workspace is opened for writing (another process has it open now)", index.ErrNoIndex)
	}
	s := search.New(w.idx.SearchDB())
	res, err := s.Search(ctx, r)
	if err != nil {
		return err
	}
	var lib libsearch.Results
	if r.Offset == 0 {
		if lib, err = libsearch.New(w.idx.SearchDB()).Search(ctx, libsearch.Request{Query: r.Query, Limit: libraryHits}); err != nil {
			return err
		}
	}
	if e.json {
		out := searchJSON{SearchResults: app.SearchResultsOf(res)}
		out.Library = app.LibSearchResultsOf(lib)
		if !p.Current() {
			ix := app.IndexStatusOf(ctx, w.st, p)
			out.Index = &ix
		}
		return e.printJSON(out)
	}
	if !p.Current() {
		// Another process is crawling: say how much of the workspace this searched.
		fmt.Fprintf(e.stderr, "note: the search index is catching up: %s\n", p)
	}
	if len(lib.Hits) > 0 {
		more := ""
		if lib.Total > len(lib.Hits) {
			more = fmt.Sprintf(" (%d of %d: mundaneum library search)", len(lib.Hits), lib.Total)
		}
		fmt.Fprintf(e.stdout, "In your library%s:\n", more)
		e.printLibraryHits(lib, false)
		fmt.Fprintln(e.stdout)
	}
	printResults(e.stdout, res, r, isTerminal(e.stdout))
	return nil
}

// libraryHits is how many of the library's postings a search shows above the pages.
const libraryHits = 5

func printResults(w io.Writer, res search.Results, r search.Request, tty bool) {
	if res.Note != "" {
		fmt.Fprintln(w, clean(res.Note))
	}
	if res.DidYouMean != "" && !res.Corrected {
		fmt.Fprintf(w, "Did you mean: %s\n", clean(res.DidYouMean))
	}
	if res.Note != "" || res.DidYouMean != "" {
		fmt.Fprintln(w)
	}
	for _, h := range res.Results {
		title := clean(h.Title)
		if title == "" {
			title = "(no title)"
		}
		var tags []string
		if changedSince(h) {
			tags = append(tags, "changed")
		} else if h.New {
			tags = append(tags, "new")
		}
		if h.Flag != "" {
			tags = append(tags, "looks dead: "+h.Flag)
		}
		if h.Type != "" && h.Type != "html" {
			tags = append(tags, h.Type)
		}
		if h.Author != "" {
			tags = append(tags, "by "+h.Author)
		}
		if h.Pages == 1 {
			tags = append(tags, "1 page")
		} else if h.Pages > 1 {
			tags = append(tags, fmt.Sprintf("%d pages", h.Pages))
		}
		if h.State == "skipped" {
			tags = append(tags, "known from links")
		}
		if h.Status >= 300 {
			tags = append(tags, fmt.Sprint(h.Status))
		}
		if h.Reason != "" && h.State != "skipped" {
			tags = append(tags, crawl.ReasonText(h.Reason))
		}
		switch {
		case h.Copies == 1:
			tags = append(tags, "1 identical copy")
		case h.Copies > 1:
			tags = append(tags, fmt.Sprintf("%d identical copies", h.Copies))
		}
		switch {
		case h.Alternates == 1:
			tags = append(tags, "1 copy names it canonical")
		case h.Alternates > 1:
			tags = append(tags, fmt.Sprintf("%d copies name it canonical", h.Alternates))
		}
		tag := ""
		if len(tags) > 0 {
			tag = "  [" + clean(strings.Join(tags, ", ")) + "]"
		}
		fmt.Fprintf(w, "%4d  %s%s\n      %s\n", h.Score, title, tag, clean(h.URL))
		if snip := renderSnippet(h.Snippet, tty); snip != "" {
			fmt.Fprintf(w, "      %s\n", snip)
		}
		if h.Explain != "" {
			fmt.Fprintf(w, "      why: %s\n", h.Explain)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, resultsLine(res, r))
	if len(res.Facets) > 0 {
		approx := ""
		if res.FacetsApprox {
			approx = fmt.Sprintf(" (estimated from a sample of %d matches)", search.FacetCap)
		}
		fmt.Fprintf(w, "\nFacets%s:\n", approx)
		for _, name := range []string{"host", "type", "crawl", "status"} {
			var parts []string
			for _, f := range res.Facets[name] {
				parts = append(parts, fmt.Sprintf("%s (%d)", clean(f.Refine), f.Count))
			}
			if len(parts) > 0 {
				fmt.Fprintf(w, "  %-7s %s\n", name+":", strings.Join(parts, "  "))
			}
		}
	}
}

// resultsLine says which results were shown of how many, and why none were when paging
// went past the ranked matches or past the end.
func resultsLine(res search.Results, r search.Request) string {
	total := fmt.Sprint(res.Total)
	switch {
	case res.TotalAtLeast:
		total = "more than " + total
	case res.TotalApprox:
		total = "about " + total
	}
	took := float64(res.Took.Microseconds()) / 1000
	switch {
	case len(res.Results) > 0:
		return fmt.Sprintf("%d-%d of %s results (%.1f ms)", r.Offset+1, r.Offset+len(res.Results), total, took)
	case res.Total == 0:
		return fmt.Sprintf("No results (%.1f ms)", took)
	case res.Window > 0 && r.Offset >= res.Window:
		return fmt.Sprintf("No results from %d on: of %s results only the best %d are ranked; narrow the query "+
			"(more words, site:, type:, after:) to reach the others (%.1f ms)", r.Offset+1, total, res.Window, took)
	}
	return fmt.Sprintf("No results from %d on: there are %s (%.1f ms)", r.Offset+1, total, took)
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

// changedSince reports whether a result of an opened view is a page that changed since the
// view was last opened (new since, with more than one version), not one first found.
func changedSince(r search.Result) bool { return r.New && r.Versions > 1 }

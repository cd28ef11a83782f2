package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"mundaneum/app"
	"mundaneum/backend/library"
	"mundaneum/backend/store"
)

func rfc3339ms(ms int64) string {
	if ms <= 0 {
		return ""
	}
	return time.UnixMilli(ms).UTC().Format(time.RFC3339)
}

// childPath is the path of a child titled title in the library at parent.
func childPath(parent, title string) string {
	return strings.TrimSuffix(parent, "/") + "/" + library.EscapeTitle(title)
}

// postingJSON is a posting in --json output: as the window gets it (app.LibPosting).
func postingJSON(p library.Posting, path string) app.LibPosting { return app.PostingOf(p, path) }

// printNode reports one node an operation made or changed.
func (e *env) printNode(ctx context.Context, l *library.Library, n library.Node, verb string) error {
	d, err := l.Posting(ctx, n.ID)
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSON(postingJSON(d.Posting, d.Path))
	}
	fmt.Fprintf(e.stdout, "%s %s %s (#%d)\n", verb, d.Kind, clean(d.Path), d.ID)
	return nil
}

type lsOptions struct {
	recursive, recent bool
	order             string
	limit             int // postings per library (or in all, --new); 0: every one
}

// moreJSON ends a library's postings in --json when --limit left some out.
type moreJSON struct {
	Kind string `json:"kind"` // "more"
	Path string `json:"path"` // the library whose postings were cut
	More int    `json:"more"` // how many were left out
}

func (e *env) libLsCmd() *cobra.Command {
	var o lsOptions
	cmd := &cobra.Command{
		Use:   "ls [PATH]",
		Short: "List a library: its sub-libraries, then its postings",
		Long: `List a library: its header, its sub-libraries (with what is below them), then its
postings (alphabetically, by date or by hand: --order), with what the crawler knows of
each pointer's page. --recursive lists everything below; --new lists everything at or
below it, newest first (GENVL's global list). In --json each posting has at least path,
kind, title and url.

Everything is listed, however many (it is written as it is read). --limit N lists at
most N postings per library (in all, with --new); where it leaves some out the text says
how many, and --json ends that library's postings with {"kind": "more", "path": ...,
"more": N}.`,
		Args: usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := "/"
			if len(args) == 1 {
				path = args[0]
			}
			if o.limit < 0 {
				return usageError{errors.New("--limit must not be negative (0 lists everything)")}
			}
			return e.libList(cmd.Context(), path, o)
		},
	}
	f := cmd.Flags()
	f.BoolVarP(&o.recursive, "recursive", "R", false, "list everything below, library by library")
	f.BoolVar(&o.recent, "new", false, "list everything at or below it, newest first")
	f.StringVar(&o.order, "order", "", "title, date or manual (default: the library's own order)")
	f.IntVar(&o.limit, "limit", 0, "postings to list per library (--new: in all); 0 lists every one")
	return cmd
}

// jsonArray writes a JSON array element by element, as printJSON would write it whole.
type jsonArray struct {
	w io.Writer
	n int
}

func (a *jsonArray) add(v any) error {
	b, err := json.MarshalIndent(app.ListsNotNull(v), "  ", "  ")
	if err != nil {
		return err
	}
	sep := ",\n  "
	if a.n == 0 {
		sep = "[\n  "
	}
	a.n++
	_, err = fmt.Fprintf(a.w, "%s%s", sep, b)
	return err
}

func (a *jsonArray) end() error {
	end := "\n]\n"
	if a.n == 0 {
		end = "[]\n"
	}
	_, err := io.WriteString(a.w, end)
	return err
}

func (e *env) libList(ctx context.Context, path string, o lsOptions) error {
	return e.libRead(ctx, func(l *library.Library, st *store.Store) error {
		n, err := l.Resolve(ctx, path)
		if err != nil {
			return err
		}
		switch {
		case n.Kind != library.KindLibrary:
			d, err := l.Posting(ctx, n.ID)
			if err != nil {
				return err
			}
			if e.json {
				return e.printJSON([]app.LibPosting{postingJSON(d.Posting, d.Path)})
			}
			return e.printPosting(d)
		case o.recent:
			return e.libRecent(ctx, l, n, o.limit)
		}
		out := &jsonArray{w: e.stdout}
		if err := e.listLibrary(ctx, l, n.ID, "", o, out, true); err != nil {
			return err
		}
		if e.json {
			return out.end()
		}
		return nil
	})
}

// listLibrary writes library id's sub-libraries and its postings, a page at a time, and with
// --recursive what is below each sub-library; path is its path ("" to find it).
func (e *env) listLibrary(ctx context.Context, l *library.Library, id int64, path string, o lsOptions, out *jsonArray, top bool) error {
	step := library.MaxList
	if o.limit > 0 {
		step = min(step, o.limit)
	}
	p, err := l.Open(ctx, id, library.ListQuery{Order: library.Order(o.order), Limit: step})
	if err != nil {
		return err
	}
	if path == "" {
		path = p.Path
	}
	switch {
	case e.json:
	case top && !o.recursive:
		e.printHeader(p)
	default:
		fmt.Fprintf(e.stdout, "%s\n", clean(path))
	}
	if !o.recursive && e.json {
		for _, c := range p.Libraries {
			if err := out.add(postingJSON(c, childPath(path, c.Title))); err != nil {
				return err
			}
		}
	}
	shown := 0
	for first := true; ; first = false {
		posts := p.Postings
		if o.limit > 0 {
			posts = posts[:min(len(posts), o.limit-shown)]
		}
		if e.json {
			for _, c := range posts {
				if err := out.add(postingJSON(c, childPath(path, c.Title))); err != nil {
					return err
				}
			}
		} else if first {
			e.printListing(path, p.Libraries, posts)
		} else {
			e.printListing(path, nil, posts)
		}
		shown += len(posts)
		if shown >= p.Total || len(p.Postings) == 0 || (o.limit > 0 && shown >= o.limit) {
			break
		}
		next, err := l.Open(ctx, id, library.ListQuery{Order: p.Order, Offset: shown, Limit: step})
		if err != nil {
			return err
		}
		next.Libraries = p.Libraries
		p = next
	}
	if more := p.Total - shown; more > 0 {
		if e.json {
			if err := out.add(moreJSON{Kind: "more", Path: path, More: more}); err != nil {
				return err
			}
		} else {
			fmt.Fprintf(e.stdout, "  … and %d more (--limit %d; 0 lists every one)\n", more, o.limit)
		}
	}
	if !o.recursive {
		return nil
	}
	for _, c := range p.Libraries {
		cp := childPath(path, c.Title)
		if e.json {
			if err := out.add(postingJSON(c, cp)); err != nil {
				return err
			}
		}
		if err := e.listLibrary(ctx, l, c.ID, cp, o, out, false); err != nil {
			return err
		}
	}
	return nil
}

func (e *env) printHeader(p library.Page) {
	fmt.Fprintf(e.stdout, "%s  (%d libraries, %d postings below)\n", clean(p.Path), p.Library.Libraries, p.Library.Postings)
	var meta []string
	if p.Library.Author != "" || p.Library.Email != "" {
		meta = append(meta, "by "+clean(strings.TrimSpace(p.Library.Author+" <"+p.Library.Email+">")))
	}
	if p.Library.CreateOnly {
		meta = append(meta, "create-only")
	}
	if p.Library.Protected() {
		meta = append(meta, "password-protected")
	}
	meta = append(meta, "listed by "+string(p.Order))
	fmt.Fprintln(e.stdout, strings.Join(meta, " · "))
	if p.Library.Purpose != "" {
		fmt.Fprintln(e.stdout, clean(p.Library.Purpose))
	}
	fmt.Fprintln(e.stdout)
}

func known(k *library.Known) string {
	if k == nil {
		return "not in the workspace"
	}
	s := k.State
	if k.Status != 0 {
		s += fmt.Sprintf(" %d", k.Status)
	}
	if k.FetchedAt > 0 {
		s += " " + time.UnixMilli(k.FetchedAt).Format("2006-01-02")
	}
	if k.Copy {
		s += ", offline copy"
	}
	return s
}

// health says what the link checks say of a pointer's URL, "" if never checked.
func health(h *library.Health) string {
	if h == nil {
		return ""
	}
	s := "  link: " + strings.ReplaceAll(h.Verdict, "_", " ")
	if h.Dead {
		s = "  link: dead (" + strings.ReplaceAll(h.Verdict, "_", " ") + ")"
	}
	if h.Status != 0 && h.Verdict != "redirected" {
		s += fmt.Sprintf(" %d", h.Status)
	}
	if h.Verdict == "redirected" && h.FinalURL != "" {
		if h.Permanent {
			s += " permanently"
		}
		s += " to " + clean(h.FinalURL)
	}
	return s + " " + time.UnixMilli(h.CheckedAt).Format("2006-01-02")
}

func (e *env) printListing(path string, libs, posts []library.Posting) {
	tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
	for _, c := range libs {
		fmt.Fprintf(tw, "  %s/\t%d postings, %d libraries\t#%d\n", clean(c.Title), c.Postings, c.Libraries, c.ID)
	}
	for _, c := range posts {
		switch c.Kind {
		case library.KindPointer:
			fmt.Fprintf(tw, "  %s\t%s\t#%d  [%s]%s%s\n", clean(c.Title), clean(c.URL), c.ID, known(c.Known), health(c.Health), tagList(c.Tags))
		case library.KindReport:
			fmt.Fprintf(tw, "  %s\t(report)\t#%d\n", clean(c.Title), c.ID)
		case library.KindView:
			q := ""
			if c.View != nil {
				q = c.View.Query
			}
			fmt.Fprintf(tw, "  %s\t(view: %s)\t#%d\n", clean(c.Title), clean(q), c.ID)
		}
	}
	tw.Flush()
}

func tagList(tags []string) string {
	if len(tags) == 0 {
		return ""
	}
	return "  tags: " + clean(strings.Join(tags, ", "))
}

func (e *env) printPosting(d library.Detail) error {
	fmt.Fprintf(e.stdout, "%s (%s #%d)\n", clean(d.Path), d.Kind, d.ID)
	if d.URL != "" {
		fmt.Fprintf(e.stdout, "  url:     %s\n  crawler: %s\n", clean(d.URL), known(d.Known))
	}
	for _, a := range d.Aliases {
		fmt.Fprintf(e.stdout, "  was:     %s\n", clean(a.URL))
	}
	if h := d.Health; h != nil {
		fmt.Fprintf(e.stdout, "  link:   %s\n", strings.TrimPrefix(health(h), "  link:"))
	}
	if len(d.Tags) > 0 {
		fmt.Fprintf(e.stdout, "  tags:    %s\n", clean(strings.Join(d.Tags, ", ")))
	}
	if d.Author != "" || d.Email != "" {
		fmt.Fprintf(e.stdout, "  by:      %s\n", clean(strings.TrimSpace(d.Author+" <"+d.Email+">")))
	}
	fmt.Fprintf(e.stdout, "  added:   %s\n", time.UnixMilli(d.CreatedAt).Format("2006-01-02 15:04"))
	if d.Protected() {
		fmt.Fprintln(e.stdout, "  password-protected")
	}
	if d.View != nil {
		fmt.Fprintf(e.stdout, "  view:    %s (mundaneum views open %q)\n", clean(d.View.Query), d.View.Name)
	}
	if d.Notes != "" {
		fmt.Fprintf(e.stdout, "\n%s\n", cleanBlock(d.Notes))
	}
	if d.Body != "" {
		fmt.Fprintf(e.stdout, "\n%s\n", cleanBlock(d.Body))
	}
	return nil
}

// cleanBlock keeps the lines of a text but makes each safe for a terminal.
func cleanBlock(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = clean(l)
	}
	return strings.Join(lines, "\n")
}

// libRecent lists everything at or below n, newest first, a page at a time.
func (e *env) libRecent(ctx context.Context, l *library.Library, n library.Node, limit int) error {
	out := &jsonArray{w: e.stdout}
	shown, total := 0, 0
	for {
		step := library.MaxList
		if limit > 0 {
			step = min(step, limit-shown)
		}
		r, err := l.Recent(ctx, n.ID, 0, shown, step)
		if err != nil {
			return err
		}
		total = r.Total
		if e.json {
			for i, p := range r.Postings {
				if err := out.add(postingJSON(p, childPath(r.Paths[i], p.Title))); err != nil {
					return err
				}
			}
		} else {
			tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
			for i, p := range r.Postings {
				fmt.Fprintf(tw, "%s\t%s\t%s\tin %s\n", time.UnixMilli(p.CreatedAt).Format("2006-01-02 15:04"), p.Kind,
					clean(p.Title), clean(r.Paths[i]))
			}
			tw.Flush()
		}
		shown += len(r.Postings)
		if len(r.Postings) < step || (limit > 0 && shown >= limit) {
			break
		}
	}
	if more := total - shown; more > 0 && limit > 0 {
		path, err := l.PathOf(ctx, n)
		if err != nil {
			return err
		}
		if e.json {
			if err := out.add(moreJSON{Kind: "more", Path: path, More: more}); err != nil {
				return err
			}
		} else {
			fmt.Fprintf(e.stdout, "… and %d more (--limit %d; 0 lists every one)\n", more, limit)
		}
	}
	if e.json {
		return out.end()
	}
	return nil
}

func (e *env) libShowCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "show PATH",
		Short: "Show one posting: its fields, its text, and what the crawler knows of its page",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE:  func(cmd *cobra.Command, args []string) error { return e.libShow(cmd.Context(), args) },
	}
}

// libShow shows the posting at args[0].
func (e *env) libShow(ctx context.Context, args []string) error {
	return e.libRead(ctx, func(l *library.Library, _ *store.Store) error {
		n, err := l.Resolve(ctx, args[0])
		if err != nil {
			return err
		}
		d, err := l.Posting(ctx, n.ID)
		if err != nil {
			return err
		}
		if e.json {
			// The posting as the window gets it, and a report's text (the window's
			// LibDetail carries it beside its rendering).
			return e.printJSON(struct {
				app.LibPosting
				Body string `json:"body,omitempty"`
			}{postingJSON(d.Posting, d.Path), d.Body})
		}
		return e.printPosting(d)
	})
}

func (e *env) libTagsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "tags",
		Short: "List the tags of the library, the most used first",
		Args:  usageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return e.libTags(cmd.Context()) },
	}
}

// libTags lists the tags, the most used first.
func (e *env) libTags(ctx context.Context) error {
	return e.libRead(ctx, func(l *library.Library, _ *store.Store) error {
		ts, err := l.Tags(ctx)
		if err != nil {
			return err
		}
		if e.json {
			out := make([]app.LibTag, 0, len(ts))
			for _, t := range ts {
				out = append(out, app.LibTag{Tag: t.Tag, Count: t.Count})
			}
			return e.printJSON(out)
		}
		for _, t := range ts {
			fmt.Fprintf(e.stdout, "%6d  %s\n", t.Count, clean(t.Tag))
		}
		return nil
	})
}

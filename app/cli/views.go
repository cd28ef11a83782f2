package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"mundaneum/app"
	"mundaneum/backend/index"
	"mundaneum/backend/libsearch"
	"mundaneum/backend/search"
)

func (e *env) viewsCmd() *cobra.Command {
	var limit, offset int
	var facets, force bool
	cmd := &cobra.Command{
		Use:   "views [list | save NAME QUERY... | open NAME | delete NAME]",
		Short: "Saved searches that say what is new since you last looked",
		Long: `A view is a saved query (Harvest's standing query). Opening it runs the query again
and marks the results that are new or changed since it was last opened.

  mundaneum views                          list the views
  mundaneum views save films 'site:fi ext:mpg'
  mundaneum views save --force films ext:mpg   replace a view (what is new counts from now)
  mundaneum views open films               run it, mark what is new
  mundaneum views delete films

See 'mundaneum search --help' for the query language.`,
	}
	freeText(cmd, func(cmd *cobra.Command, args []string) error {
		ctx := cmd.Context()
		if len(args) == 0 {
			args = []string{"list"}
		}
		switch verb, rest := args[0], args[1:]; {
		case verb == "list" && len(rest) == 0:
			return e.listViews(ctx)
		case verb == "save" && len(rest) >= 2:
			return e.saveView(ctx, rest[0], strings.Join(rest[1:], " "), force)
		case verb == "open" && len(rest) == 1:
			if limit <= 0 || offset < 0 {
				return usageError{fmt.Errorf("--limit must be positive and --offset not negative")}
			}
			return e.openView(ctx, rest[0], search.Request{Limit: limit, Offset: offset, Facets: facets})
		case verb == "delete" && len(rest) == 1:
			return e.deleteView(ctx, rest[0])
		}
		return usageError{fmt.Errorf("usage: views [list | save NAME QUERY... | open NAME | delete NAME]")}
	})
	cmd.Flags().IntVar(&limit, "limit", 10, "results to show when opening a view")
	cmd.Flags().IntVar(&offset, "offset", 0, "results to skip when opening a view")
	cmd.Flags().BoolVar(&facets, "facets", false, "count an opened view's matches by host, type, crawl and status")
	cmd.Flags().BoolVar(&force, "force", false, "save over a view of the same name (its count of what is new starts again)")
	return cmd
}

// noView turns a missing view into a usage error that names it.
func noView(name string, err error) error {
	if errors.Is(err, search.ErrNoView) {
		return usageError{fmt.Errorf("no view named %q (see 'mundaneum views list')", name)}
	}
	if errors.Is(err, search.ErrBadView) {
		return usageError{err}
	}
	return err
}

func (e *env) listViews(ctx context.Context) error {
	st, err := e.open(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	vs, err := search.ListViews(ctx, st)
	if err != nil {
		return err
	}
	if e.json {
		out := make([]app.View, 0, len(vs))
		for _, v := range vs {
			out = append(out, app.ViewOf(v))
		}
		return e.printJSON(out)
	}
	if len(vs) == 0 {
		fmt.Fprintln(e.stdout, "No saved views yet: mundaneum views save NAME QUERY")
		return nil
	}
	for _, v := range vs {
		opened := "never opened"
		if v.OpenedAt > 0 {
			opened = fmt.Sprintf("%d results when opened %s", v.LastTotal, time.UnixMilli(v.OpenedAt).Format("2006-01-02 15:04"))
		}
		fmt.Fprintf(e.stdout, "%-20s %s\n%20s (%s)\n", clean(v.Name), clean(v.Query), "", opened)
	}
	return nil
}

func (e *env) saveView(ctx context.Context, name, query string, force bool) error {
	st, err := e.openShared(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	v, replaced, err := search.SaveView(ctx, st, name, query, force)
	if errors.Is(err, search.ErrViewExists) {
		return usageError{fmt.Errorf("%w: add --force to replace it", err)}
	}
	if err != nil {
		return noView(name, err)
	}
	if e.json {
		return e.printJSON(savedViewJSON{View: app.ViewOf(v), Replaced: replaced})
	}
	if replaced {
		fmt.Fprintf(e.stdout, "Replaced view %q: %s (what is new now counts from this moment)\n", clean(v.Name), clean(v.Query))
		return nil
	}
	fmt.Fprintf(e.stdout, "Saved view %q: %s\n", clean(v.Name), clean(v.Query))
	return nil
}

// savedViewJSON is views save --json: the window's view, and whether it replaced one.
type savedViewJSON struct {
	app.View
	Replaced bool `json:"replaced"`
}

func (e *env) deleteView(ctx context.Context, name string) error {
	st, err := e.openShared(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := search.DeleteView(ctx, st, name); err != nil {
		return noView(name, err)
	}
	if !e.json {
		fmt.Fprintf(e.stdout, "Deleted view %q\n", clean(name))
		return nil
	}
	return e.printJSON(map[string]string{"deleted": name})
}

func (e *env) openView(ctx context.Context, name string, r search.Request) error {
	w, err := e.openViewWorkspace(ctx)
	if err != nil {
		return err
	}
	defer w.Close()
	o, err := search.New(w.idx.SearchDB()).OpenView(ctx, w.st, name, r)
	if err != nil {
		return noView(name, err)
	}
	if e.json {
		// As the window opens it (app.OpenView): with the library's postings that match.
		var lib libsearch.Results
		if r.Offset == 0 {
			if lib, err = libsearch.New(w.idx.SearchDB()).Search(ctx, libsearch.Request{Query: o.View.Query, Limit: libraryHits}); err != nil {
				return err
			}
		}
		return e.printJSON(app.ViewResultsOf(o, lib))
	}
	fmt.Fprintf(e.stdout, "View %q: %s\n%d new or changed since %s (marked [new] or [changed])\n\n", clean(o.View.Name), clean(o.View.Query),
		o.New, time.UnixMilli(o.Since).Format("2006-01-02 15:04"))
	printResults(e.stdout, o.Results, r, isTerminal(e.stdout))
	// What changed since, one command away: the diff from the version in force then.
	from := time.UnixMilli(o.Since).UTC().Format("2006-01-02T15:04:05.000Z07:00")
	first := true
	for _, h := range o.Results.Results {
		if !changedSince(h) {
			continue
		}
		if first {
			fmt.Fprintln(e.stdout, "\nWhat changed since:")
			first = false
		}
		fmt.Fprintf(e.stdout, "  mundaneum diff %s --from %s\n", shellWord(clean(h.URL)), from)
	}
	return nil
}

// shellWord quotes s for a shell when it holds anything but plain URL characters.
func shellWord(s string) string {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_./:%=+~,@-", c)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// openViewWorkspace opens the workspace for opening a view (which records when it was
// opened): as the owner when nobody else has it, so that everything stored is searchable
// first (a view counts what is new); beside the owner (a window, serve, a crawl) with a
// short write otherwise, searching what its index stage has indexed so far.
func (e *env) openViewWorkspace(ctx context.Context) (*workspace, error) {
	st, err := e.openShared(ctx)
	if err != nil {
		return nil, err
	}
	if st.WriterActive() {
		idx, err := index.Open(ctx, st)
		if err != nil {
			st.Close()
			return nil, err
		}
		return &workspace{st: st, idx: idx}, nil
	}
	st.Close()
	w, err := e.openIndexed(ctx, false)
	if err != nil {
		return nil, err
	}
	bar := newIndexBar(e.stderr, isTerminal(e.stderr))
	err = w.idx.Wait(ctx, bar.update)
	bar.done()
	if err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

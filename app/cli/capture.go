package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"mundaneum/app"
	"mundaneum/backend/capture"
	"mundaneum/backend/index"
	"mundaneum/backend/library"
)

// Capture from the browser on the command line: the paired browsers (listed and unpaired),
// and a page saved "as shown" from its rendered HTML (what the extension sends: a browser's
// "Save page as", or chromium --headless --dump-dom).

const browsersHelp = `The browsers paired with this workspace: Mundaneum's extension in Chromium or Firefox
adds pages to the library through the window's door (Settings › Browser extension) or
serve's address. A browser pairs once, with a one-time code shown in Settings; its token is
bound to the extension's Origin. Unpairing refuses its calls from then on.`

func (e *env) browsersCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "browsers",
		Short: "List the browsers paired to add pages from (Mundaneum's extension)",
		Long:  browsersHelp,
		Args:  usageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return e.browsersList(cmd.Context()) },
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "unpair ID",
		Short: "Forget a paired browser: its calls are refused from now on",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE:  func(cmd *cobra.Command, args []string) error { return e.browsersUnpair(cmd.Context(), args) },
	})
	return cmd
}

// browsersUnpair unpairs the browser numbered args[0].
func (e *env) browsersUnpair(ctx context.Context, args []string) error {
	id, err := strconv.ParseInt(args[0], 10, 64)
	if err != nil || id <= 0 {
		return usageError{fmt.Errorf("not a browser's number: %q (mundaneum browsers lists them)", args[0])}
	}
	st, err := e.openShared(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.RemoveCaptureClient(ctx, id); err != nil {
		return err
	}
	if e.json {
		return e.printJSON(map[string]any{"unpaired": id})
	}
	fmt.Fprintf(e.stdout, "unpaired browser %d\n", id)
	return nil
}

// browsersList lists the browsers paired for capture.
func (e *env) browsersList(ctx context.Context) error {
	st, err := e.open(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	cs, err := st.CaptureClients(ctx)
	if err != nil {
		return err
	}
	if e.json {
		out := make([]app.CaptureClient, 0, len(cs))
		for _, c := range cs {
			out = append(out, app.CaptureClientOf(c))
		}
		return e.printJSON(map[string]any{"browsers": out})
	}
	if len(cs) == 0 {
		fmt.Fprintln(e.stdout, "no browser is paired (Settings › Browser extension › Pair a browser)")
	}
	for _, c := range cs {
		name := c.Browser
		if name == "" {
			name = "a browser"
		}
		fmt.Fprintf(e.stdout, "%4d  %-28s paired %s, last used %s, %d pages  %s\n", c.ID, clean(name), when(c.CreatedAt),
			when(c.UsedAt), c.Captures, clean(c.Origin))
	}
	return nil
}

const captureHelp = `Save a page as a browser shows it: its rendered HTML (FILE, or - for standard input) is
sanitised like any fetched page (no script, form, frame or style is kept) and stored as
the newest version of URL, searchable like a crawled page. This is what the extension's
"Save the page as I see it" does, for a page that needs a login or scripts to show its
content; for example:

  chromium --headless --dump-dom https://example.org/app | mundaneum capture https://example.org/app -

With --library, the page is also added to that library (with --title, --tags, --notes).`

func (e *env) captureCmd() *cobra.Command {
	var title, lib, notes, tags string
	cmd := &cobra.Command{
		Use:   "capture URL FILE",
		Short: "Save a page as a browser rendered it (its HTML from FILE or -), and add it to a library",
		Long:  captureHelp,
		Args:  usageArgs(cobra.ExactArgs(2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.capture(cmd.Context(), args, title, lib, notes, tags)
		},
	}
	f := cmd.Flags()
	f.StringVar(&title, "title", "", "the page's title as the browser showed it")
	f.StringVar(&lib, "library", "", "also add the page to this library (a path: /Reading)")
	f.StringVar(&notes, "notes", "", "notes of the library's pointer (with --library)")
	f.StringVar(&tags, "tags", "", "comma-separated tags of the pointer (with --library)")
	return cmd
}

// capture saves the file args[1] as the page at args[0] was shown.
func (e *env) capture(ctx context.Context, args []string, title, lib, notes, tags string) error {
	dom, err := readDOM(args[1])
	if err != nil {
		return err
	}
	w, err := e.openIndexed(ctx, false)
	if err != nil {
		return err
	}
	defer w.Close()
	page := &capture.Page{URL: args[0], Title: title, DOM: dom}
	sv := capture.NewSaver(w.st)
	var saved capture.Saved
	var added *capture.Added
	if lib != "" {
		var tl []string
		if tags != "" {
			tl = strings.Split(tags, ",")
		}
		a, err := capture.Add(ctx, w.st, sv, capture.Addition{URL: args[0], Title: title, Notes: notes, Tags: tl, Library: lib, Page: page}, time.Now())
		if err != nil {
			return captureCLIError(err)
		}
		added, saved = &a, *a.Saved
	} else if saved, err = sv.Save(ctx, *page, time.Now()); err != nil {
		return captureCLIError(err)
	}
	// Searchable before the command returns, like a crawl's pages.
	if err := w.idx.Wait(ctx, func(index.Progress) {}); err != nil {
		return err
	}
	if e.json {
		return e.printJSON(map[string]any{"saved": saved, "added": added})
	}
	change := "a new version"
	if !saved.Changed {
		change = "the version stored already (confirmed)"
	}
	fmt.Fprintf(e.stdout, "saved %s as page %d: %s, %d bytes kept\n", clean(args[0]), saved.PageID, change, saved.Bytes)
	if added != nil {
		if added.Existing {
			fmt.Fprintf(e.stdout, "already in %s\n", clean(added.Place.Library))
		} else {
			fmt.Fprintf(e.stdout, "added to %s as #%d\n", clean(added.Place.Library), added.Place.ID)
		}
	}
	return nil
}

// readDOM reads a page's HTML from a file or standard input ("-"), at most capture.MaxDOM.
func readDOM(name string) (string, error) {
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return "", err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, capture.MaxDOM+1))
	if err != nil {
		return "", err
	}
	if len(b) > capture.MaxDOM {
		return "", fmt.Errorf("%s is larger than the %d MiB a saved page may have", name, capture.MaxDOM>>20)
	}
	return string(b), nil
}

func captureCLIError(err error) error {
	if errors.Is(err, library.ErrInvalid) {
		return usageError{err}
	}
	return libError(err)
}

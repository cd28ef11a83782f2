package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"mundaneum/backend/library"
	"mundaneum/backend/store"
)

const libraryHelp = `The virtual library: a tree of libraries whose postings are sub-libraries, pointers (a
title and a URL, with notes and tags), reports (Markdown you write) and saved search views.

Paths are titles joined by /: /Computing/Go is the library Go in Computing, / the root.
Write \/ for a slash inside a title and \\ for a backslash; #42 names node 42 (when two
postings share a title, or anywhere: 'library rm #42').

A password (--password when a library or posting is made, or 'edit --new-password')
protects it and everything below it: editing, moving, copying out, deleting, posting or
importing into it, and undoing changes to it need that password (--password; posting
commands take the password of the library they post into as --library-password). A
library goes with everything in it, but not with a posting protected by another password:
deleting or moving it then needs that password too. 'library undo' takes back the last
change, with the password it was made with.

These commands work while the window or 'mundaneum serve' has the workspace open: a change
waits its turn.`

func (e *env) libraryCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "library",
		Short: "The virtual library: libraries of links, reports and saved views",
		Long:  libraryHelp,
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return e.libList(cmd.Context(), "/", lsOptions{})
		},
	}
	cmd.AddCommand(e.libLsCmd(), e.libMkdirCmd(), e.libAddCmd(), e.libReportCmd(), e.libViewCmd(), e.libEditCmd(),
		e.libMvCmd(), e.libCpCmd(), e.libRmCmd(), e.libUndoCmd(), e.libRedoCmd(), e.libImportCmd(), e.libExportCmd(), e.libSearchCmd(),
		e.libShowCmd(), e.libTagsCmd(), e.libCrawlCmd(), e.libAcceptRedirectCmd())
	return cmd
}

// openShared opens the workspace for short writes: beside a window, serve or crawl that
// has it open, each change waits its turn.
func (e *env) openShared(ctx context.Context) (*store.Store, error) {
	path, err := e.path()
	if err != nil {
		return nil, err
	}
	return store.Open(ctx, path, store.Options{Shared: true})
}

// libWrite runs fn on the library of the workspace opened for a short write.
func (e *env) libWrite(ctx context.Context, fn func(*library.Library, *store.Store) error) error {
	st, err := e.openShared(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	return libError(fn(library.New(st), st))
}

// libRead runs fn on the library of the workspace opened for reading.
func (e *env) libRead(ctx context.Context, fn func(*library.Library, *store.Store) error) error {
	st, err := e.open(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	return libError(fn(library.New(st), st))
}

// libError makes bad requests usage errors (exit 2); a file that cannot be read stays an
// error (exit 1) that names its line.
func libError(err error) error {
	var pe *library.ParseError
	if err == nil || errors.As(err, &pe) {
		return err
	}
	if errors.Is(err, library.ErrInvalid) {
		return usageError{err}
	}
	return err
}

// passwordFlag is --password: the text, or "-" to read a line from stdin.
type passwordFlag struct{ value string }

func (p *passwordFlag) add(cmd *cobra.Command, usage string) {
	p.addAs(cmd, "password", usage)
}

// addAs adds the flag under another name (its variable is $MUNDANEUM_ and the name).
func (p *passwordFlag) addAs(cmd *cobra.Command, name, usage string) {
	cmd.Flags().StringVar(&p.value, name, "", fmt.Sprintf("%s (\"-\" reads it from stdin; also $%s)", usage, passwordEnv(name)))
}

func passwordEnv(flag string) string {
	return "MUNDANEUM_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

func (p *passwordFlag) get() (string, error) { return p.getAs("password") }

func (p *passwordFlag) getAs(name string) (string, error) {
	switch p.value {
	case "":
		return os.Getenv(passwordEnv(name)), nil
	case "-":
		line, err := bufio.NewReader(os.Stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return "", err
		}
		return strings.TrimRight(line, "\r\n"), nil
	}
	return p.value, nil
}

// authorFlags are --author, --email and --password of a new posting, and
// --library-password, which opens the protected library it goes into.
type authorFlags struct {
	name, email string
	pw, libPw   passwordFlag
}

func (a *authorFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&a.name, "author", "", "your name, recorded with the posting")
	cmd.Flags().StringVar(&a.email, "email", "", "your e-mail address (default: the workspace's From setting)")
	a.pw.add(cmd, "protect the posting with a password: it is needed to edit, move or delete it")
	a.libPw.addAs(cmd, "library-password", "the password of the protected library it goes into")
}

func (a *authorFlags) get(ctx context.Context, st *store.Store) (library.Author, error) {
	pw, err := a.pw.get()
	if err != nil {
		return library.Author{}, err
	}
	libPw, err := a.libPw.getAs("library-password")
	if err != nil {
		return library.Author{}, err
	}
	email := a.email
	if email == "" {
		if s, err := st.Settings(ctx); err == nil {
			email = s.From
		}
	}
	return library.Author{Name: a.name, Email: email, Password: pw, LibraryPassword: libPw}, nil
}

// segPath writes segments back as a path.
func segPath(segs []library.Segment) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteByte('/')
		if s.ID != 0 {
			fmt.Fprintf(&b, "#%d", s.ID)
		} else {
			b.WriteString(library.EscapeTitle(s.Title))
		}
	}
	return b.String()
}

// resolveAll resolves several paths.
func resolveAll(ctx context.Context, l *library.Library, paths []string) ([]int64, error) {
	ids := make([]int64, 0, len(paths))
	for _, p := range paths {
		n, err := l.Resolve(ctx, p)
		if err != nil {
			return nil, err
		}
		ids = append(ids, n.ID)
	}
	return ids, nil
}

// libraryAt resolves a path that must name a library.
func libraryAt(ctx context.Context, l *library.Library, path string) (library.Node, error) {
	n, err := l.Resolve(ctx, path)
	if err != nil {
		return n, err
	}
	if n.Kind != library.KindLibrary {
		return n, fmt.Errorf("%s is a %s, not a library: %w", path, n.Kind, library.ErrInvalid)
	}
	return n, nil
}

// targetLibrary resolves the library something goes into (--to, a destination): one that
// does not exist is pointed at 'library mkdir -p'.
func targetLibrary(ctx context.Context, l *library.Library, path string) (library.Node, error) {
	n, err := libraryAt(ctx, l, path)
	if errors.Is(err, library.ErrNotFound) {
		return n, fmt.Errorf("%w (create it with 'mundaneum library mkdir -p %s')", err, shellQuote(path))
	}
	return n, err
}

// shellQuote quotes a path for a command line the user may paste.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '-' || r == '_' || r == '.' || r == '#' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (e *env) libMkdirCmd() *cobra.Command {
	var in library.LibraryInput
	var by authorFlags
	var parents bool
	var image, order string
	cmd := &cobra.Command{
		Use:   "mkdir PATH",
		Short: "Create a library (GENVL's Create)",
		Example: `  mundaneum library mkdir /Computing
  mundaneum library mkdir -p /Computing/Languages/Go --purpose "The Go language"
  mundaneum library mkdir "/University Departments" --create-only`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.libMkdir(cmd.Context(), args, in, by, parents, image, order)
		},
	}
	f := cmd.Flags()
	f.BoolVarP(&parents, "parents", "p", false, "create the libraries on the way, and do not mind one that exists")
	f.StringVar(&in.Purpose, "purpose", "", "the library's statement of purpose, shown in its header")
	f.BoolVar(&in.CreateOnly, "create-only", false, "only sub-libraries may be added to it")
	f.StringVar(&image, "image", "", "a picture for its header (PNG, GIF, JPEG or WebP file; default: the parent's)")
	f.StringVar(&order, "order", "title", "how its postings are listed: title, date or manual")
	by.add(cmd)
	return cmd
}

// libMkdir makes the library at args[0].
func (e *env) libMkdir(ctx context.Context, args []string, in library.LibraryInput, by authorFlags, parents bool, image, order string) error {
	return e.libWrite(ctx, func(l *library.Library, st *store.Store) error {
		segs, err := library.ParsePath(args[0])
		if err != nil {
			return err
		}
		if len(segs) == 0 {
			return fmt.Errorf("the root library is there already: %w", library.ErrInvalid)
		}
		if in.By, err = by.get(ctx, st); err != nil {
			return err
		}
		if in.Image, err = readImage(image); err != nil {
			return err
		}
		in.Order = library.Order(order)
		last := segs[len(segs)-1]
		if last.ID != 0 {
			return fmt.Errorf("name the new library by its title, not #%d: %w", last.ID, library.ErrInvalid)
		}
		parent, err := l.Node(ctx, library.RootID)
		if err != nil {
			return err
		}
		for i, s := range segs[:len(segs)-1] {
			next, err := l.Resolve(ctx, segPath(segs[:i+1]))
			if errors.Is(err, library.ErrNotFound) && parents && s.ID == 0 {
				next, err = l.Create(ctx, parent.ID, library.LibraryInput{Title: s.Title, By: in.By})
			} else if errors.Is(err, library.ErrNotFound) {
				err = fmt.Errorf("%w (-p creates the libraries on the way)", err)
			}
			if err != nil {
				return err
			}
			parent = next
		}
		if parents {
			if n, err := l.Resolve(ctx, segPath(segs)); err == nil && n.Kind == library.KindLibrary {
				return e.printNode(ctx, l, n, "Exists")
			}
		}
		in.Title = last.Title
		n, err := l.Create(ctx, parent.ID, in)
		if err != nil {
			return err
		}
		return e.printNode(ctx, l, n, "Created")
	})
}

func (e *env) libAddCmd() *cobra.Command {
	var in library.PointerInput
	var to string
	var by authorFlags
	cmd := &cobra.Command{
		Use:   "add URL",
		Short: "Add a pointer: a title and a URL (GENVL's Point)",
		Long: `Add a pointer to a library. Without --title it takes the page's title if the workspace
has crawled it, else the URL. A URL already in that library is refused; one elsewhere in
the library is added, and where else it is is said.`,
		Example: `  mundaneum library add https://go.dev/ --title "The Go site" --to /Computing/Go --tag go`,
		Args:    usageArgs(cobra.ExactArgs(1)),
		RunE:    func(cmd *cobra.Command, args []string) error { return e.libAdd(cmd.Context(), args, in, to, by) },
	}
	f := cmd.Flags()
	f.StringVar(&in.Title, "title", "", "the pointer's title")
	f.StringVar(&to, "to", "/", "the library to add it to")
	f.StringArrayVar(&in.Tags, "tag", nil, "a tag (repeat for more, or separate with commas)")
	f.StringVar(&in.Notes, "notes", "", "notes about the page")
	by.add(cmd)
	return cmd
}

// libAdd adds a pointer to the URL args[0] in the library to.
func (e *env) libAdd(ctx context.Context, args []string, in library.PointerInput, to string, by authorFlags) error {
	in.URL = args[0]
	return e.libWrite(ctx, func(l *library.Library, st *store.Store) error {
		parent, err := targetLibrary(ctx, l, to)
		if err != nil {
			return err
		}
		if in.By, err = by.get(ctx, st); err != nil {
			return err
		}
		a, err := l.Point(ctx, parent.ID, in)
		if err != nil {
			return err
		}
		if err := e.printNode(ctx, l, a.Node, "Added"); err != nil {
			return err
		}
		if len(a.AlsoIn) > 0 && !e.json {
			fmt.Fprintf(e.stderr, "note: this address is also in %s\n", clean(strings.Join(a.AlsoIn, ", ")))
		}
		return nil
	})
}

// readText reads a report's text: a file, "-" for stdin.
func readText(file string) (string, error) {
	if file == "-" {
		b, err := io.ReadAll(io.LimitReader(os.Stdin, library.MaxBody+1))
		return string(b), err
	}
	b, err := os.ReadFile(file)
	return string(b), err
}

func readImage(file string) (*library.ImageData, error) {
	if file == "" {
		return nil, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return &library.ImageData{Bytes: b}, nil
}

func (e *env) libReportCmd() *cobra.Command {
	var in library.ReportInput
	var to, file, image string
	var by authorFlags
	cmd := &cobra.Command{
		Use:   "report TITLE",
		Short: "Write a report: a title and Markdown text (GENVL's Input)",
		Example: `  mundaneum library report "Why Go" --to /Computing/Go --file why-go.md
  echo "See https://go.dev/doc/" | mundaneum library report "Reading list" --file -`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.libReport(cmd.Context(), args, in, to, file, image, by)
		},
	}
	f := cmd.Flags()
	f.StringVar(&to, "to", "/", "the library to post it to")
	f.StringVar(&in.Body, "text", "", "the report's Markdown text")
	f.StringVar(&file, "file", "", "read the Markdown text from a file (- for stdin)")
	f.StringVar(&in.URL, "url", "", "the address the report is about")
	f.StringVar(&image, "image", "", "a picture for its header (default: the library's)")
	by.add(cmd)
	return cmd
}

// libReport adds a report titled args[0] in the library to.
func (e *env) libReport(ctx context.Context, args []string, in library.ReportInput, to, file, image string, by authorFlags) error {
	in.Title = args[0]
	if file != "" {
		var err error
		if in.Body, err = readText(file); err != nil {
			return err
		}
	}
	return e.libWrite(ctx, func(l *library.Library, st *store.Store) error {
		parent, err := targetLibrary(ctx, l, to)
		if err != nil {
			return err
		}
		if in.By, err = by.get(ctx, st); err != nil {
			return err
		}
		if in.Image, err = readImage(image); err != nil {
			return err
		}
		n, err := l.Input(ctx, parent.ID, in)
		if err != nil {
			return err
		}
		return e.printNode(ctx, l, n, "Wrote")
	})
}

func (e *env) libViewCmd() *cobra.Command {
	var to, title string
	var by authorFlags
	cmd := &cobra.Command{
		Use:   "view NAME",
		Short: "Place a saved view (see 'mundaneum views') in the library",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE:  func(cmd *cobra.Command, args []string) error { return e.libView(cmd.Context(), args, to, title, by) },
	}
	cmd.Flags().StringVar(&to, "to", "/", "the library to place it in")
	cmd.Flags().StringVar(&title, "title", "", "its title in the library (default: the view's name)")
	by.add(cmd)
	return cmd
}

// libView places the saved view args[0] in the library to.
func (e *env) libView(ctx context.Context, args []string, to, title string, by authorFlags) error {
	return e.libWrite(ctx, func(l *library.Library, st *store.Store) error {
		parent, err := targetLibrary(ctx, l, to)
		if err != nil {
			return err
		}
		a, err := by.get(ctx, st)
		if err != nil {
			return err
		}
		n, err := l.PlaceView(ctx, parent.ID, args[0], title, a)
		if errors.Is(err, library.ErrNotFound) {
			return usageError{fmt.Errorf("no view named %q (see 'mundaneum views list')", args[0])}
		}
		if err != nil {
			return err
		}
		return e.printNode(ctx, l, n, "Placed")
	})
}

// libEditFlags are library edit's flags; only those given change the posting.
type libEditFlags struct {
	pw, newPw                                                     passwordFlag
	title, url, notes, purpose, file, image, order, author, email string
	tags                                                          []string
	createOnly, noImage, openToGuests                             bool
}

func (e *env) libEditCmd() *cobra.Command {
	var o libEditFlags
	cmd := &cobra.Command{
		Use:   "edit PATH",
		Short: "Change a library or posting (GENVL's Edit)",
		Example: `  mundaneum library edit "/Computing/Go/The Go site" --title "Go" --tag go --tag lang
  mundaneum library edit /Computing/Go/Why\ Go --file why-go.md
  mundaneum library edit /Computing --purpose "Everything about computers" --password -`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			ed, password, err := o.edit(cmd.Flags())
			if err != nil {
				return err
			}
			return e.libEdit(cmd.Context(), args[0], ed, password)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.title, "title", "", "a new title")
	f.StringVar(&o.url, "url", "", "a new address")
	f.StringVar(&o.notes, "notes", "", "new notes")
	f.StringArrayVar(&o.tags, "tag", nil, "the tags (replace them all; --tag '' removes them)")
	f.StringVar(&o.purpose, "purpose", "", "a library's new statement of purpose")
	f.BoolVar(&o.createOnly, "create-only", false, "whether only sub-libraries may be added (--create-only=false to lift it)")
	f.BoolVar(&o.openToGuests, "open-to-guests", false, "whether the guests of 'serve --public' may post in this library and below it (=false closes it)")
	f.StringVar(&o.order, "order", "", "how a library lists its postings: title, date or manual")
	f.StringVar(&o.file, "file", "", "a report's new text, from a file (- for stdin)")
	f.StringVar(&o.image, "image", "", "a new picture")
	f.BoolVar(&o.noImage, "no-image", false, "drop the picture (the enclosing library's shows)")
	f.StringVar(&o.author, "author", "", "the author's name")
	f.StringVar(&o.email, "email", "", "the author's e-mail address")
	f.StringVar(&o.newPw.value, "new-password", "", "set a new password (\"\" removes it)")
	o.pw.add(cmd, "the password of a protected posting")
	return cmd
}

// edit is the change the flags given in fs ask for, and the password that allows it.
func (o *libEditFlags) edit(fs *pflag.FlagSet) (library.Edit, string, error) {
	var ed library.Edit
	set := func(name string, v *string) *string {
		if fs.Changed(name) {
			return v
		}
		return nil
	}
	ed.Title, ed.URL, ed.Notes, ed.Purpose = set("title", &o.title), set("url", &o.url), set("notes", &o.notes), set("purpose", &o.purpose)
	ed.Author, ed.Email = set("author", &o.author), set("email", &o.email)
	if fs.Changed("tag") {
		ed.Tags = &o.tags
	}
	if fs.Changed("create-only") {
		ed.CreateOnly = &o.createOnly
	}
	if fs.Changed("open-to-guests") {
		ed.OpenToGuests = &o.openToGuests
	}
	if fs.Changed("order") {
		order := library.Order(o.order)
		ed.Order = &order
	}
	if o.file != "" {
		body, err := readText(o.file)
		if err != nil {
			return ed, "", err
		}
		ed.Body = &body
	}
	ed.ClearImage = o.noImage
	var err error
	if ed.Image, err = readImage(o.image); err != nil {
		return ed, "", err
	}
	password, err := o.pw.get()
	if err != nil {
		return ed, "", err
	}
	if fs.Changed("new-password") {
		np := o.newPw.value
		ed.NewPassword = &np
	}
	return ed, password, nil
}

// libEdit applies ed to the posting at path.
func (e *env) libEdit(ctx context.Context, path string, ed library.Edit, password string) error {
	return e.libWrite(ctx, func(l *library.Library, _ *store.Store) error {
		n, err := l.Resolve(ctx, path)
		if err != nil {
			return err
		}
		if n, err = l.Edit(ctx, n.ID, ed, password); err != nil {
			return err
		}
		return e.printNode(ctx, l, n, "Changed")
	})
}

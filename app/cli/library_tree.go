package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"mundaneum/app"
	"mundaneum/backend/library"
	"mundaneum/backend/store"
)

func (e *env) libMvCmd() *cobra.Command {
	var pw passwordFlag
	var at int
	cmd := &cobra.Command{
		Use:   "mv PATH... DEST",
		Short: "Move postings into another library, rename, or reorder them (GENVL's Move)",
		Long: `Move postings (libraries with all they hold) into the library DEST. As a shell's mv does, a
DEST that does not exist is a new name: one PATH moves into DEST's parent (which must
exist) and takes DEST's last title. With --at N they go to position N (0 first) of DEST's
own order, which then lists by hand; 'mv PATH --at N' alone reorders within its library.
A library cannot move into itself. What is protected by a password moves only with it.`,
		Example: `  mundaneum library mv /Computing/Go /Languages          # /Languages exists: into it; else a rename
  mundaneum library mv "/Languages/Go/The Go site" --at 0`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error { return e.libMv(cmd.Context(), cmd, args, pw, at) },
	}
	cmd.Flags().IntVar(&at, "at", -1, "the position to put them at (0 first)")
	pw.add(cmd, "the password of protected postings (and of a protected destination)")
	return cmd
}

// libMv moves the postings args names into the last one.
func (e *env) libMv(ctx context.Context, cmd *cobra.Command, args []string, pw passwordFlag, at int) error {
	if !cmd.Flags().Changed("at") {
		at = -1
	} else if at < 0 {
		return usageError{errors.New("--at must not be negative")}
	}
	if len(args) == 1 && at < 0 {
		return usageError{errors.New("give a destination, or --at N to reorder within the library")}
	}
	password, err := pw.get()
	if err != nil {
		return err
	}
	return e.libWrite(ctx, func(l *library.Library, _ *store.Store) error {
		srcs, dest := args[:len(args)-1], args[len(args)-1]
		var d library.Node
		if len(args) == 1 {
			n, err := l.Resolve(ctx, args[0])
			if err != nil {
				return err
			}
			srcs = args
			if d, err = l.Node(ctx, n.Parent); err != nil {
				return err
			}
		} else if d, err = l.Resolve(ctx, dest); errors.Is(err, library.ErrNotFound) {
			return e.libRename(ctx, l, srcs, dest, at, password)
		} else if err != nil {
			return err
		} else if d.Kind != library.KindLibrary {
			return fmt.Errorf("%s is a %s, not a library: %w", dest, d.Kind, library.ErrInvalid)
		}
		ids, err := resolveAll(ctx, l, srcs)
		if err != nil {
			return err
		}
		if err := l.Move(ctx, ids, d.ID, at, password); err != nil {
			return err
		}
		return e.printNode(ctx, l, d, "Moved into")
	})
}

// libRename moves one posting to a path that does not exist: into its parent, under its
// last title (a shell's mv to a new name).
func (e *env) libRename(ctx context.Context, l *library.Library, srcs []string, dest string, at int, password string) error {
	parent, rest, err := l.ResolveExisting(ctx, dest)
	if err != nil {
		return err
	}
	switch {
	case len(srcs) > 1:
		return fmt.Errorf("%s does not exist: several postings move only into a library (create it with 'mundaneum library mkdir -p %s'): %w",
			dest, shellQuote(dest), library.ErrNotFound)
	case len(rest) > 1:
		p, _ := l.PathOf(ctx, parent)
		missing := strings.TrimSuffix(p, "/") + "/" + library.EscapeTitle(rest[0])
		return fmt.Errorf("%s: nothing called %q in %s, so it cannot be renamed there (create it with 'mundaneum library mkdir -p %s'): %w",
			dest, rest[0], p, shellQuote(missing), library.ErrNotFound)
	case at >= 0:
		return usageError{fmt.Errorf("%s does not exist: --at arranges within a library that does", dest)}
	}
	src, err := l.Resolve(ctx, srcs[0])
	if err != nil {
		return err
	}
	n, err := l.MoveAs(ctx, src.ID, parent.ID, rest[0], password)
	if err != nil {
		return err
	}
	return e.printNode(ctx, l, n, "Moved to")
}

func (e *env) libCpCmd() *cobra.Command {
	var pw passwordFlag
	var at int
	cmd := &cobra.Command{
		Use:     "cp PATH... DEST",
		Short:   "Copy postings into another library (GENVL's Copy)",
		Example: `  mundaneum library cp "/Computing/Go/The Go site" /Favourites`,
		Args:    usageArgs(cobra.MinimumNArgs(2)),
		RunE:    func(cmd *cobra.Command, args []string) error { return e.libCp(cmd.Context(), cmd, args, pw, at) },
	}
	cmd.Flags().IntVar(&at, "at", -1, "the position to put the copies at (0 first)")
	pw.add(cmd, "the password of what is copied out of a protected library (and of a protected destination)")
	return cmd
}

// libCp copies the postings args names into the last one.
func (e *env) libCp(ctx context.Context, cmd *cobra.Command, args []string, pw passwordFlag, at int) error {
	if !cmd.Flags().Changed("at") {
		at = -1
	}
	password, err := pw.get()
	if err != nil {
		return err
	}
	return e.libWrite(ctx, func(l *library.Library, _ *store.Store) error {
		d, err := targetLibrary(ctx, l, args[len(args)-1])
		if err != nil {
			return err
		}
		ids, err := resolveAll(ctx, l, args[:len(args)-1])
		if err != nil {
			return err
		}
		ns, err := l.Copy(ctx, ids, d.ID, at, password)
		if err != nil {
			return err
		}
		for _, n := range ns {
			if err := e.printNode(ctx, l, n, "Copied"); err != nil {
				return err
			}
		}
		return nil
	})
}

// removalJSON is library rm --json: the window's LibRemoval, and whether nothing was
// deleted (--dry-run).
type removalJSON struct {
	app.LibRemoval
	DryRun bool `json:"dryRun,omitempty"`
}

func (e *env) libRmCmd() *cobra.Command {
	var pw passwordFlag
	var dry bool
	cmd := &cobra.Command{
		Use:   "rm PATH...",
		Short: "Delete postings; a library goes with everything in it (GENVL's Delete)",
		Long: `Delete postings. A library is deleted with everything below it. What a password protects
(the posting, or a library above it) is deleted only with that password, and a library
goes only with the password of each protected posting below it: with another, it is
refused and they are named. --dry-run says what would go, and what needs a password.
'mundaneum library undo' puts it all back.`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error { return e.libRm(cmd.Context(), args, pw, dry) },
	}
	cmd.Flags().BoolVarP(&dry, "dry-run", "n", false, "say what would be deleted, delete nothing")
	pw.add(cmd, "the password of protected postings")
	return cmd
}

// libRm deletes the postings args names (with dry, says what would go).
func (e *env) libRm(ctx context.Context, args []string, pw passwordFlag, dry bool) error {
	password, err := pw.get()
	if err != nil {
		return err
	}
	run := e.libWrite
	if dry {
		run = e.libRead
	}
	return run(ctx, func(l *library.Library, _ *store.Store) error {
		ids, err := resolveAll(ctx, l, args)
		if err != nil {
			return err
		}
		var r library.Removal
		if dry {
			r, err = l.PreviewDelete(ctx, ids)
		} else {
			r, err = l.Delete(ctx, ids, password)
		}
		if err != nil {
			return err
		}
		if e.json {
			return e.printJSON(removalJSON{LibRemoval: app.RemovalOf(r), DryRun: dry})
		}
		verb := "Deleted"
		if dry {
			verb = "Would delete"
		}
		fmt.Fprintf(e.stdout, "%s %d: %d libraries, %d pointers, %d reports, %d views\n", verb, r.Total(),
			r.Libraries, r.Pointers, r.Reports, r.Views)
		if dry && len(r.Protected) > 0 {
			fmt.Fprintf(e.stdout, "Needs the password: %s\n", clean(strings.Join(r.Protected, ", ")))
		}
		if !dry {
			fmt.Fprintln(e.stdout, "('mundaneum library undo' puts it back)")
		}
		return nil
	})
}

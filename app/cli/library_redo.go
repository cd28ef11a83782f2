package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"mundaneum/backend/library"
	"mundaneum/backend/store"
)

// libRedoCmd is `library redo`: make again the change the last undo took back, under the
// same rules as undo (the password the change was made with).
func (e *env) libRedoCmd() *cobra.Command {
	var pw passwordFlag
	var show bool
	cmd := &cobra.Command{
		Use:   "redo",
		Short: "Make again the change the last undo took back",
		Long: "Make again the change the last undo took back. Undo and redo go back and forth through the\n" +
			"last changes; a new change ends what can be redone. Redoing needs the password the change was\n" +
			"made with, as undoing it does.",
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			password, err := pw.get()
			if err != nil {
				return err
			}
			run := e.libWrite
			if show {
				run = e.libRead
			}
			return run(ctx, func(l *library.Library, _ *store.Store) error {
				var u library.Undo
				if show {
					u, err = l.NextRedo(ctx)
				} else {
					u, err = l.Redo(ctx, password)
				}
				if errors.Is(err, library.ErrNotFound) {
					return errors.New("nothing to redo")
				}
				if err != nil {
					return err
				}
				if e.json {
					return e.printJSON(map[string]any{"op": u.Op, "summary": u.Summary, "at": rfc3339ms(u.At), "redone": !show,
						"by": library.Whose(u), "protected": u.Protected()})
				}
				if show {
					fmt.Fprintf(e.stdout, "Redo would make again: %s\n", clean(u.Summary))
					if u.Protected() {
						fmt.Fprintln(e.stdout, "Redoing it needs the password it was made with (--password).")
					}
				} else {
					fmt.Fprintf(e.stdout, "Redone: %s\n", clean(u.Summary))
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&show, "show", false, "say what redo would make again, change nothing")
	pw.add(cmd, "the password the change was made with")
	return cmd
}

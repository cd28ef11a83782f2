package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"mundaneum/backend/library"
	"mundaneum/backend/store"
)

// libRedoCmd is `library redo`: make again the change the last undo took back, under the
// same rules as undo (the password the change was made with).
func (e *env) libRedoCmd() *cobra.Command {
	return e.journalCmd(journalStep{
		use:   "redo",
		short: "Make again the change the last undo took back",
		long: "Make again the change the last undo took back. Undo and redo go back and forth through the\n" +
			"last changes; a new change ends what can be redone. Redoing needs the password the change was\n" +
			"made with, as undoing it does.",
		next: (*library.Library).NextRedo, do: (*library.Library).Redo,
		verb: "redo", done: "redone", shown: "Redo would make again", doneText: "Redone", needs: "Redoing",
		showHelp: "say what redo would make again, change nothing",
	})
}

// libUndoCmd is `library undo`: take back the last change.
func (e *env) libUndoCmd() *cobra.Command {
	return e.journalCmd(journalStep{
		use: "undo", short: "Take back the last change to the library",
		next: (*library.Library).LastChange, do: (*library.Library).Undo,
		verb: "undo", done: "undone", shown: "The last change", doneText: "Undone", needs: "Undoing", by: true,
		showHelp: "say what undo would take back, change nothing",
	})
}

// journalStep is one direction through the library's journal of changes: undo or redo.
type journalStep struct {
	use, short, long string
	next             func(*library.Library, context.Context) (library.Undo, error)
	do               func(*library.Library, context.Context, string) (library.Undo, error)
	verb, done       string // "undo", "undone": the error and the JSON field
	shown, doneText  string // what --show and a step done say
	needs            string // "Undoing": the sentence on a protected change
	by               bool   // --show says whose the change was
	showHelp         string
}

// journalCmd is `library undo` or `library redo`: take the step, or with --show say what
// it would do.
func (e *env) journalCmd(s journalStep) *cobra.Command {
	var pw passwordFlag
	var show bool
	cmd := &cobra.Command{
		Use:   s.use,
		Short: s.short,
		Long:  s.long,
		Args:  usageArgs(cobra.NoArgs),
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
					u, err = s.next(l, ctx)
				} else {
					u, err = s.do(l, ctx, password)
				}
				if errors.Is(err, library.ErrNotFound) {
					return errors.New("nothing to " + s.verb)
				}
				if err != nil {
					return err
				}
				if e.json {
					return e.printJSON(map[string]any{"op": u.Op, "summary": u.Summary, "at": rfc3339ms(u.At), s.done: !show,
						"by": library.Whose(u), "protected": u.Protected()})
				}
				if !show {
					fmt.Fprintf(e.stdout, "%s: %s\n", s.doneText, clean(u.Summary))
					return nil
				}
				by := ""
				if s.by && u.By != "" {
					by = " (by " + clean(library.Whose(u)) + ")"
				}
				fmt.Fprintf(e.stdout, "%s: %s%s\n", s.shown, clean(u.Summary), by)
				if u.Protected() {
					fmt.Fprintf(e.stdout, "%s it needs the password it was made with (--password).\n", s.needs)
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&show, "show", false, s.showHelp)
	pw.add(cmd, "the password the change was made with")
	return cmd
}

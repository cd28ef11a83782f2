package cli

import (
	"context"
	"github.com/spf13/cobra"

	"mundaneum/app"
	"mundaneum/backend/library"
	"mundaneum/backend/store"
)

func (e *env) libAcceptRedirectCmd() *cobra.Command {
	var pw passwordFlag
	cmd := &cobra.Command{
		Use:   "accept-redirect PATH...",
		Short: "Take a pointer's permanent redirect: its URL becomes the new address, the old one an alias",
		Long: `accept-redirect rewrites each pointer's URL to the address its latest link check
('mundaneum check') found it permanently redirected to (301 or 308 all the way), and keeps
the old URL as an alias: the pointer is still found by it, and adding or importing the old
URL finds the pointer as a duplicate. 'library undo' puts the old URL back. A temporary
redirect, or a pointer never checked, is refused.`,
		Example: `  mundaneum library accept-redirect "/Research/Old paper"
  mundaneum library accept-redirect /Research/a /Research/b --json`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error { return e.libAcceptRedirect(cmd.Context(), args, pw) },
	}
	pw.add(cmd, "the password of a protected pointer")
	return cmd
}

// libAcceptRedirect moves the pointers args names to where their URLs redirect for good.
func (e *env) libAcceptRedirect(ctx context.Context, args []string, pw passwordFlag) error {
	password, err := pw.get()
	if err != nil {
		return err
	}
	return e.libWrite(ctx, func(l *library.Library, _ *store.Store) error {
		out := []app.LibPosting{}
		for _, path := range args {
			n, err := l.Resolve(ctx, path)
			if err != nil {
				return err
			}
			if n, err = l.AcceptRedirect(ctx, n.ID, password); err != nil {
				return err
			}
			if !e.json {
				if err := e.printNode(ctx, l, n, "Moved"); err != nil {
					return err
				}
				continue
			}
			d, err := l.Posting(ctx, n.ID)
			if err != nil {
				return err
			}
			out = append(out, postingJSON(d.Posting, d.Path))
		}
		if e.json {
			return e.printJSON(out)
		}
		return nil
	})
}

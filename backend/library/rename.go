package library

import (
	"context"
	"encoding/json"
	"fmt"
)

// MoveAs moves node id into the library dest under a new title (what a shell's mv does to
// a name that does not exist: `library mv /Computing/Go /Languages` renames Go to
// Languages at the root). It is one operation, undone as one, and needs what a move and
// an edit of the node need (protect.go).
func (l *Library) MoveAs(ctx context.Context, id, dest int64, title, password string) (Node, error) {
	title, err := checkTitle(title, true)
	if err != nil {
		return Node{}, err
	}
	if id == RootID {
		return Node{}, fmt.Errorf("the root library cannot be moved or renamed: %w", ErrConflict)
	}
	rules := func(c check) error {
		n, err := c.r.node(ctx, id)
		if err != nil {
			return err
		}
		d, err := c.r.node(ctx, dest)
		if err != nil {
			return err
		}
		if d.Kind != KindLibrary {
			return fmt.Errorf("%q is a %s: postings move into libraries: %w", d.Title, d.Kind, ErrInvalid)
		}
		if err := c.change(n, "rename"); err != nil {
			return err
		}
		if n.Parent == dest {
			return nil
		}
		if err := c.takeAway(n, "move"); err != nil {
			return err
		}
		return c.postInto(d)
	}
	g, err := l.authorize(ctx, password, rules)
	if err != nil {
		return Node{}, err
	}
	var out Node
	err = l.st.UpdateLibrary(ctx, func(tx Tx) error {
		if err := rules(l.in(ctx, tx, g)); err != nil {
			return err
		}
		before, err := tx.Node(ctx, id)
		if err != nil {
			return err
		}
		d, err := tx.Node(ctx, dest)
		if err != nil {
			return err
		}
		n := before
		n.Title = title
		if n.Parent != dest {
			if err := checkTarget(ctx, tx, n, d, "move"); err != nil {
				return err
			}
		}
		if n.Kind == KindLibrary {
			if err := sameTitleLibrary(ctx, tx, dest, title, n.ID); err != nil {
				return err
			}
		}
		u := movedUndo{Dest: dest, DestSort: d.Sort, Before: []Node{before},
			Moves: []moveBack{{ID: n.ID, Parent: n.Parent, Position: n.Position}}}
		if n.Parent != dest {
			next, err := tx.NextPosition(ctx, dest)
			if err != nil {
				return err
			}
			if err := tx.Move(ctx, n.ID, dest, d.Path, next); err != nil {
				return err
			}
		}
		n.UpdatedAt = l.ms()
		if err := tx.Update(ctx, &n); err != nil {
			return err
		}
		if out, err = tx.Node(ctx, id); err != nil {
			return err
		}
		data, _ := json.Marshal(u)
		summary := fmt.Sprintf("moved %q to %q as %q", clip(before.Title, 60), clip(d.Title, 60), clip(title, 60))
		if n.Parent == dest {
			summary = fmt.Sprintf("renamed %q to %q", clip(before.Title, 60), clip(title, 60))
		}
		return l.push(ctx, tx, "moved", summary, data, g.opened())
	})
	return out, err
}

package library

import (
	"context"
	"encoding/json"
	"fmt"
)

// Redo takes an undo back. Each Undo journals, before it reverts a change, what takes the
// reverting back (inverse), in the same terms as the undo journal's own entries: undoing
// an addition journals the nodes it deletes (as a delete would), undoing a delete the ids
// it puts back (as an addition), undoing a move or an edit the places and fields as they
// were before it. Redo reverts that entry as Undo reverts its own, under the same rules
// (mayTakeBack, protect.go): the password the change was made with, and what the redoing
// itself needs now; a password someone set is neither removed nor put back without it.
// Redo journals in turn what takes it back, so Undo and Redo go back and forth. A new
// change ends the redo journal.

// NextRedo describes the change Redo would make again (ErrNotFound: none). Its Op names
// that change ("deleted"), not the entry's way of making it again.
func (l *Library) NextRedo(ctx context.Context) (Undo, error) {
	r, err := l.st.LibRedoTop(ctx)
	r.Op = remade(r.Op)
	return r, err
}

// remade names the change a redo entry makes again: reverting an "added" entry deletes,
// reverting a "deleted" one adds back; moves and edits are their own inverses.
func remade(op string) string {
	switch op {
	case "added":
		return "deleted"
	case "deleted":
		return "added"
	}
	return op
}

// Redo makes again the change the last Undo took back, and describes it as NextRedo does.
// It needs the password that change was made with, as undoing it did.
func (l *Library) Redo(ctx context.Context, password string) (Undo, error) {
	top, err := l.st.LibRedoTop(ctx)
	if err != nil {
		return Undo{}, err
	}
	g, err := l.authorize(ctx, password, func(c check) error { return l.mayTakeBack(c, top, "redo") })
	if err != nil {
		return Undo{}, err
	}
	err = l.st.UpdateLibrary(ctx, func(tx Tx) error {
		r, err := tx.RedoTop(ctx)
		if err != nil {
			return err
		}
		if r.ID != top.ID {
			return fmt.Errorf("the library changed meanwhile: look again before redoing: %w", ErrConflict)
		}
		if err := l.mayTakeBack(l.in(ctx, tx, g), r, "redo"); err != nil {
			return err
		}
		back, err := l.inverse(ctx, tx, r)
		if err != nil {
			return fmt.Errorf("cannot redo %s: %w", r.Summary, err)
		}
		if err := l.revert(ctx, tx, r); err != nil {
			return fmt.Errorf("cannot redo %s: %w", r.Summary, err)
		}
		if err := tx.DropUndo(ctx, r.ID); err != nil {
			return err
		}
		return tx.PushUndo(ctx, back)
	})
	top.Op = remade(top.Op)
	return top, err
}

// inverse journals what takes back the reverting of u, read before u is reverted: the
// entry keeps u's summary (it names the change, done or undone) and the passwords it was
// made with, and is by whoever reverts it.
func (l *Library) inverse(ctx context.Context, tx Tx, u Undo) (Undo, error) {
	back := Undo{At: l.ms(), Summary: u.Summary, Keys: u.Keys, By: l.who.ID, ByName: l.who.Name}
	var data any
	switch u.Op {
	case "added": // reverting deletes them, with all below: put them back
		var a addedUndo
		if err := json.Unmarshal(u.Data, &a); err != nil {
			return back, err
		}
		seen := map[int64]bool{}
		var d deletedUndo
		for _, id := range a.IDs {
			sub, err := tx.Subtree(ctx, id)
			if isNotFound(err) {
				continue
			}
			if err != nil {
				return back, err
			}
			for _, n := range sub {
				if !seen[n.ID] {
					seen[n.ID] = true
					d.Nodes = append(d.Nodes, n)
				}
			}
		}
		back.Op, data = "deleted", d
	case "deleted": // reverting puts them back: take the tops away again
		var d deletedUndo
		if err := json.Unmarshal(u.Data, &d); err != nil {
			return back, err
		}
		in := map[int64]bool{}
		for _, n := range d.Nodes {
			in[n.ID] = true
		}
		var a addedUndo
		for _, n := range d.Nodes {
			if !in[n.Parent] {
				a.IDs = append(a.IDs, n.ID)
			}
		}
		back.Op, data = "added", a
	case "moved": // reverting moves them back: move them to dest again, as they are now
		var m movedUndo
		if err := json.Unmarshal(u.Data, &m); err != nil {
			return back, err
		}
		again := movedUndo{Dest: m.Dest}
		for _, mv := range m.Moves {
			n, err := tx.Node(ctx, mv.ID)
			if isNotFound(err) {
				continue
			}
			if err != nil {
				return back, err
			}
			again.Moves = append(again.Moves, moveBack{ID: n.ID, Parent: n.Parent, Position: n.Position})
		}
		for _, b := range m.Before {
			n, err := tx.Node(ctx, b.ID)
			if isNotFound(err) {
				continue
			}
			if err != nil {
				return back, err
			}
			again.Before = append(again.Before, n)
		}
		d, err := tx.Node(ctx, m.Dest)
		switch {
		case err == nil:
			again.DestSort = d.Sort
			if again.Order, err = tx.ChildIDs(ctx, m.Dest, ByManual); err != nil {
				return back, err
			}
		case !isNotFound(err):
			return back, err
		}
		back.Op, data = "moved", again
	case "edited": // reverting restores the fields before: restore them as they are now
		var e editedUndo
		if err := json.Unmarshal(u.Data, &e); err != nil {
			return back, err
		}
		n, err := tx.Node(ctx, e.Before.ID)
		if err != nil {
			return back, err
		}
		back.Op, data = "edited", editedUndo{Before: n}
	default:
		return back, fmt.Errorf("an operation this version does not know (%q)", u.Op)
	}
	var err error
	back.Data, err = json.Marshal(data)
	return back, err
}

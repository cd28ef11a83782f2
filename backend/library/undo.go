package library

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
)

func isNotFound(err error) bool { return errors.Is(err, ErrNotFound) }

// The undo journal's records, one per op.
type addedUndo struct {
	IDs []int64
}

type deletedUndo struct {
	Nodes []Node // parents before children
}

type moveBack struct {
	ID, Parent int64
	Position   int
}

type movedUndo struct {
	Moves    []moveBack
	Dest     int64
	DestSort Order
	Order    []int64 // dest's children before, when they were rearranged
	Before   []Node  // the nodes' fields before, when the move renamed them (MoveAs)
}

type editedUndo struct {
	Before Node
}

// LastChange describes the operation Undo would take back (ErrNotFound: none).
func (l *Library) LastChange(ctx context.Context) (Undo, error) { return l.st.LibUndoTop(ctx) }

// Mine reports whether Undo may take u back without its password for the person the
// library acts for: always, but under serve --public (Person.Shared), where only the
// person who made a change may.
func (l *Library) Mine(u Undo) bool { return !l.who.Shared || u.By == l.who.ID }

// Whose names who made a change, for messages.
func Whose(u Undo) string {
	switch {
	case u.ByName != "":
		return u.ByName
	case u.By == "":
		return "the owner"
	}
	return "someone else"
}

// Undo takes back the last operation that changed the library: a delete puts back what
// it removed (under the same ids), a move moves back, an edit restores, an addition (a
// post, an import, a copy) goes away. It needs the password the operation was done with,
// and what the undoing itself needs now, as the operation that takes it back would
// (protect.go): undoing an edit that set a password needs that password. Under serve
// --public only the person who made a change may undo it, or one who gives its password.
func (l *Library) Undo(ctx context.Context, password string) (Undo, error) {
	top, err := l.st.LibUndoTop(ctx)
	if err != nil {
		return Undo{}, err
	}
	g, err := l.authorize(ctx, password, func(c check) error { return l.mayUndo(c, top) })
	if err != nil {
		return Undo{}, err
	}
	err = l.st.UpdateLibrary(ctx, func(tx Tx) error {
		u, err := tx.UndoTop(ctx)
		if err != nil {
			return err
		}
		if u.ID != top.ID {
			return fmt.Errorf("the library changed meanwhile: look again before undoing: %w", ErrConflict)
		}
		if err := l.mayUndo(l.in(ctx, tx, g), u); err != nil {
			return err
		}
		back, err := l.inverse(ctx, tx, u)
		if err != nil {
			return fmt.Errorf("cannot undo %s: %w", u.Summary, err)
		}
		if err := l.revert(ctx, tx, u); err != nil {
			return fmt.Errorf("cannot undo %s: %w", u.Summary, err)
		}
		if err := tx.DropUndo(ctx, u.ID); err != nil {
			return err
		}
		return tx.PushRedo(ctx, back)
	})
	return top, err
}

// mayUndo applies the rules of undoing u: whose it is, the password it was made with,
// and what taking it back needs now.
func (l *Library) mayUndo(c check, u Undo) error { return l.mayTakeBack(c, u, "undo") }

// mayTakeBack is mayUndo for undo or redo (verb): the same rules either way.
func (l *Library) mayTakeBack(c check, u Undo, verb string) error {
	mine := l.Mine(u)
	if !mine && !u.Protected() {
		return fmt.Errorf("the last change (%s) was made by %s: only they can %s it: %w", u.Summary, Whose(u), verb, ErrNotYours)
	}
	if u.Protected() {
		opened := false
		for _, h := range u.Keys {
			ok, err := c.g.try(c.ctx, h)
			if err != nil {
				return err
			}
			if opened = ok; ok {
				break
			}
		}
		switch {
		case opened:
		case c.g.pw != "":
			c.g.wrong = true
			return fmt.Errorf("that is not the password %s was done with: %w", u.Summary, ErrPassword)
		case !mine:
			return fmt.Errorf("the last change (%s) was made by %s: give the password it was made with to %s it: %w",
				u.Summary, Whose(u), verb, ErrPassword)
		default:
			return fmt.Errorf("%sing %s needs the password it was done with: %w", verb, u.Summary, ErrPassword)
		}
	}
	return l.mayRevert(c, u)
}

// mayRevert checks the operation that takes u back as it would be checked if asked for.
func (l *Library) mayRevert(c check, u Undo) error {
	node := func(id int64) (Node, bool, error) {
		n, err := c.r.node(c.ctx, id)
		if isNotFound(err) {
			return n, false, nil // revert says what is gone
		}
		return n, err == nil, err
	}
	const what = "undo a change to"
	switch u.Op {
	case "added":
		var a addedUndo
		if err := json.Unmarshal(u.Data, &a); err != nil {
			return err
		}
		for _, id := range a.IDs {
			if n, ok, err := node(id); err != nil {
				return err
			} else if ok {
				if err := c.takeAway(n, what); err != nil {
					return err
				}
			}
		}
	case "deleted":
		var d deletedUndo
		if err := json.Unmarshal(u.Data, &d); err != nil {
			return err
		}
		gone := map[int64]bool{}
		for _, n := range d.Nodes {
			gone[n.ID] = true
		}
		for _, n := range d.Nodes {
			if gone[n.Parent] {
				continue
			}
			if p, ok, err := node(n.Parent); err != nil {
				return err
			} else if ok {
				if err := c.postInto(p); err != nil {
					return err
				}
			}
		}
	case "moved":
		var m movedUndo
		if err := json.Unmarshal(u.Data, &m); err != nil {
			return err
		}
		for _, mv := range m.Moves {
			n, ok, err := node(mv.ID)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			if n.Parent == mv.Parent { // arranged within its library
				if err := c.change(n, "move"); err != nil {
					return err
				}
				continue
			}
			if err := c.takeAway(n, "move"); err != nil {
				return err
			}
			if p, ok, err := node(mv.Parent); err != nil {
				return err
			} else if ok {
				if err := c.postInto(p); err != nil {
					return err
				}
			}
		}
		for _, b := range m.Before {
			if n, ok, err := node(b.ID); err != nil {
				return err
			} else if ok {
				if err := c.change(n, what); err != nil {
					return err
				}
			}
		}
		if len(m.Order) > 0 {
			if d, ok, err := node(m.Dest); err != nil {
				return err
			} else if ok {
				return c.postInto(d)
			}
		}
	case "edited":
		var e editedUndo
		if err := json.Unmarshal(u.Data, &e); err != nil {
			return err
		}
		if n, ok, err := node(e.Before.ID); err != nil {
			return err
		} else if ok {
			return c.change(n, what)
		}
	}
	return nil
}

func (l *Library) revert(ctx context.Context, tx Tx, u Undo) error {
	switch u.Op {
	case "added":
		var a addedUndo
		if err := json.Unmarshal(u.Data, &a); err != nil {
			return err
		}
		for _, id := range a.IDs {
			if _, err := tx.Delete(ctx, id); err != nil && !isNotFound(err) {
				return err
			}
		}
	case "deleted":
		var d deletedUndo
		if err := json.Unmarshal(u.Data, &d); err != nil {
			return err
		}
		return restore(ctx, tx, d.Nodes)
	case "moved":
		var m movedUndo
		if err := json.Unmarshal(u.Data, &m); err != nil {
			return err
		}
		for i := len(m.Moves) - 1; i >= 0; i-- {
			mv := m.Moves[i]
			p, err := tx.Node(ctx, mv.Parent)
			if err != nil {
				return fmt.Errorf("the library it came from is gone: %w", err)
			}
			if err := tx.Move(ctx, mv.ID, p.ID, p.Path, mv.Position); err != nil {
				return err
			}
		}
		if len(m.Order) > 0 {
			if err := tx.SetPositions(ctx, m.Order); err != nil {
				return err
			}
		}
		for _, b := range m.Before {
			if b.Kind == KindLibrary {
				if err := sameTitleLibrary(ctx, tx, b.Parent, b.Title, b.ID); err != nil {
					return err
				}
			}
			if err := tx.Update(ctx, &b); err != nil {
				return err
			}
		}
		d, err := tx.Node(ctx, m.Dest)
		if err == nil && d.Sort != m.DestSort {
			d.Sort = m.DestSort
			err = tx.Update(ctx, &d)
		}
		if err != nil && !isNotFound(err) {
			return err
		}
	case "edited":
		var e editedUndo
		if err := json.Unmarshal(u.Data, &e); err != nil {
			return err
		}
		if _, err := tx.Node(ctx, e.Before.ID); err != nil {
			return err
		}
		return tx.Update(ctx, &e.Before)
	default:
		return fmt.Errorf("an operation this version does not know (%q)", u.Op)
	}
	return nil
}

// restore puts deleted nodes back under their ids, below their parents' present paths.
func restore(ctx context.Context, tx Tx, nodes []Node) error {
	sort.SliceStable(nodes, func(i, j int) bool { return len(nodes[i].Path) < len(nodes[j].Path) })
	placed := map[int64]Node{}
	var back []Node
	for _, n := range nodes {
		p, ok := placed[n.Parent]
		if !ok {
			var err error
			if p, err = tx.Node(ctx, n.Parent); err != nil {
				return fmt.Errorf("the library %q was in is gone: %w", n.Title, err)
			}
		}
		if n.ViewID != 0 {
			if ok, err := tx.ViewExists(ctx, n.ViewID); err != nil {
				return err
			} else if !ok {
				continue // its saved view was deleted since
			}
		}
		if n.Kind == KindLibrary {
			if err := sameTitleLibrary(ctx, tx, p.ID, n.Title, n.ID); err != nil {
				return err
			}
		}
		n.Path = childPath(p, n.ID)
		placed[n.ID] = n
		back = append(back, n)
	}
	return tx.InsertMany(ctx, back)
}

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
}

type editedUndo struct {
	Before Node
}

// LastChange describes the operation Undo would take back (ErrNotFound: none).
func (l *Library) LastChange(ctx context.Context) (Undo, error) { return l.st.LibUndoTop(ctx) }

// Undo takes back the last operation that changed the library: a delete puts back what
// it removed (under the same ids), a move moves back, an edit restores, an addition (a
// post, an import, a copy) goes away. An operation that needed a password needs it again.
func (l *Library) Undo(ctx context.Context, password string) (Undo, error) {
	top, err := l.st.LibUndoTop(ctx)
	if err != nil {
		return Undo{}, err
	}
	if top.Password != "" && (password == "" || !CheckPassword(top.Password, password)) {
		return Undo{}, fmt.Errorf("undoing %s needs the password it was done with: %w", top.Summary, ErrPassword)
	}
	err = l.st.UpdateLibrary(ctx, func(tx Tx) error {
		u, err := tx.UndoTop(ctx)
		if err != nil {
			return err
		}
		if u.ID != top.ID {
			return fmt.Errorf("the library changed meanwhile: look again before undoing: %w", ErrConflict)
		}
		if err := l.revert(ctx, tx, u); err != nil {
			return fmt.Errorf("cannot undo %s: %w", u.Summary, err)
		}
		return tx.DropUndo(ctx, u.ID)
	})
	return top, err
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

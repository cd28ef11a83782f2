package library

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Removal is what deleting some nodes takes away: a library goes with everything posted
// to it, which the passwords below it must allow (protect.go).
type Removal struct {
	Libraries, Pointers, Reports, Views int
	// Titles are the nodes asked for; Protected those that need a password: the nodes
	// asked for that a password guards, and the protected nodes below the others.
	Titles    []string
	Protected []string
}

// Total is how many nodes go.
func (r Removal) Total() int { return r.Libraries + r.Pointers + r.Reports + r.Views }

func (r *Removal) count(ns []Node) {
	for _, n := range ns {
		switch n.Kind {
		case KindLibrary:
			r.Libraries++
		case KindPointer:
			r.Pointers++
		case KindReport:
			r.Reports++
		case KindView:
			r.Views++
		}
	}
}

// tops returns ids without those inside the subtree of another (deleting or moving a
// library takes its subtree along), in the order given.
func tops(ctx context.Context, read func(context.Context, int64) (Node, error), ids []int64) ([]Node, error) {
	var ns []Node
	for _, id := range ids {
		if id == RootID {
			return nil, fmt.Errorf("the root library cannot be deleted, moved or copied: %w", ErrConflict)
		}
		n, err := read(ctx, id)
		if err != nil {
			return nil, err
		}
		ns = append(ns, n)
	}
	var out []Node
	for _, n := range ns {
		inside := false
		for _, o := range ns {
			if o.ID != n.ID && strings.HasPrefix(n.Path, o.Path) {
				inside = true
			}
		}
		if !inside && !slices.ContainsFunc(out, func(x Node) bool { return x.ID == n.ID }) {
			out = append(out, n)
		}
	}
	return out, nil
}

// PreviewDelete says what deleting ids would remove, and which of them need a password.
func (l *Library) PreviewDelete(ctx context.Context, ids []int64) (Removal, error) {
	var r Removal
	ns, err := tops(ctx, l.st.LibNode, ids)
	if err != nil {
		return r, err
	}
	for _, n := range ns {
		sub, err := l.st.LibSubtree(ctx, n.ID)
		if err != nil {
			return r, err
		}
		r.count(sub)
		r.Titles = append(r.Titles, n.Title)
		lk, err := lockOf(ctx, storeReader{l.st}, n)
		if err != nil {
			return r, err
		}
		if len(lk.keys) > 0 {
			r.Protected = append(r.Protected, n.Title)
			continue
		}
		var tops []Node
		for _, m := range sub[1:] {
			if m.Protected() && !slices.ContainsFunc(tops, func(t Node) bool { return strings.HasPrefix(m.Path, t.Path) }) {
				tops = append(tops, m)
				r.Protected = append(r.Protected, m.Title)
			}
		}
	}
	return r, nil
}

// Delete deletes nodes with everything below them (GENVL's Delete). A guarded node needs
// a password that opens it, an unguarded one a password that opens each protected node
// below it (protect.go). Undo puts it all back.
func (l *Library) Delete(ctx context.Context, ids []int64, password string) (Removal, error) {
	if len(ids) == 0 {
		return Removal{}, invalid("nothing to delete")
	}
	rules := func(c check) error {
		ns, err := tops(ctx, c.r.node, ids)
		if err != nil {
			return err
		}
		for _, n := range ns {
			if err := c.takeAway(n, "delete"); err != nil {
				return err
			}
		}
		return nil
	}
	g, err := l.authorize(ctx, password, rules)
	if err != nil {
		return Removal{}, err
	}
	var r Removal
	err = l.st.UpdateLibrary(ctx, func(tx Tx) error {
		r = Removal{}
		if err := rules(l.in(ctx, tx, g)); err != nil {
			return err
		}
		ns, err := tops(ctx, tx.Node, ids)
		if err != nil {
			return err
		}
		var gone []Node
		for _, n := range ns {
			sub, err := tx.Subtree(ctx, n.ID)
			if err != nil {
				return err
			}
			if _, err := tx.Delete(ctx, n.ID); err != nil {
				return err
			}
			gone = append(gone, sub...)
			r.Titles = append(r.Titles, n.Title)
		}
		r.count(gone)
		data, err := json.Marshal(deletedUndo{Nodes: gone})
		if err != nil {
			return err
		}
		return l.push(ctx, tx, "deleted", "deleted "+describeRemoval(r), data, g.opened())
	})
	return r, err
}

func describeRemoval(r Removal) string {
	what := fmt.Sprintf("%q", clip(r.Titles[0], 60))
	if len(r.Titles) > 1 {
		what = fmt.Sprintf("%d postings", len(r.Titles))
	}
	if n := r.Total() - len(r.Titles); n > 0 {
		what += fmt.Sprintf(" and %d below", n)
	}
	return what
}

// checkTarget checks that n may go into dest (a move or a copy): no cycles, create-only
// honoured, libraries not nested too deep.
func checkTarget(ctx context.Context, tx Tx, n, dest Node, verb string) error {
	if strings.HasPrefix(dest.Path, n.Path) {
		return fmt.Errorf("cannot %s %q into itself or a library inside it: %w", verb, n.Title, ErrConflict)
	}
	if dest.CreateOnly && n.Kind != KindLibrary {
		return fmt.Errorf("%q takes only sub-libraries (it is create-only): %w", dest.Title, ErrConflict)
	}
	if n.Kind == KindPointer && n.Parent != dest.ID {
		ns, err := tx.WithURL(ctx, n.URLKey)
		if err != nil {
			return err
		}
		for _, o := range ns {
			if o.Parent == dest.ID && o.Kind == KindPointer {
				return fmt.Errorf("%q has this address already, as %q (#%d): %w", dest.Title, o.Title, o.ID, ErrConflict)
			}
		}
	}
	if n.Kind != KindLibrary {
		return nil
	}
	sub, err := tx.Subtree(ctx, n.ID)
	if err != nil {
		return err
	}
	height := 0
	for _, s := range sub {
		if s.Kind == KindLibrary {
			height = max(height, depth(s.Path)-depth(n.Path))
		}
	}
	if depth(dest.Path)+1+height > MaxDepth {
		return fmt.Errorf("libraries nest at most %d deep: %w", MaxDepth, ErrConflict)
	}
	return nil
}

// place puts ids (already children of dest) at position among dest's children as its page
// lists them in the order shown (sub-libraries first; -1: where they are, at the end for
// newcomers). Arranging by hand starts from that order.
func place(ctx context.Context, tx Tx, dest Node, ids []int64, position int) error {
	if position < 0 {
		return nil
	}
	order, err := tx.ChildIDs(ctx, dest.ID, dest.Sort)
	if err != nil {
		return err
	}
	rest := slices.DeleteFunc(order, func(id int64) bool { return slices.Contains(ids, id) })
	position = min(position, len(rest))
	order = slices.Concat(rest[:position], ids, rest[position:])
	return tx.SetPositions(ctx, order)
}

// Move moves nodes (with their subtrees) into the library dest (GENVL's Move), at position
// among its postings (-1: at the end). Within one library it reorders. What leaves its
// library needs what deleting it would, what moves within it what editing it would, and
// going into dest (or arranging it by hand: a position) what posting into it would
// (protect.go). Cycles, create-only libraries
// and two sub-libraries of one title are refused.
func (l *Library) Move(ctx context.Context, ids []int64, dest int64, position int, password string) error {
	if len(ids) == 0 {
		return invalid("nothing to move")
	}
	rules := func(c check) error {
		d, err := c.r.node(ctx, dest)
		if err != nil {
			return err
		}
		if d.Kind != KindLibrary {
			return fmt.Errorf("%q is a %s: postings move into libraries: %w", d.Title, d.Kind, ErrInvalid)
		}
		ns, err := tops(ctx, c.r.node, ids)
		if err != nil {
			return err
		}
		into := position >= 0
		for _, n := range ns {
			if n.Parent == dest { // moved within its library: it changes place, nothing leaves
				if err := c.change(n, "move"); err != nil {
					return err
				}
				continue
			}
			if err := c.takeAway(n, "move"); err != nil {
				return err
			}
			into = true
		}
		if into {
			return c.postInto(d)
		}
		return nil
	}
	g, err := l.authorize(ctx, password, rules)
	if err != nil {
		return err
	}
	return l.st.UpdateLibrary(ctx, func(tx Tx) error {
		if err := rules(l.in(ctx, tx, g)); err != nil {
			return err
		}
		d, err := tx.Node(ctx, dest)
		if err != nil {
			return err
		}
		ns, err := tops(ctx, tx.Node, ids)
		if err != nil {
			return err
		}
		u := movedUndo{Dest: dest, DestSort: d.Sort}
		if position >= 0 {
			if u.Order, err = tx.ChildIDs(ctx, dest, ByManual); err != nil {
				return err
			}
		}
		var moved []int64
		next, err := tx.NextPosition(ctx, dest)
		if err != nil {
			return err
		}
		for _, n := range ns {
			if err := checkTarget(ctx, tx, n, d, "move"); err != nil {
				return err
			}
			if n.Kind == KindLibrary && n.Parent != dest {
				if err := sameTitleLibrary(ctx, tx, dest, n.Title, n.ID); err != nil {
					return err
				}
			}
			u.Moves = append(u.Moves, moveBack{ID: n.ID, Parent: n.Parent, Position: n.Position})
			if n.Parent != dest {
				if err := tx.Move(ctx, n.ID, dest, d.Path, next); err != nil {
					return err
				}
				next++
			}
			moved = append(moved, n.ID)
		}
		if position >= 0 {
			// Arranging by hand shows the library in its manual order.
			if err := place(ctx, tx, d, moved, position); err != nil {
				return err
			}
			if d.Sort != ByManual {
				d.Sort, d.UpdatedAt = ByManual, l.ms()
				if err := tx.Update(ctx, &d); err != nil {
					return err
				}
			}
		}
		data, _ := json.Marshal(u)
		summary := fmt.Sprintf("moved %q to %q", clip(ns[0].Title, 60), clip(d.Title, 60))
		if len(ns) > 1 {
			summary = fmt.Sprintf("moved %d postings to %q", len(ns), clip(d.Title, 60))
		}
		return l.push(ctx, tx, "moved", summary, data, g.opened())
	})
}

// Copy copies nodes (with their subtrees) into the library dest (GENVL's Copy), at position
// (-1: at the end). A guarded node is copied out only with a password that opens it, and
// dest takes the copies only as it would postings (protect.go); copies keep their
// passwords. A library copied next to one of its title is called "title (copy)".
func (l *Library) Copy(ctx context.Context, ids []int64, dest int64, position int, password string) ([]Node, error) {
	if len(ids) == 0 {
		return nil, invalid("nothing to copy")
	}
	rules := func(c check) error {
		d, err := c.r.node(ctx, dest)
		if err != nil {
			return err
		}
		ns, err := tops(ctx, c.r.node, ids)
		if err != nil {
			return err
		}
		for _, n := range ns {
			if err := c.copyOut(n); err != nil {
				return err
			}
		}
		if d.Kind != KindLibrary {
			return nil // refused below
		}
		return c.postInto(d)
	}
	g, err := l.authorize(ctx, password, rules)
	if err != nil {
		return nil, err
	}
	now := l.ms()
	var out []Node
	err = l.st.UpdateLibrary(ctx, func(tx Tx) error {
		out = nil
		if err := rules(l.in(ctx, tx, g)); err != nil {
			return err
		}
		d, err := tx.Node(ctx, dest)
		if err != nil {
			return err
		}
		if d.Kind != KindLibrary {
			return fmt.Errorf("%q is a %s: postings are copied into libraries: %w", d.Title, d.Kind, ErrInvalid)
		}
		ns, err := tops(ctx, tx.Node, ids)
		if err != nil {
			return err
		}
		var added []int64
		for _, n := range ns {
			if err := checkTarget(ctx, tx, n, d, "copy"); err != nil {
				return err
			}
			sub, err := tx.Subtree(ctx, n.ID)
			if err != nil {
				return err
			}
			top, err := copyTree(ctx, tx, sub, d, now)
			if err != nil {
				return err
			}
			out = append(out, top)
			added = append(added, top.ID)
		}
		if err := place(ctx, tx, d, added, position); err != nil {
			return err
		}
		summary := fmt.Sprintf("copied %q to %q", clip(ns[0].Title, 60), clip(d.Title, 60))
		return l.pushAdded(ctx, tx, summary, g.opened(), added...)
	})
	return out, err
}

// copyTree inserts a copy of sub (a node and its subtree, parents first) under dest.
func copyTree(ctx context.Context, tx Tx, sub []Node, dest Node, now int64) (Node, error) {
	top := sub[0]
	if top.Kind == KindLibrary {
		title := top.Title
		for i := 1; ; i++ {
			ns, err := tx.Children(ctx, dest.ID, title, KindLibrary)
			if err != nil {
				return Node{}, err
			}
			if len(ns) == 0 {
				break
			}
			title = fmt.Sprintf("%s (copy)", top.Title)
			if i > 1 {
				title = fmt.Sprintf("%s (copy %d)", top.Title, i)
			}
		}
		sub[0].Title = title
	}
	next, err := tx.NextID(ctx)
	if err != nil {
		return Node{}, err
	}
	pos, err := tx.NextPosition(ctx, dest.ID)
	if err != nil {
		return Node{}, err
	}
	parents := map[int64]Node{top.Parent: dest}
	out := make([]Node, 0, len(sub))
	for i, n := range sub {
		p, ok := parents[n.Parent]
		if !ok {
			return Node{}, fmt.Errorf("copy: the tree below #%d is not whole", top.ID)
		}
		c := n
		c.ID, c.Parent, c.Path, c.CreatedAt, c.UpdatedAt = next, p.ID, childPath(p, next), now, now
		next++
		if i == 0 {
			c.Position = pos
		}
		parents[n.ID] = c
		out = append(out, c)
	}
	return out[0], tx.InsertMany(ctx, out)
}

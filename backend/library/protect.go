package library

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The protection model. A password protects a library or a posting and everything below it:
//
//   - A node is guarded by its own password and by those of the libraries above it; a
//     password opens it if it is any one of them (the owner of a library is the owner of
//     everything in it, and whoever protected a posting keeps its key).
//   - Changing a guarded node (edit, accept a redirect) needs a password that opens it.
//   - Posting into a guarded library (add, write, create, place a view, import, move or copy
//     into it, arrange it by hand) needs a password that opens it: a protected library is
//     closed to those without its password. Unprotected libraries stay open to all, as
//     GENVL's were (the create-only bit aside).
//   - Taking a node away from its place (delete, move out) needs a password that opens it
//     and, when nothing guards it, one that opens each protected node below it: a protected
//     posting never goes with its unprotected parent. Only one password is given, so when
//     those below have different ones the operation is refused and names them.
//   - Copying a guarded node out needs a password that opens it (copies keep their own
//     passwords, so what is protected below an unguarded node stays protected in the copy).
//   - Undoing a change needs the password it was made with, and what the undoing itself
//     needs now, as the operation that takes it back would (undo.go).
//   - Reading is open to whoever may read the library: protection is about changing.
//
// The guests of `serve --public` (Person.Guest) post and change only in libraries the owner
// opened to guests (Node.OpenToGuests, which covers what is below), passwords allowing, and
// never open or close a library to guests.
//
// Each operation states its rules once (a func(check) error) and they run twice: first
// outside the write transaction, where the slow argon2id checks are made (metered by the
// Gate), then inside it over the transaction's view, from the answers of the first run (a
// hash not seen then means the library changed meanwhile: the operation is refused, to be
// tried again). A wrong guess never holds up the workspace's writer.

// Person is who acts on the library.
type Person struct {
	// ID names them in the undo journal: "" is the owner (the window, the command line,
	// serve's signed-in owner); the guests of serve --public have their own.
	ID string
	// Name is how messages name them ("guest 3f2a"); "" for the owner.
	Name string
	// Guest: a guest of serve --public, who posts and changes only in libraries open to
	// guests.
	Guest bool
	// Shared: several people use the library at once (serve --public): Undo takes back
	// only this person's own last change, or one whose password they give.
	Shared bool
}

// Gate meters the password checks of one client of `serve --public`: argon2id is slow on
// purpose, so a client's wrong guesses are limited and the checks running at once bounded.
type Gate interface {
	// Enter is called before each password is checked or hashed, and leave after; an
	// error (wrapping ErrSlowDown) refuses the check.
	Enter(ctx context.Context) (leave func(), err error)
	// Wrong hears of an operation refused because the password given was wrong.
	Wrong()
}

// maxChecks bounds the password checks of one operation (each costs tens of milliseconds
// and 19 MiB, one after the other): deleting a library that holds many postings with
// passwords of their own (each hash has its own salt, so even one password is checked
// against each).
const maxChecks = 64

// reader reads nodes for the rules: the store's readers, or the write transaction.
type reader interface {
	node(ctx context.Context, id int64) (Node, error)
	children(ctx context.Context, parent int64, title string, kind Kind) ([]Node, error)
	protectedBelow(ctx context.Context, id int64) ([]Node, error)
}

type storeReader struct{ st Store }

func (r storeReader) node(ctx context.Context, id int64) (Node, error) { return r.st.LibNode(ctx, id) }
func (r storeReader) children(ctx context.Context, parent int64, title string, kind Kind) ([]Node, error) {
	return r.st.LibChildren(ctx, parent, title, kind)
}
func (r storeReader) protectedBelow(ctx context.Context, id int64) ([]Node, error) {
	return r.st.LibProtectedBelow(ctx, id)
}

type txReader struct{ tx Tx }

func (r txReader) node(ctx context.Context, id int64) (Node, error) { return r.tx.Node(ctx, id) }
func (r txReader) children(ctx context.Context, parent int64, title string, kind Kind) ([]Node, error) {
	return r.tx.Children(ctx, parent, title, kind)
}
func (r txReader) protectedBelow(ctx context.Context, id int64) ([]Node, error) {
	return r.tx.ProtectedBelow(ctx, id)
}

// key is a password hash that opens a node, and the node that has it.
type key struct {
	hash, title string
	own         bool // the node's own password, not an enclosing library's
}

// lock is what guards a node.
type lock struct {
	n    Node
	keys []key // its own first, then the protected libraries above it, nearest first
	// openAbove: a library above n is open to guests.
	openAbove bool
}

// pathIDs parses a node path ("/1/5/17/") into its ids.
func pathIDs(path string) ([]int64, error) {
	var ids []int64
	for _, p := range strings.Split(strings.Trim(path, "/"), "/") {
		id, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bad library path %q", path)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func lockOf(ctx context.Context, r reader, n Node) (lock, error) {
	l := lock{n: n}
	if n.Protected() {
		l.keys = append(l.keys, key{hash: n.Password, title: n.Title, own: true})
	}
	ids, err := pathIDs(n.Path)
	if err != nil {
		return l, err
	}
	for i := len(ids) - 2; i >= 0; i-- {
		a, err := r.node(ctx, ids[i])
		if err != nil {
			return l, err
		}
		if a.Protected() {
			l.keys = append(l.keys, key{hash: a.Password, title: a.Title})
		}
		l.openAbove = l.openAbove || a.OpenToGuests
	}
	return l, nil
}

// grant is the password given to one operation, with what it opened.
type grant struct {
	pw     string
	gate   Gate
	ok     map[string]bool // hash -> the password is its
	inTx   bool            // the run inside the transaction: no slow checks
	checks int
	wrong  bool // the password given failed to open something asked
}

func (g *grant) try(ctx context.Context, hash string) (bool, error) {
	if ok, seen := g.ok[hash]; seen {
		return ok, nil
	}
	if g.pw == "" {
		return false, nil
	}
	if g.inTx {
		return false, fmt.Errorf("the library changed meanwhile: look again and try again: %w", ErrConflict)
	}
	if g.checks == maxChecks {
		return false, fmt.Errorf("more than %d passwords to check at once: do it in smaller steps: %w", maxChecks, ErrConflict)
	}
	g.checks++
	if g.gate != nil {
		leave, err := g.gate.Enter(ctx)
		if err != nil {
			return false, err
		}
		defer leave()
	}
	ok := CheckPassword(hash, g.pw)
	g.ok[hash] = ok
	return ok, nil
}

// opens reports whether the password opens l (anything unguarded is open).
func (g *grant) opens(ctx context.Context, l lock) (bool, error) {
	if len(l.keys) == 0 {
		return true, nil
	}
	for _, k := range l.keys {
		if ok, err := g.try(ctx, k.hash); err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// opened lists the hashes the password opened, for the undo journal.
func (g *grant) opened() []string {
	var out []string
	for h, ok := range g.ok {
		if ok {
			out = append(out, h)
		}
	}
	slices.Sort(out)
	return out
}

// check applies the rules of the model with one reader and one grant.
type check struct {
	ctx context.Context
	r   reader
	g   *grant
	who Person
}

// need refuses unless the password opens l; what says what it is for ("edit").
func (c check) need(l lock, what string) error {
	ok, err := c.g.opens(c.ctx, l)
	if err != nil || ok {
		return err
	}
	k := l.keys[0]
	given := c.g.pw != ""
	c.g.wrong = c.g.wrong || given
	switch {
	case k.own && given:
		return fmt.Errorf("that is not the password of %q: %w", l.n.Title, ErrPassword)
	case k.own:
		return fmt.Errorf("%q has a password: give it to %s it: %w", l.n.Title, what, ErrPassword)
	case given:
		return fmt.Errorf("that is not the password of the library %q, which %q is in: %w", k.title, l.n.Title, ErrPassword)
	}
	return fmt.Errorf("%q is in the protected library %q: give its password to %s it: %w", l.n.Title, k.title, what, ErrPassword)
}

func guestRefusal(n Node) error {
	return fmt.Errorf("%q is not in a library open to guests: guests post and change only where the owner allows: %w",
		n.Title, ErrGuest)
}

// change: n itself changes (edit, accept a redirect).
func (c check) change(n Node, what string) error {
	l, err := lockOf(c.ctx, c.r, n)
	if err != nil {
		return err
	}
	if c.who.Guest && !l.openAbove {
		return guestRefusal(n)
	}
	return c.need(l, what)
}

// postInto: something goes into the library p (a posting, an import, a move or copy in,
// an arrangement by hand).
func (c check) postInto(p Node) error {
	l, err := lockOf(c.ctx, c.r, p)
	if err != nil {
		return err
	}
	if c.who.Guest && !l.openAbove && !p.OpenToGuests {
		return guestRefusal(p)
	}
	return c.need(l, "post into")
}

// takeAway: n and everything below it leave their place (delete, move out). An unguarded
// n needs a password that opens each protected node below it.
func (c check) takeAway(n Node, what string) error {
	l, err := lockOf(c.ctx, c.r, n)
	if err != nil {
		return err
	}
	if c.who.Guest && !l.openAbove {
		return guestRefusal(n)
	}
	if len(l.keys) > 0 {
		return c.need(l, what)
	}
	below, err := c.r.protectedBelow(c.ctx, n.ID)
	if err != nil {
		return err
	}
	var tops, locked []Node // the topmost protected nodes below n, and those not opened
	for _, m := range below {
		if slices.ContainsFunc(tops, func(t Node) bool { return strings.HasPrefix(m.Path, t.Path) }) {
			continue // opened or refused with the node above it
		}
		tops = append(tops, m)
		ok, err := c.g.opens(c.ctx, lock{n: m, keys: []key{{hash: m.Password, title: m.Title, own: true}}})
		if err != nil {
			return err
		}
		if !ok {
			locked = append(locked, m)
		}
	}
	if len(locked) == 0 {
		return nil
	}
	given := c.g.pw != ""
	c.g.wrong = c.g.wrong || given
	names := make([]string, 0, 5)
	for _, m := range locked[:min(len(locked), 5)] {
		names = append(names, fmt.Sprintf("%q (#%d)", clip(m.Title, 60), m.ID))
	}
	list := strings.Join(names, ", ")
	if len(locked) > 5 {
		list += fmt.Sprintf(" and %d more", len(locked)-5)
	}
	if given {
		return fmt.Errorf("%q holds postings protected by another password: %s: take those out first, each with its own: %w",
			n.Title, list, ErrPassword)
	}
	return fmt.Errorf("%q holds postings protected by a password: %s: give their password to %s it (or take those out first): %w",
		n.Title, list, what, ErrPassword)
}

// copyOut: n is copied elsewhere.
func (c check) copyOut(n Node) error {
	l, err := lockOf(c.ctx, c.r, n)
	if err != nil {
		return err
	}
	return c.need(l, "copy")
}

// authorize runs rules outside the write transaction, making the slow checks, and
// returns the grant for the run inside it (see in).
func (l *Library) authorize(ctx context.Context, pw string, rules func(check) error) (*grant, error) {
	g := &grant{pw: pw, gate: l.gate, ok: map[string]bool{}}
	if err := rules(check{ctx: ctx, r: storeReader{l.st}, g: g, who: l.who}); err != nil {
		if g.wrong && l.gate != nil {
			l.gate.Wrong()
		}
		return nil, err
	}
	g.inTx = true
	return g, nil
}

// in is the check of the run inside the write transaction tx.
func (l *Library) in(ctx context.Context, tx Tx, g *grant) check {
	return check{ctx: ctx, r: txReader{tx}, g: g, who: l.who}
}

// hash hashes a new password, through the gate (it is as slow as a check).
func (l *Library) hash(ctx context.Context, pw string) (string, error) {
	if pw == "" {
		return "", nil
	}
	if l.gate != nil {
		leave, err := l.gate.Enter(ctx)
		if err != nil {
			return "", err
		}
		defer leave()
	}
	return HashPassword(pw)
}

package library

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Edit changes the fields it sets; the rest stay (GENVL's Edit).
type Edit struct {
	Title, URL, Notes, Body, Purpose *string
	Tags                             *[]string
	CreateOnly                       *bool
	Order                            *Order
	Image                            *ImageData // set: a new picture
	ClearImage                       bool       // back to the enclosing library's picture
	Author, Email                    *string
	// NewPassword sets the password ("" removes it).
	NewPassword *string
}

// Edit changes a node. A protected node needs its password.
func (l *Library) Edit(ctx context.Context, id int64, e Edit, password string) (Node, error) {
	g, err := l.grant(ctx, password, id)
	if err != nil {
		return Node{}, err
	}
	var hash *string
	if e.NewPassword != nil {
		h := ""
		if *e.NewPassword != "" {
			if h, err = HashPassword(*e.NewPassword); err != nil {
				return Node{}, err
			}
		}
		hash = &h
	}
	var out Node
	err = l.st.UpdateLibrary(ctx, func(tx Tx) error {
		before, err := tx.Node(ctx, id)
		if err != nil {
			return err
		}
		if err := g.allow(before, "edit"); err != nil {
			return err
		}
		n := before
		if err := l.apply(ctx, tx, &n, e); err != nil {
			return err
		}
		if hash != nil {
			n.Password = *hash
		}
		n.UpdatedAt = l.ms()
		if err := tx.Update(ctx, &n); err != nil {
			return err
		}
		out = n
		data, _ := json.Marshal(editedUndo{Before: before})
		return tx.PushUndo(ctx, Undo{At: l.ms(), Op: "edited", Summary: fmt.Sprintf("edited %q", before.Title),
			Data: data, Password: before.Password})
	})
	return out, err
}

// apply checks e's fields and sets them on n.
func (l *Library) apply(ctx context.Context, tx Tx, n *Node, e Edit) error {
	var err error
	if e.Title != nil {
		if n.Title, err = checkTitle(*e.Title, true); err != nil {
			return err
		}
		if n.Kind == KindLibrary && n.ID != RootID {
			if err := sameTitleLibrary(ctx, tx, n.Parent, n.Title, n.ID); err != nil {
				return err
			}
		}
	}
	if e.URL != nil {
		switch {
		case n.Kind == KindReport && strings.TrimSpace(*e.URL) == "":
			n.URL, n.URLKey = "", ""
		case n.Kind == KindPointer || n.Kind == KindReport:
			if n.URL, n.URLKey, err = checkURL(*e.URL); err != nil {
				return err
			}
			if n.Kind == KindPointer {
				if _, err := l.duplicates(ctx, tx, n.Parent, n.URLKey, n.ID); err != nil {
					return err
				}
			}
		default:
			return invalid("a %s has no address", n.Kind)
		}
	}
	if e.Notes != nil {
		if n.Notes, err = checkText("notes", *e.Notes, MaxNotes); err != nil {
			return err
		}
	}
	if e.Body != nil {
		if n.Kind != KindReport {
			return invalid("only a report has a text")
		}
		if n.Body, err = checkText("a report", *e.Body, MaxBody); err != nil {
			return err
		}
	}
	if e.Purpose != nil {
		if n.Purpose, err = checkText("a purpose", *e.Purpose, MaxNotes); err != nil {
			return err
		}
	}
	if e.Tags != nil {
		if n.Tags, err = CheckTags(*e.Tags); err != nil {
			return err
		}
	}
	if e.CreateOnly != nil {
		if n.Kind != KindLibrary {
			return invalid("only a library is create-only")
		}
		n.CreateOnly = *e.CreateOnly
	}
	if e.Order != nil {
		if n.Sort, err = checkOrder(*e.Order); err != nil {
			return err
		}
	}
	if e.ClearImage {
		n.ImageID = 0
	}
	if !e.Image.Empty() {
		if n.Kind != KindLibrary && n.Kind != KindReport {
			return invalid("only libraries and reports have pictures")
		}
		if n.ImageID, err = l.saveImage(ctx, tx, e.Image); err != nil {
			return err
		}
	}
	if e.Author != nil || e.Email != nil {
		a, m := n.Author, n.Email
		if e.Author != nil {
			a = *e.Author
		}
		if e.Email != nil {
			m = *e.Email
		}
		if n.Author, n.Email, err = checkPerson(a, m); err != nil {
			return err
		}
	}
	return nil
}

// grant is a password checked against the hashes of the nodes an operation touches. The
// slow check runs before the write transaction (a hash seen there is not checked again),
// so that a wrong guess never holds up the workspace's writer.
type grant struct {
	pw string
	ok map[string]bool
}

func (l *Library) grant(ctx context.Context, pw string, ids ...int64) (*grant, error) {
	g := &grant{pw: pw, ok: map[string]bool{}}
	for _, id := range ids {
		n, err := l.st.LibNode(ctx, id)
		if err != nil {
			return nil, err
		}
		if err := g.allow(n, "change"); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// allow checks that the password opens n (a node without one is open to all).
func (g *grant) allow(n Node, what string) error {
	if !n.Protected() {
		return nil
	}
	ok, seen := g.ok[n.Password]
	if !seen {
		ok = g.pw != "" && CheckPassword(n.Password, g.pw)
		g.ok[n.Password] = ok
	}
	if ok {
		return nil
	}
	if g.pw == "" {
		return fmt.Errorf("%q has a password: give it to %s it: %w", n.Title, what, ErrPassword)
	}
	return fmt.Errorf("that is not the password of %q: %w", n.Title, ErrPassword)
}

// hash is one of the hashes the password opened ("" when nothing needed one).
func (g *grant) hash() string {
	for h, ok := range g.ok {
		if ok {
			return h
		}
	}
	return ""
}

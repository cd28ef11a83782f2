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
	// OpenToGuests opens a library to the guests of serve --public (or closes it); only
	// the owner may.
	OpenToGuests *bool
}

// Edit changes a node. A guarded node needs a password that opens it (protect.go).
func (l *Library) Edit(ctx context.Context, id int64, e Edit, password string) (Node, error) {
	rules := func(c check) error {
		n, err := c.r.node(ctx, id)
		if err != nil {
			return err
		}
		if e.OpenToGuests != nil && c.who.Guest {
			return fmt.Errorf("only the owner opens a library to guests: %w", ErrGuest)
		}
		return c.change(n, "edit")
	}
	g, err := l.authorize(ctx, password, rules)
	if err != nil {
		return Node{}, err
	}
	var hash *string
	if e.NewPassword != nil {
		h, err := l.hash(ctx, *e.NewPassword)
		if err != nil {
			return Node{}, err
		}
		hash = &h
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
		return l.push(ctx, tx, "edited", fmt.Sprintf("edited %q", before.Title), data, g.opened())
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
		if n.Body, err = checkText("report", *e.Body, MaxBody); err != nil {
			return err
		}
	}
	if e.Purpose != nil {
		if n.Purpose, err = checkText("statement of purpose", *e.Purpose, MaxNotes); err != nil {
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
	if e.OpenToGuests != nil {
		if n.Kind != KindLibrary {
			return invalid("only a library is opened to guests")
		}
		n.OpenToGuests = *e.OpenToGuests
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

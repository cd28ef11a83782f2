package library

import (
	"context"
	"encoding/json"
	"fmt"
)

// MaxAliases bounds the former URLs a pointer keeps: the oldest go first.
const MaxAliases = 32

// AcceptRedirect takes a pointer's permanent redirect into it (issue 16): its URL becomes
// the address the link checks found it moved to, and the old URL is kept as an alias, by
// which the pointer is still found; a pointer whose title was its URL takes the new page's
// title (or its new URL). Only a redirect that the latest check found permanent
// (301 or 308 all the way) may be accepted; a temporary one says nothing about where the
// page lives. Undo puts the old URL back. A protected pointer needs its password.
func (l *Library) AcceptRedirect(ctx context.Context, id int64, password string) (Node, error) {
	rules := func(c check) error {
		n, err := c.r.node(ctx, id)
		if err != nil {
			return err
		}
		return c.change(n, "edit")
	}
	g, err := l.authorize(ctx, password, rules)
	if err != nil {
		return Node{}, err
	}
	p, err := l.st.LibPosting(ctx, id)
	if err != nil {
		return Node{}, err
	}
	if p.Kind != KindPointer {
		return Node{}, invalid("a %s has no redirect to accept", p.Kind)
	}
	h := p.Health
	switch {
	case h == nil:
		return Node{}, invalid("%q has not been checked: run a link check first", p.Title)
	case h.Verdict != "redirected" || h.FinalURL == "":
		return Node{}, invalid("%q is not redirected (its latest check: %s)", p.Title, h.Verdict)
	case !h.Permanent:
		return Node{}, invalid("%q is redirected only temporarily: its address stays", p.Title)
	}
	final, finalKey, err := checkURL(h.FinalURL)
	if err != nil {
		return Node{}, err
	}
	// A pointer added without a title has its URL for one: it takes the new page's (the
	// crawler's, when it has read it), else its new URL. A title someone gave stays.
	newTitle := clip(final, MaxTitle)
	if k, err := l.st.LibKnown(ctx, finalKey); err == nil && k != nil && cleanLine(k.Title) != "" {
		newTitle, _ = checkTitle(k.Title, false)
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
		if before.URLKey != p.URLKey {
			return fmt.Errorf("%q changed its address meanwhile: look again: %w", before.Title, ErrConflict)
		}
		if before.URLKey == finalKey {
			return invalid("%q points at %s already", before.Title, clip(final, 80))
		}
		if _, err := l.duplicates(ctx, tx, before.Parent, finalKey, before.ID); err != nil {
			return err
		}
		n := before
		n.URL, n.URLKey = final, finalKey
		if before.Title == clip(before.URL, MaxTitle) || before.Title == clip(before.URLKey, MaxTitle) {
			n.Title = newTitle
		}
		n.Aliases = withAlias(before.Aliases, Alias{URL: before.URL, Key: before.URLKey}, finalKey)
		n.UpdatedAt = l.ms()
		if err := tx.Update(ctx, &n); err != nil {
			return err
		}
		out = n
		data, _ := json.Marshal(editedUndo{Before: before})
		return l.push(ctx, tx, "edited", fmt.Sprintf("accepted the redirect of %q", before.Title), data, g.opened())
	})
	return out, err
}

// withAlias returns as with a added last (once per canonical URL) and without the alias of
// the pointer's new URL (a page that moved back), keeping the newest MaxAliases.
func withAlias(as []Alias, a Alias, current string) []Alias {
	out := make([]Alias, 0, len(as)+1)
	for _, x := range as {
		if x.Key != a.Key && x.Key != current {
			out = append(out, x)
		}
	}
	out = append(out, a)
	if len(out) > MaxAliases {
		out = out[len(out)-MaxAliases:]
	}
	return out
}

package search

import (
	"context"
	"errors"
	"fmt"
	"mundaneum/backend/query"
	"strings"
	"time"
	"unicode"

	"mundaneum/backend/store"
)

// Saved views are Harvest's standing queries (Nebula's views): a named query, re-evaluated
// whenever it is opened, that says how many of its results are new since it was last opened.

// View is a saved query.
type View = store.View

// ViewStore keeps saved views; *store.Store satisfies it.
type ViewStore interface {
	SaveView(ctx context.Context, name, query string, replace bool) (store.View, bool, error)
	Views(ctx context.Context) ([]store.View, error)
	ViewNamed(ctx context.Context, name string) (store.View, error)
	DeleteView(ctx context.Context, name string) error
	MarkViewOpened(ctx context.Context, id, at int64, total int) error
}

// ErrBadView is returned (wrapped) for a view name or query that cannot be saved.
var ErrBadView = errors.New("bad view")

// ErrNoView is returned (wrapped) when no view has the given name.
var ErrNoView = store.ErrNotFound

// maxViewName bounds a view's name, in characters.
const maxViewName = 100

// ErrViewExists is returned (wrapped, with the view's query) when a view of the name exists
// and replace was not asked for.
var ErrViewExists = store.ErrExists

// SaveView saves the query text under name. A view of that name is replaced only when replace is
// set, and then starts afresh: what is new is counted from now. replaced says whether one was.
func SaveView(ctx context.Context, vs ViewStore, name, text string, replace bool) (v View, replaced bool, err error) {
	name = strings.TrimSpace(name)
	text = strings.TrimSpace(text)
	switch {
	case name == "" || len([]rune(name)) > maxViewName:
		return View{}, false, fmt.Errorf("%w: a name has 1 to %d characters", ErrBadView, maxViewName)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return View{}, false, fmt.Errorf("%w: a name has no control characters", ErrBadView)
	case text == "":
		return View{}, false, fmt.Errorf("%w: the query is empty", ErrBadView)
	case len(text) > 4*query.MaxQueryRunes:
		return View{}, false, fmt.Errorf("%w: the query is too long", ErrBadView)
	}
	return vs.SaveView(ctx, name, text, replace)
}

// ListViews returns the saved views by name.
func ListViews(ctx context.Context, vs ViewStore) ([]View, error) { return vs.Views(ctx) }

// DeleteView removes a saved view (ErrNoView if there is none of that name).
func DeleteView(ctx context.Context, vs ViewStore, name string) error {
	return vs.DeleteView(ctx, strings.TrimSpace(name))
}

// ViewResults is an opened view: its results now, and how many are new since it was last
// opened (or, the first time, since it was saved).
type ViewResults struct {
	View    View
	Results Results
	New     int   // matches whose content appeared or changed since Since
	Since   int64 // unix ms: the last opening, or the view's creation
}

// OpenView re-evaluates a saved view (r.Query is replaced by the view's query), counts the
// results new since it was last opened, and records this opening.
func (s *Searcher) OpenView(ctx context.Context, vs ViewStore, name string, r Request) (ViewResults, error) {
	v, err := vs.ViewNamed(ctx, strings.TrimSpace(name))
	if err != nil {
		return ViewResults{}, err
	}
	since := v.OpenedAt
	if since == 0 {
		since = v.CreatedAt
	}
	if v.UpdatedAt > since {
		since = v.UpdatedAt // a changed query starts afresh
	}
	now := time.Now().UnixMilli()
	r.Query, r.NewSince = v.Query, since
	res, err := s.Search(ctx, r)
	if err != nil {
		return ViewResults{}, fmt.Errorf("open view %q: %w", v.Name, err)
	}
	if err := vs.MarkViewOpened(ctx, v.ID, now, res.Total); err != nil {
		return ViewResults{}, err
	}
	for i := range res.Results {
		res.Results[i].New = res.Results[i].ChangedAt > since
	}
	return ViewResults{View: v, Results: res, New: res.New, Since: since}, nil
}

package app

import "context"

// LibraryAcceptRedirect takes a pointer's permanent redirect (found by the link checks):
// its URL becomes the new address and the old one an alias. LibraryUndo takes it back; a
// protected pointer needs its password.
func (a *App) LibraryAcceptRedirect(id int64, password string) (result LibPosting, _ error) {
	defer lists(&result)
	ctx := context.Background()
	n, err := a.lib().AcceptRedirect(ctx, id, password)
	if err != nil {
		return LibPosting{}, apiError(err)
	}
	a.changed("moved " + n.Title)
	return a.posting(ctx, n.ID)
}

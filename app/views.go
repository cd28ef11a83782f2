package app

import (
	"context"

	"mundaneum/backend/libsearch"
	"mundaneum/backend/search"
)

// Views lists the saved views (standing queries), by name.
func (a *App) Views() (result []View, _ error) {
	defer lists(&result)
	vs, err := search.ListViews(context.Background(), a.ws().st)
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]View, 0, len(vs))
	for _, v := range vs {
		out = append(out, viewDTO(v))
	}
	return out, nil
}

// SaveView saves query under name. A view of that name is replaced only with replace (it
// then counts what is new from now); without it, saving over one is a conflict.
func (a *App) SaveView(name, query string, replace bool) (View, error) {
	v, _, err := search.SaveView(context.Background(), a.ws().st, name, query, replace)
	if err != nil {
		return View{}, apiError(err)
	}
	return viewDTO(v), nil
}

// DeleteView deletes a saved view.
func (a *App) DeleteView(name string) error {
	return apiError(search.DeleteView(context.Background(), a.ws().st, name))
}

// OpenView re-evaluates a saved view and says how many results are new since it was last
// opened.
func (a *App) OpenView(name string, limit int) (result ViewResults, _ error) {
	defer lists(&result)
	w := a.ws()
	r, err := w.search.OpenView(context.Background(), w.st, name, search.Request{Limit: limit, Facets: true})
	if err != nil {
		return ViewResults{}, apiError(err)
	}
	// The library's postings, as the same search in the box shows them.
	lib, err := w.library.Search(context.Background(), libsearch.Request{Query: r.View.Query, Limit: libraryHits})
	if err != nil {
		return ViewResults{}, apiError(err)
	}
	return ViewResultsOf(r, lib), nil
}

// ViewResultsOf is an opened view as the window gets it, with the library's hits lib.
func ViewResultsOf(r search.ViewResults, lib libsearch.Results) ViewResults {
	out := searchDTO(r.Results)
	out.Library = libHitsDTO(lib)
	return ViewResults{View: viewDTO(r.View), Results: out, New: r.New, Since: rfc3339(r.Since)}
}

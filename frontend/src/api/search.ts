// Search: queries, their facets, saved views, and the index behind them.
// Part of src/api, the only code that touches the generated bindings.
import * as App from '../../wailsjs/go/app/App';
import { call } from './call';
import { libHits } from './library';
import type { FacetResults, IndexStatus, SearchResults, View, ViewResults } from './types';

/** Runs a search query: one page of results, with facet counts when asked, and with the
 * first page the library's postings that match. */
export async function search(query: string, limit = 50, offset = 0, facets = false): Promise<SearchResults> {
  const r = await call(() => App.Search({ query, limit, offset, facets }));
  return { ...r, facets: r.facets ?? {}, library: libHits(r.library) };
}

/** Counts a query's matches by host, type, crawl and status, without ranking them (the
 * window asks once the results are shown). */
export async function searchFacets(query: string): Promise<FacetResults> {
  const r = await call(() => App.SearchFacets(query));
  return { ...r, facets: r.facets ?? {} };
}

/** Says how far behind the workspace its search index is. */
export function indexStatus(): Promise<IndexStatus> {
  return call(() => App.IndexStatus());
}

/** Starts rebuilding the search index from the stored pages (IndexStatus follows it). */
export function rebuildIndex(): Promise<void> {
  return call(() => App.RebuildIndex());
}

/** The saved views (standing queries), by name. */
export async function views(): Promise<View[]> {
  return call(() => App.Views());
}

/**
 * Saves a query under a name. A view of that name is replaced only with replace (its count of
 * what is new starts again); without it, saving over one fails with code 'conflict'.
 */
export function saveView(name: string, query: string, replace = false): Promise<View> {
  return call(() => App.SaveView(name, query, replace));
}

/** Deletes a saved view. */
export function deleteView(name: string): Promise<void> {
  return call(() => App.DeleteView(name));
}

/** Re-evaluates a saved view; `new` counts results new since it was last opened. */
export async function openView(name: string, limit = 50): Promise<ViewResults> {
  const r = await call(() => App.OpenView(name, limit));
  return {
    ...r,
    results: { ...r.results, facets: r.results.facets ?? {}, library: libHits(r.results.library) },
  };
}

// The search view's state, kept outside the component so that a search survives a visit to
// a page view and Back. A key after a pause searches at once, a burst of keys when it ends;
// answers that are not for the latest request are dropped. Results come first, facet counts in a second request (which
// only counts: no ranking, no snippets), so that the results never wait for the counts on large workspaces.
import { openView, search, searchFacets, toApiError, type FacetCount, type FacetResults, type SearchResults, type ViewResults } from '../api';
import { Live } from './live';

/** Results per page. */
export const pageSize = 20;
/** The pause after the last key before searching, in ms. */
export const typingDelay = 120;
/** The pause before counting facets once results are in, in ms. */
export const facetDelay = 150;

interface Ask {
  q: string;
  offset: number;
}

/** An opened saved view: what it says about new results. */
export interface OpenedView {
  name: string;
  query: string;
  new: number;
  since: string;
}

export class SearchState {
  /** The text in the search box. */
  query = $state('');
  /** The latest results, and the query and offset they answer. */
  results = $state<SearchResults | null>(null);
  resultsFor = $state('');
  offset = $state(0);
  /** Facet counts for facetsFor. */
  facets = $state<Record<string, FacetCount[]>>({});
  facetsApprox = $state(false);
  facetsFor = $state('');
  error = $state('');
  busy = $state(false);
  /** The highlighted result (-1: none, the box has the keyboard). */
  selected = $state(-1);
  /** The saved view the results come from, until the query changes. */
  view = $state<OpenedView | null>(null);
  /** After a correction, the user asked for the query as typed (which found nothing). */
  showOriginal = $state(false);

  #results = new Live<Ask, SearchResults>({
    run: ({ q, offset }) => search(q, pageSize, offset, false),
    delay: typingDelay,
    leading: true,
    onresult: (r, { q, offset }) => {
      this.results = r;
      this.resultsFor = q;
      this.offset = offset;
      this.error = '';
      this.showOriginal = false;
      if (this.selected >= r.results.length) this.selected = r.results.length - 1;
      if (this.facetsFor !== q) this.#facets.schedule(q);
    },
    onerror: (err) => {
      this.error = toApiError(err).message;
    },
    onbusy: (b) => (this.busy = b),
  });

  #facets = new Live<string, FacetResults>({
    run: (q) => searchFacets(q),
    delay: facetDelay,
    onresult: (r, q) => {
      if (q !== this.resultsFor) return;
      this.facets = r.facets;
      this.facetsApprox = r.approx;
      this.facetsFor = q;
    },
    onerror: () => {
      // the results are what matters; facets stay as they were
    },
  });

  #views = new Live<string, ViewResults>({
    run: (name) => openView(name, pageSize),
    delay: 0,
    onresult: (v) => {
      this.query = v.view.query;
      this.results = v.results;
      this.resultsFor = v.view.query;
      this.offset = 0;
      this.facets = v.results.facets;
      this.facetsApprox = v.results.facetsApprox;
      this.facetsFor = v.view.query;
      this.error = '';
      this.selected = -1;
      this.showOriginal = false;
      this.view = { name: v.view.name, query: v.view.query, new: v.new, since: v.since };
    },
    onerror: (err) => {
      this.error = toApiError(err).message;
    },
    onbusy: (b) => (this.busy = b),
  });

  /** The box changed: search after a pause (an empty box clears the results). */
  input(q: string) {
    this.query = q;
    this.selected = -1;
    if (this.view && q !== this.view.query) this.view = null;
    if (q.trim() === '') {
      this.clear();
      return;
    }
    this.#views.cancel();
    this.#facets.cancel(); // the server's time goes to the new query first
    this.#results.schedule({ q, offset: 0 });
  }

  /** Searches for q at once, from result `offset` (Enter, a facet, a page link, Back). */
  run(q: string, offset = 0): Promise<void> {
    this.query = q;
    if (this.view && q !== this.view.query) this.view = null;
    if (q.trim() === '') {
      this.clear();
      return Promise.resolve();
    }
    this.#views.cancel();
    this.#facets.cancel();
    return this.#results.now({ q, offset: Math.max(0, offset) });
  }

  /** Opens a saved view: its query, its results now, and how many are new. */
  openView(name: string): Promise<void> {
    this.#results.cancel();
    this.#facets.cancel();
    return this.#views.now(name);
  }

  /** Empties the box and the results. */
  clear() {
    this.#results.cancel();
    this.#facets.cancel();
    this.#views.cancel();
    this.query = '';
    this.results = null;
    this.resultsFor = '';
    this.offset = 0;
    this.facets = {};
    this.facetsFor = '';
    this.error = '';
    this.selected = -1;
    this.view = null;
    this.showOriginal = false;
  }

  /** Forgets everything (another workspace was opened). */
  reset() {
    this.clear();
  }

  /** Reports whether the results on screen are for the text in the box. */
  get current(): boolean {
    return this.results !== null && this.resultsFor === this.query;
  }

  /** The page of results shown, from 1. */
  get page(): number {
    return Math.floor(this.offset / pageSize) + 1;
  }

  /** The number of pages of results (at least 1): as far as paging reaches (the ranked window). */
  get pages(): number {
    const r = this.results;
    const total = r ? (r.window > 0 ? Math.min(r.total, r.window) : r.total) : 0;
    return Math.max(1, Math.ceil(total / pageSize));
  }
}

/** The app's one search. */
export const searchState = new SearchState();

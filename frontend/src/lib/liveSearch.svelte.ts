// "Search the live web from here" (WebCrawler's real-time search): the search view hands the
// crawl form a query to crawl toward and the pages to start from, the best results the index
// already has. The form takes them once.

export interface LiveSearch {
  toward: string;
  seeds: string[];
}

/** How many of the index's results seed a live-web search. */
export const liveSeeds = 5;

/** A live search started in the search view, or null: the crawl form takes it. */
export const liveSearch = $state<{ pending: LiveSearch | null }>({ pending: null });

/** Takes the pending live search (once). */
export function takeLiveSearch(): LiveSearch | null {
  const p = liveSearch.pending;
  liveSearch.pending = null;
  return p;
}

// "Crawl from here" on a link the workspace lacks (in an offline copy or a report): the
// crawl form opens with the address as its seed, ready for reading offline. The form takes
// it once.
import type { Scope } from '../api';

export interface CrawlPrefill {
  seeds: string[];
  scope: Scope;
  /** Store the pages' style sheets and images (the "for offline reading" preset). */
  requisites: boolean;
}

/** A crawl the form should start from, or null. */
export const crawlPrefill = $state<{ pending: CrawlPrefill | null }>({ pending: null });

/** Takes the pending prefill (once). */
export function takeCrawlPrefill(): CrawlPrefill | null {
  const p = crawlPrefill.pending;
  crawlPrefill.pending = null;
  return p;
}

// Crawls: starting, pausing, resuming and listing them, their pages, the workspace's counts.
// Part of src/api, the only code that touches the generated bindings.
import * as App from '../../wailsjs/go/app/App';
import { call } from './call';
import type { Crawl, CrawlPages, CrawlRequest, DocumentType, Status } from './types';

/** The values a new crawl starts from: the CLI's defaults with the workspace's settings. */
export function crawlDefaults(): Promise<CrawlRequest> {
  return call(() => App.CrawlDefaults());
}

/** The document types a crawl can download (PDF, feeds, archives...), with the defaults. */
export function documentTypes(): Promise<DocumentType[]> {
  return call(() => App.DocumentTypes());
}

/** Starts a crawl; progress then arrives as crawl:progress events. */
export function startCrawl(req: CrawlRequest): Promise<Crawl> {
  return call(() => App.StartCrawl(req));
}

/** Pauses a running crawl, keeping its queue. */
export function pauseCrawl(id: number): Promise<void> {
  return call(() => App.PauseCrawl(id));
}

/** Resumes a paused or interrupted crawl. */
export function resumeCrawl(id: number): Promise<Crawl> {
  return call(() => App.ResumeCrawl(id));
}

/** Cancels a crawl for good. */
export function cancelCrawl(id: number): Promise<void> {
  return call(() => App.CancelCrawl(id));
}

/** Lists every crawl, newest first. */
export async function listCrawls(): Promise<Crawl[]> {
  return call(() => App.Crawls());
}

/** A crawl's pages, optionally only those in one state, with why each failed or was skipped. */
export async function crawlPages(crawlId: number, state = '', offset = 0, limit = 100): Promise<CrawlPages> {
  return call(() => App.CrawlPages(crawlId, state, offset, limit));
}

/** Returns the workspace's counts. */
export function status(): Promise<Status> {
  return call(() => App.Status());
}

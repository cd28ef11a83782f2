// Types of the bound API, re-exported from the generated Wails models so that features
// never import wailsjs themselves.
import type { app } from '../../wailsjs/go/models';

export type Crawl = app.Crawl;
export type CrawlRequest = app.CrawlRequest;
export type SearchResults = app.SearchResults;
export type Result = app.Result;
export type Status = app.Status;
export type SearchRequest = app.SearchRequest;
export type FacetCount = app.FacetCount;
export type Page = app.Page;
export type LinkRef = app.LinkRef;
export type CrawlPages = app.CrawlPages;
export type CrawlPage = app.CrawlPage;
export type OfflineCopy = app.OfflineCopy;
export type View = app.View;
export type ViewResults = app.ViewResults;
export type Settings = app.Settings;
export type WorkspaceInfo = app.WorkspaceInfo;
export type IndexStatus = app.IndexStatus;

/** The crawl scopes the backend understands. */
export const scopes = ['site', 'tree', 'domain', 'list'] as const;
export type Scope = (typeof scopes)[number];

/** Events the backend emits, with their payloads. */
export interface Events {
  'crawl:progress': Crawl;
  'crawl:done': Crawl;
  'workspace:changed': string;
  'index:progress': IndexStatus;
  'index:done': IndexStatus;
}

// Types of the bound API, re-exported from the generated Wails models so that features
// never import wailsjs themselves.
import type { app, archive, exchange, graph, report } from '../../wailsjs/go/models';

export type Crawl = app.Crawl;
export type CrawlRequest = app.CrawlRequest;
export type DocumentType = app.DocumentType;
export type SummaryAttr = app.SummaryAttr;
export type SearchResults = app.SearchResults;
export type Result = app.Result;
export type Status = app.Status;
export type SearchRequest = app.SearchRequest;
export type FacetCount = app.FacetCount;
export type FacetResults = app.FacetResults;
export type Page = app.Page;
export type PageRender = app.PageRender;
export type ScreenshotInfo = app.ScreenshotInfo;
export type Screenshot = app.Screenshot;
export type LinkRef = app.LinkRef;
export type CrawlPages = app.CrawlPages;
export type CrawlPage = app.CrawlPage;
export type OfflineCopy = app.OfflineCopy;
export type TextBlock = app.TextBlock;
export type LinkInfo = app.LinkInfo;
export type PageVersion = app.PageVersion;
export type ArchiveFormat = app.ArchiveFormat;
export type ArchiveJob = app.ArchiveJob;
export type RetentionInfo = app.RetentionInfo;
export type ExportReport = archive.ExportReport;
export type ImportReport = archive.ImportReport;
export type ExchangeToken = exchange.Token;
export type Source = exchange.Source;
export type PageDiff = app.PageDiff;
export type DiffOp = app.DiffOp;
export type View = app.View;
export type ViewResults = app.ViewResults;
export type Settings = app.Settings;
export type WorkspaceInfo = app.WorkspaceInfo;
export type WorkspaceState = app.WorkspaceState;
export type CheckTask = app.CheckTask;
export type CheckReportChoice = app.CheckReportChoice;
export type CheckProgress = app.CheckProgress;
export type CheckNotice = app.CheckNotice;
export type CheckRun = app.CheckRun;
export type LinkCheck = app.LinkCheck;
export type CheckHop = app.CheckHop;
export type CheckReportInfo = app.CheckReportInfo;
export type CheckNewsCounts = app.CheckNewsCounts;
export type CheckReportPage = app.CheckReportPage;
export type AvoidRule = app.AvoidRule;
export type RobotsSite = app.RobotsSite;
export type CheckSettings = app.CheckSettings;
export type CheckSMTP = app.CheckSMTP;
export type CheckImport = app.CheckImport;
export type ReportLink = report.Link;
export type ReportDoc = report.Doc;
export type ReportRef = report.Ref;
export type ReportCounts = report.Counts;
export type NewsItem = report.Item;
export type News = report.News;
export type IndexStatus = app.IndexStatus;
export type RulesCheck = app.RulesCheck;
export type RuleSpan = app.RuleSpan;
export type RuleError = app.RuleError;
export type RulesTest = app.RulesTest;
export type PageRelations = app.PageRelations;
export type GraphData = graph.View;
export type GraphNode = graph.ViewNode;
export type PathResult = graph.PathResult;
export type Hop = graph.Hop;
export type GraphPage = graph.Page;
export type GraphLink = graph.Link;
export type GraphElement = graph.Element;
export type Tree = graph.Tree;
export type Orphans = graph.Orphans;

/** The category values of the webbot's rules, in their order of priority. */
export const ruleValues = ['first', 'next', 'last', 'rejected', 'untested'] as const;
export type RuleValue = (typeof ruleValues)[number];

export type LibPosting = app.LibPosting;
export type LibKnown = app.LibKnown;
export type LibCrumb = app.LibCrumb;
export type LibPage = app.LibPage;
export type Sharing = app.Sharing;
export type LibDetail = app.LibDetail;
export type LibRecent = app.LibRecent;
export type LibInput = app.LibInput;
export type LibEdit = app.LibEdit;
export type LibAdded = app.LibAdded;
export type LibRemoval = app.LibRemoval;
export type LibImport = app.LibImport;
export type LibExport = app.LibExport;
export type LibRendered = app.LibRendered;
export type LibHit = app.LibHit;
export type LibSearchResults = app.LibSearchResults;
export type LibTag = app.LibTag;

/** The kinds of node in the library. */
export type LibKind = 'library' | 'pointer' | 'report' | 'view';

/** The orders a library lists its postings in. */
export const libOrders = ['title', 'date', 'manual'] as const;
export type LibOrder = (typeof libOrders)[number];

/** The crawl scopes the backend understands. */
export const scopes = ['site', 'tree', 'domain', 'list'] as const;
export type Scope = (typeof scopes)[number];

/** Events the backend emits, with their payloads. */
export interface Events {
  'crawl:progress': Crawl;
  'crawl:done': Crawl;
  'workspace:changed': string;
  'workspace:state': WorkspaceState;
  'check:progress': CheckProgress;
  'check:done': CheckProgress;
  'index:progress': IndexStatus;
  'index:done': IndexStatus;
  'library:changed': string;
  'archive:job': ArchiveJob;
  'source:progress': PullProgress;
  'source:done': PullProgress;
  'capture:paired': CaptureClient;
}

/** What a pull did (exchange.ImportReport; only sent in 'source:done'). */
export interface PullReport {
  sourceId: number;
  crawlId: number;
  gatherer?: string;
  templates: number;
  applied: number;
  unchanged: number;
  older: number;
  bytes: number;
  wireBytes?: number;
  seconds: number;
}

/** How far a pull from a source has gone (app.PullProgress; only sent as an event). */
export interface PullProgress {
  sourceId: number;
  phase: string;
  templates: number;
  total: number;
  bytes: number;
  applied: number;
  seconds: number;
  report?: PullReport;
  error?: string;
}

/** The task types: MOMspider's Site, Tree and Owner, and a library subtree. */
export const taskTypes = ['site', 'tree', 'owner', 'library'] as const;
export type TaskType = (typeof taskTypes)[number];

/** The verdicts of a link check, most serious first. */
export const verdicts = [
  'broken',
  'server_error',
  'timeout',
  'invalid',
  'fragment_missing',
  'blocked',
  'rate_limited',
  'robots_excluded',
  'offline',
  'redirected',
  'ok',
] as const;
export type Verdict = (typeof verdicts)[number];

// Capture from the browser (issue 27): the extension's pairing and the add form.
export type CaptureInfo = app.CaptureInfo;
export type CaptureClient = app.CaptureClient;
export type PairingCode = app.PairingCode;
export type LibChoice = app.LibChoice;

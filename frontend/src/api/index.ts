// The frontend's only door to the backend: typed wrappers over the generated Wails
// bindings and runtime. Features import this module, never wailsjs.
import * as App from '../../wailsjs/go/app/App';
import * as runtime from '../../wailsjs/runtime/runtime';
import { doorToken } from './door';
import type {
  ArchiveFormat, ArchiveJob, RetentionInfo, ExchangeToken, Source,
  Crawl, CrawlPages, CrawlRequest, DocumentType, Events, GraphData, IndexStatus, LibAdded, LibDetail, LibEdit, LibExport, LibImport,
  LibInput, LibPage, LibPosting, LibRecent, LibRemoval, LibRendered, LibSearchResults, LibTag, LinkInfo, OfflineCopy, Orphans, Sharing,
  FacetResults, Page, PageDiff, PageRelations, PageVersion, PathResult, RulesCheck, RulesTest, Screenshot, SearchResults, Settings, Status, Tree, View, ViewResults,
  WorkspaceInfo, WorkspaceState,
} from './types';

export * from './types';
export * from './check';
export * from './door';
export * from './capture';

/** An error from the backend (or from a missing bridge), with an optional machine code. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  constructor(message: string, code: ErrorCode = 'internal') {
    super(message);
    this.name = 'ApiError';
    this.code = code;
  }
}

/** Error codes the backend sends (app/errors.go); anything else arrives as 'internal'. */
export const errorCodes = ['invalid', 'not-found', 'conflict', 'forbidden', 'rate-limited', 'sign-in', 'internal', 'unavailable'] as const;
export type ErrorCode = (typeof errorCodes)[number];

function codeOf(v: unknown): ErrorCode {
  return errorCodes.includes(v as ErrorCode) ? (v as ErrorCode) : 'internal';
}

/**
 * Turns whatever a rejected binding call carries into an ApiError. Bound methods fail with
 * the message {"code": ..., "message": ...} as JSON text (Wails passes errors as strings).
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof Error) return toApiError(err.message);
  if (typeof err === 'string') {
    if (err.startsWith('{')) {
      try {
        const parsed: unknown = JSON.parse(err);
        if (parsed && typeof parsed === 'object' && typeof (parsed as { message?: unknown }).message === 'string') {
          return toApiError(parsed);
        }
      } catch {
        // not JSON: the text itself is the message
      }
    }
    return new ApiError(err);
  }
  if (err && typeof err === 'object') {
    const o = err as Record<string, unknown>;
    const message = typeof o.message === 'string' ? o.message : JSON.stringify(o);
    return new ApiError(message, codeOf(o.code));
  }
  return new ApiError(String(err));
}

/** Reports whether the Wails bridge (window.go) is present. */
export function connected(): boolean {
  const w = globalThis as { go?: { app?: { App?: unknown } } };
  return !!w.go?.app?.App;
}

/** Calls a binding, turning its failures into ApiErrors (for the other modules of src/api). */
export async function call<T>(f: () => Promise<T>): Promise<T> {
  if (!connected()) throw new ApiError('not connected to the Mundaneum backend', 'unavailable');
  try {
    return await f();
  } catch (err) {
    throw toApiError(err);
  }
}

/** The values a new crawl starts from: the CLI's defaults with the workspace's settings. */
export function crawlDefaults(): Promise<CrawlRequest> {
  return call(() => App.CrawlDefaults());
}

/** The document types a crawl can download (PDF, feeds, archives...), with the defaults. */
export function documentTypes(): Promise<DocumentType[]> {
  return call(() => App.DocumentTypes());
}

/** Opens a page's offline PDF in the system's PDF viewer (desktop only). */
export function openDocument(pageId: number): Promise<void> {
  return call(() => App.OpenDocument(pageId));
}

/** Reports whether the app runs in a browser, through mundaneum serve's front door. */
export function inBrowser(): boolean {
  return doorToken() !== '';
}

/**
 * In a browser (mundaneum serve): opens a page's offline PDF in a tab of its own, where the
 * browser's PDF viewer shows it, sandboxed. The tab's address holds a short-lived ticket to
 * that one PDF, never the front door's token.
 */
export async function openDocumentTab(pageId: number): Promise<void> {
  const r = await fetch(`/files/document?id=${pageId}`, { method: 'POST', headers: { 'X-Mundaneum-Token': doorToken() } });
  let body: unknown = null;
  try {
    body = await r.json();
  } catch {
    body = null;
  }
  const url = (body as { url?: unknown } | null)?.url;
  if (!r.ok || typeof url !== 'string' || !url.startsWith('/document?ticket=')) {
    throw new Error(JSON.stringify(r.ok || !body ? { code: 'internal', message: `the PDF could not be opened (${r.status})` } : body));
  }
  const a = document.createElement('a');
  a.href = url;
  a.target = '_blank';
  a.rel = 'noopener noreferrer';
  a.click();
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
  return (await call(() => App.Crawls())) ?? [];
}

/** Runs a search query: one page of results, with facet counts when asked, and with the
 * first page the library's postings that match. */
export async function search(query: string, limit = 50, offset = 0, facets = false): Promise<SearchResults> {
  const r = await call(() => App.Search({ query, limit, offset, facets }));
  return { ...r, results: r.results ?? [], facets: r.facets ?? {}, library: libHits(r.library) };
}

/** Counts a query's matches by host, type, crawl and status, without ranking them (the
 * window asks once the results are shown). */
export async function searchFacets(query: string): Promise<FacetResults> {
  const r = await call(() => App.SearchFacets(query));
  return { ...r, facets: r.facets ?? {} };
}

/** Everything known about one page, with its first links in and out. */
export async function page(id: number): Promise<Page> {
  const p = await call(() => App.Page(id));
  return { ...p, problems: p.problems ?? [], linksOut: p.linksOut ?? [], linksIn: p.linksIn ?? [], screenshots: p.screenshots ?? [] };
}

/**
 * A screenshot of a rendered version (kind: viewport or full) as a data: URL: the
 * browser's picture of the page, for an <img> (nothing in it runs).
 */
export async function screenshot(versionId: number, kind: string): Promise<Screenshot> {
  const s = await call(() => App.Screenshot(versionId, kind));
  if (!/^data:image\/(jpeg|png|webp);base64,/.test(s.dataUrl)) throw new ApiError('not an image', 'internal');
  return s;
}

/** A crawl's pages, optionally only those in one state, with why each failed or was skipped. */
export async function crawlPages(crawlId: number, state = '', offset = 0, limit = 100): Promise<CrawlPages> {
  const r = await call(() => App.CrawlPages(crawlId, state, offset, limit));
  return { ...r, pages: r.pages ?? [] };
}

/**
 * A page's offline copy: `document` is a sanitised standalone document (no scripts, a CSP
 * that loads nothing) for an iframe with an empty `sandbox` attribute; `text` is the
 * extracted text. Never insert either into the app's own DOM as HTML.
 */
export function offlineCopy(id: number): Promise<OfflineCopy> {
  return call(() => App.OfflineCopy(id));
}

/** The versions of a page (every content it had), oldest first. */
export async function pageVersions(pageId: number): Promise<PageVersion[]> {
  return (await call(() => App.PageVersions(pageId))) ?? [];
}

/**
 * A word diff of two versions' extracted text (fromId 0: the version before toId; toId 0:
 * the newest). Its pieces are text: render them as text, never as HTML.
 */
export async function comparePageVersions(pageId: number, fromId: number, toId: number, full = false): Promise<PageDiff> {
  const d = await call(() => App.ComparePageVersions(pageId, fromId, toId, full));
  return { ...d, ops: d.ops ?? [] } as PageDiff;
}

/** One version's offline copy, sanitised as offlineCopy's. */
export function versionCopy(versionId: number): Promise<OfflineCopy> {
  return call(() => App.VersionCopy(versionId));
}

/** What the workspace holds of an http(s) address: the page a link to it opens, if any. */
export function linkTarget(url: string): Promise<LinkInfo> {
  return call(() => App.LinkTarget(url));
}

/** The archive formats crawls go out and come in as (warc, wwww). */
export async function archiveFormats(): Promise<ArchiveFormat[]> {
  return (await call(() => App.ArchiveFormats())) ?? [];
}

/** Starts writing a crawl (0: the whole workspace) to a file; the job reports as 'archive:job'. */
export function startExport(crawlId: number, format: string, path: string): Promise<ArchiveJob> {
  return call(async () => job(await App.StartExport(crawlId, format, path)));
}

/** Starts reading a WARC file or WWWW archive into the workspace; the job reports as 'archive:job'. */
export function startImport(path: string): Promise<ArchiveJob> {
  return call(async () => job(await App.StartImport(path)));
}

/** Stops an import or export job: the pages it committed stay, a partial export goes. */
export function cancelArchiveJob(id: number): Promise<void> {
  return call(() => App.CancelArchiveJob(id));
}

/** The imports and exports, running and recently ended, newest first. */
export async function archiveJobs(): Promise<ArchiveJob[]> {
  return ((await call(() => App.ArchiveJobs())) ?? []).map(job);
}

/** The window's file dialogs for an import or an export ('' when the user cancels). */
export function chooseImportFile(): Promise<string> {
  return call(() => App.ChooseImportFile());
}
export function chooseExportFile(crawlId: number, format: string): Promise<string> {
  return call(() => App.ChooseExportFile(crawlId, format));
}

/** An archive job as events and calls bring it, with its lists never null. */
export function job(j: ArchiveJob): ArchiveJob {
  return j.import ? { ...j, import: { ...j.import, problems: j.import.problems ?? [] } } : j;
}

/**
 * In a browser (mundaneum serve): uploads a file to import, streaming it with its progress
 * (bytes sent) reported to onprogress; resolves to the import job once the upload is in.
 */
export function uploadArchive(file: File, onprogress: (sent: number, total: number) => void, signal?: AbortSignal): Promise<ArchiveJob> {
  return new Promise((resolve, reject) => {
    const x = new XMLHttpRequest();
    x.open('POST', `/files/import?name=${encodeURIComponent(file.name)}`);
    x.setRequestHeader('X-Mundaneum-Token', doorToken());
    x.setRequestHeader('Content-Type', 'application/octet-stream');
    x.upload.onprogress = (e) => onprogress(e.loaded, e.lengthComputable ? e.total : file.size);
    x.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(x.responseText);
      } catch {
        body = null;
      }
      if (x.status >= 200 && x.status < 300 && body) resolve(job(body as ArchiveJob));
      else reject(new Error(JSON.stringify(body ?? { code: 'internal', message: `upload failed (${x.status})` })));
    };
    x.onerror = () => reject(new Error(JSON.stringify({ code: 'unavailable', message: 'the upload was cut off' })));
    x.onabort = () => reject(new Error(JSON.stringify({ code: 'unavailable', message: 'the upload was cancelled' })));
    signal?.addEventListener('abort', () => x.abort());
    x.send(file);
  });
}

/** In a browser (mundaneum serve): the address that downloads an export as it is written. */
export function exportDownloadURL(crawlId: number, format: string): string {
  return `/files/export?format=${encodeURIComponent(format)}&crawl=${crawlId}&token=${encodeURIComponent(doorToken())}`;
}

/** The workspace's retention of page versions (crawlId 0) or a crawl's, with its disk. */
export function retention(crawlId: number): Promise<RetentionInfo> {
  return call(() => App.Retention(crawlId));
}

/** Sets and applies a retention: all, last (with last), none, or for a crawl default. */
export function setRetention(crawlId: number, keep: string, last: number): Promise<RetentionInfo> {
  return call(() => App.SetRetention(crawlId, keep, last));
}

/** The read-only tokens issued to other instances (never their secrets). */
export async function exchangeTokens(): Promise<ExchangeToken[]> {
  return (await call(() => App.ExchangeTokens())) ?? [];
}

/** Issues a token for name: its secret is in the answer, and only there. */
export function issueExchangeToken(name: string): Promise<ExchangeToken> {
  return call(() => App.IssueExchangeToken(name));
}

/** Revokes a token: pulls with it are refused from now on. */
export function revokeExchangeToken(id: number): Promise<void> {
  return call(() => App.RevokeExchangeToken(id));
}

/** The instances and SOIF files summaries came from. */
export async function sources(): Promise<Source[]> {
  return (await call(() => App.Sources())) ?? [];
}

/** Adds another instance (the address its serve prints) with the token it issued. */
export function addSource(url: string, token: string): Promise<Source> {
  return call(() => App.AddSource(url, token));
}

/** Forgets a source; its pages stay, no longer marked. */
export function removeSource(id: number): Promise<void> {
  return call(() => App.RemoveSource(id));
}

/** Starts a pull; progress comes as 'source:progress', the outcome as 'source:done'. */
export function pullSource(id: number): Promise<void> {
  return call(() => App.PullSource(id));
}

/** Stops a pull under way (nothing unchecked is applied; the cursor stays). */
export function cancelPull(id: number): Promise<void> {
  return call(() => App.CancelPull(id));
}

/** Parses rule text: its highlighting, and its canonical form or its error (line, column). */
export async function checkRules(text: string): Promise<RulesCheck> {
  const r = await call(() => App.CheckRules(text));
  return { ...r, spans: r.spans ?? [] };
}

/** What rules make of a URL (a crawled page with its stored fields), and which atom decided. */
export function testRules(text: string, url: string): Promise<RulesTest> {
  return call(() => App.TestRules(text, url));
}

/** The picture of a crawl: up to limit visited pages with tree parents, and their links. */
export async function graphView(crawlId: number, limit: number): Promise<GraphData> {
  const v = await call(() => App.GraphView(crawlId, limit));
  return { ...v, nodes: v.nodes ?? [], edges: v.edges ?? [] };
}

/** A shortest path between two pages (either way: degrees of separation) and the path counts. */
export async function graphPath(fromId: number, toId: number, undirected: boolean): Promise<PathResult> {
  const r = await call(() => App.GraphPath(fromId, toId, undirected));
  return { ...r, path: r.path ?? [] };
}

/** A page's links both ways, the elements that reached it, its click depth. */
export async function graphLinks(pageId: number, limit = 50): Promise<PageRelations> {
  const r = await call(() => App.GraphLinks(pageId, limit));
  return {
    ...r,
    links: { ...r.links, out: r.links.out ?? [], in: r.links.in ?? [] },
    elements: r.elements ?? [],
    clickDepth: { ...r.clickDepth, path: r.clickDepth.path ?? [] },
  };
}

/** A crawl's tree of elements, or the tree rule text generates over the stored links. */
export async function graphTree(crawlId: number, rules: string, limit: number): Promise<Tree> {
  const t = await call(() => App.GraphTree(crawlId, rules, limit));
  return { ...t, elements: t.elements ?? [] };
}

/** Pages of a crawl (0: the workspace) that no other page links to. */
export async function orphans(crawlId: number, limit = 100): Promise<Orphans> {
  const o = await call(() => App.Orphans(crawlId, limit));
  return { ...o, pages: o.pages ?? [] };
}

/** Returns the workspace's counts. */
export function status(): Promise<Status> {
  return call(() => App.Status());
}

/** Says how far behind the workspace its search index is. */
export function indexStatus(): Promise<IndexStatus> {
  return call(() => App.IndexStatus());
}

/** Starts rebuilding the search index from the stored pages (IndexStatus follows it). */
export function rebuildIndex(): Promise<void> {
  return call(() => App.RebuildIndex());
}

function hasRuntime(): boolean {
  return !!(globalThis as { runtime?: unknown }).runtime;
}

/**
 * Subscribes to a backend event and returns the unsubscribe function. Without the Wails
 * runtime (unit tests, a plain browser) it subscribes to nothing.
 */
export function onEvent<K extends keyof Events>(name: K, cb: (payload: Events[K]) => void): () => void {
  if (!hasRuntime()) return () => {};
  return runtime.EventsOn(name, (payload: Events[K]) => {
    if (payload && typeof payload === 'object') cb(payload);
  });
}

const maxURLLength = 8192;

/**
 * Returns the canonical form of raw if it is an absolute http(s) URL that may be handed to
 * the system browser, or null for anything else (javascript:, file:, data:, relative...).
 */
export function safeExternalURL(raw: string): string | null {
  if (typeof raw !== 'string' || raw.length > maxURLLength) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(raw)) return null;
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (!u.hostname) return null;
  return u.href;
}

/**
 * Opens url in the system browser if it is http(s); returns whether it did. Nothing ever
 * navigates the app's own window to crawled content.
 */
export function openExternal(url: string): boolean {
  const safe = safeExternalURL(url);
  if (safe === null || !hasRuntime()) return false;
  runtime.BrowserOpenURL(safe);
  return true;
}

/** Sets the native window's background to match the page's colour scheme. */
export function setWindowBackground(dark: boolean): void {
  if (!hasRuntime()) return;
  if (dark) runtime.WindowSetBackgroundColour(28, 28, 30, 255);
  else runtime.WindowSetBackgroundColour(250, 249, 246, 255);
}

/** The saved views (standing queries), by name. */
export async function views(): Promise<View[]> {
  return (await call(() => App.Views())) ?? [];
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
    results: { ...r.results, results: r.results.results ?? [], facets: r.results.facets ?? {}, library: libHits(r.results.library) },
  };
}

/** The workspace's settings. */
export function settings(): Promise<Settings> {
  return call(() => App.Settings());
}

/** Checks and stores the workspace's settings. */
export function saveSettings(s: Settings): Promise<Settings> {
  return call(() => App.SaveSettings(s));
}

/** What serve --public lets in: whether the owner's password is set, what guests may do. */
export function sharing(): Promise<Sharing> {
  return call(() => App.Sharing());
}

/** Sets the owner's password of serve --public (changing one needs the current one). */
export function setOwnerPassword(current: string, next: string): Promise<void> {
  return call(() => App.SetOwnerPassword(current, next));
}

/** Sets what the guests of serve --public may do: 'none' or 'read'. */
export function setGuestAccess(level: 'none' | 'read'): Promise<Sharing> {
  return call(() => App.SetGuestAccess(level));
}

/**
 * Whether the window's workspace is open, and if not who holds it or why it could not be
 * opened. The app asks it first; it answers once the backend's first attempt ended.
 */
export function workspaceState(): Promise<WorkspaceState> {
  return call(() => App.WorkspaceState());
}

/** Describes the open workspace. */
export function workspace(): Promise<WorkspaceInfo> {
  return call(() => App.Workspace());
}

/** Asks for a workspace file with the native dialog ("" when cancelled; desktop only). */
export function chooseWorkspace(create: boolean): Promise<string> {
  return call(() => App.ChooseWorkspace(create));
}

/** Switches to another workspace (create: a new one); emits "workspace:changed". */
export function openWorkspace(path: string, create: boolean): Promise<WorkspaceInfo> {
  return call(() => App.OpenWorkspace(path, create));
}

// --- the virtual library ---------------------------------------------------------------

function posting(p: LibPosting): LibPosting {
  return { ...p, tags: p.tags ?? [] };
}

function libHits(r: LibSearchResults | null | undefined): LibSearchResults {
  if (!r) return { total: 0, totalApprox: false, hits: [], note: '', tookMs: 0 } as LibSearchResults;
  return { ...r, hits: (r.hits ?? []).map((h) => ({ ...h, tags: h.tags ?? [], snippet: h.snippet ?? [] })) } as LibSearchResults;
}

/** The root library's id. */
export const rootLibrary = 1;

/** A library's page: header, breadcrumbs, sub-libraries and postings offset..offset+limit. */
export async function libraryPage(id: number, order = '', offset = 0, limit = 200): Promise<LibPage> {
  const p = await call(() => App.LibraryPage(id, order, offset, limit));
  return {
    ...p,
    library: posting(p.library),
    crumbs: p.crumbs ?? [],
    libraries: (p.libraries ?? []).map(posting),
    postings: (p.postings ?? []).map(posting),
  } as LibPage;
}

/** The id of the node at a library path ("/Computing/Go"). */
export function libraryResolve(path: string): Promise<number> {
  return call(() => App.LibraryResolve(path));
}

/** One posting, with its place, picture and (a report) its rendering. */
export async function libraryPosting(id: number): Promise<LibDetail> {
  const d = await call(() => App.LibraryPosting(id));
  return { ...d, posting: posting(d.posting), crumbs: d.crumbs ?? [], links: d.links ?? [] } as LibDetail;
}

/** Everything at or below a library, newest first. */
export async function libraryRecent(id: number, offset = 0, limit = 100): Promise<LibRecent> {
  const r = await call(() => App.LibraryRecent(id, offset, limit));
  return { ...r, postings: (r.postings ?? []).map(posting) } as LibRecent;
}

/** Fills in what a LibInput leaves out. */
export function libInput(p: Partial<LibInput>): LibInput {
  return {
    title: '', url: '', notes: '', body: '', tags: [], purpose: '', createOnly: false, order: '', image: '', view: '',
    author: '', email: '', password: '', libraryPassword: '', ...p,
  } as LibInput;
}

/** Creates a sub-library. */
export function libraryCreate(parent: number, input: Partial<LibInput>): Promise<LibPosting> {
  return call(() => App.LibraryCreate(parent, libInput(input)));
}

/** Adds a pointer; a URL already in that library is refused ("conflict"). */
export function libraryPoint(parent: number, input: Partial<LibInput>): Promise<LibAdded> {
  return call(() => App.LibraryPoint(parent, libInput(input)));
}

/** Writes a report. */
export function libraryReport(parent: number, input: Partial<LibInput>): Promise<LibPosting> {
  return call(() => App.LibraryReport(parent, libInput(input)));
}

/** Places a saved view in a library (libraryPassword: a protected library's). */
export function libraryPlaceView(parent: number, view: string, title = '', libraryPassword = ''): Promise<LibPosting> {
  return call(() => App.LibraryPlaceView(parent, libInput({ view, title, libraryPassword })));
}

/** A LibEdit with every field left as it is. */
export function libEdit(e: Partial<LibEdit>): LibEdit {
  return {
    title: null, url: null, notes: null, body: null, tags: null, purpose: null, createOnly: null, order: null,
    image: '', clearImage: false, author: null, email: null, newPassword: null, openToGuests: null, ...e,
  } as unknown as LibEdit;
}

/** Changes a library or posting; a protected one needs its password ("forbidden" otherwise). */
export function libraryEdit(id: number, e: Partial<LibEdit>, password = ''): Promise<LibPosting> {
  return call(() => App.LibraryEdit(id, libEdit(e), password));
}

/** Takes a pointer's permanent redirect: its URL becomes the new address, the old one an alias (undoable). */
export function libraryAcceptRedirect(id: number, password = ''): Promise<LibPosting> {
  return call(() => App.LibraryAcceptRedirect(id, password));
}

/** What deleting ids would remove. */
export function libraryPreviewDelete(ids: number[]): Promise<LibRemoval> {
  return call(() => App.LibraryPreviewDelete(ids));
}

/** Deletes postings (libraries with everything below). */
export function libraryDelete(ids: number[], password = ''): Promise<LibRemoval> {
  return call(() => App.LibraryDelete(ids, password));
}

/** Moves postings into dest at position (-1: the end). */
export function libraryMove(ids: number[], dest: number, position = -1, password = ''): Promise<void> {
  return call(() => App.LibraryMove(ids, dest, position, password));
}

/** Copies postings into dest at position (-1: the end). */
export async function libraryCopy(ids: number[], dest: number, position = -1, password = ''): Promise<LibPosting[]> {
  return ((await call(() => App.LibraryCopy(ids, dest, position, password))) ?? []).map(posting);
}

/** Takes back the last change; says what it was. */
export function libraryUndo(password = ''): Promise<string> {
  return call(() => App.LibraryUndo(password));
}

/** Makes again the change the last undo took back; says what it was. */
export function libraryRedo(password = ''): Promise<string> {
  return call(() => App.LibraryRedo(password));
}

/** Imports the text of a file of links (bookmarks, JSON tree, or a list) into a library. */
export async function libraryImport(parent: number, text: string, author = '', password = ''): Promise<LibImport> {
  const r = await call(() => App.LibraryImport(parent, text, author, password));
  return { ...r, problems: r.problems ?? [] } as LibImport;
}

/** Exports a library as "netscape" or "json": the file's content. */
export function libraryExport(id: number, format: string): Promise<LibExport> {
  return call(() => App.LibraryExport(id, format));
}

/** Exports a library to a file chosen with the native dialog (desktop only). */
export function libraryExportFile(id: number, format: string): Promise<string> {
  return call(() => App.LibraryExportFile(id, format));
}

/** Searches the library (in: a library to search within, 0 for all). */
export async function librarySearch(query: string, inLibrary = 0, offset = 0, limit = 50): Promise<LibSearchResults> {
  return libHits(await call(() => App.LibrarySearch(query, inLibrary, offset, limit)));
}

/** Renders Markdown as a report would show: a sanitised document for a sandboxed frame. */
export async function libraryPreview(title: string, markdown: string): Promise<LibRendered> {
  const r = await call(() => App.LibraryPreview(title, markdown));
  return { ...r, links: r.links ?? [] } as LibRendered;
}

/** The library's tags, most used first. */
export async function libraryTags(): Promise<LibTag[]> {
  return (await call(() => App.LibraryTags())) ?? [];
}

/** Crawls from a pointer or every pointer of a library ("crawl from here"). */
export function libraryCrawl(id: number, scope = 'tree', maxPages = 0): Promise<Crawl> {
  return call(() => App.LibraryCrawl(id, scope, maxPages));
}

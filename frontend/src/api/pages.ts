// One page: what is known of it, its offline copy, its versions and its documents.
// Part of src/api, the only code that touches the generated bindings.
import * as App from '../../wailsjs/go/app/App';
import { ApiError, call } from './call';
import { doorToken } from './door';
import type { LinkInfo, OfflineCopy, Page, PageDiff, PageVersion, Screenshot } from './types';

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

/** Everything known about one page, with its first links in and out. */
export async function page(id: number): Promise<Page> {
  return call(() => App.Page(id));
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
  return call(() => App.PageVersions(pageId));
}

/**
 * A word diff of two versions' extracted text (fromId 0: the version before toId; toId 0:
 * the newest). Its pieces are text: render them as text, never as HTML.
 */
export async function comparePageVersions(pageId: number, fromId: number, toId: number, full = false): Promise<PageDiff> {
  return (await call(() => App.ComparePageVersions(pageId, fromId, toId, full))) as PageDiff;
}

/** One version's offline copy, sanitised as offlineCopy's. */
export function versionCopy(versionId: number): Promise<OfflineCopy> {
  return call(() => App.VersionCopy(versionId));
}

/** What the workspace holds of an http(s) address: the page a link to it opens, if any. */
export function linkTarget(url: string): Promise<LinkInfo> {
  return call(() => App.LinkTarget(url));
}

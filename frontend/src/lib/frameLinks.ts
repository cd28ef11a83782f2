// What a click on a link in an offline copy (or a report) asks the app to do. The copy is
// hostile: of a link the app reads only the marks the backend put on it after sanitising
// (data-mundaneum-*: numbers and an id) and its address, which must be http(s). Nothing of
// the copy's markup is ever copied into the app.

/** A link the app opens itself. */
export type FrameLink =
  /** A page the workspace holds: its page view (that version, scrolled to fragment). */
  | { kind: 'page'; page: number; version: number; fragment: string; url: string }
  /** An id within the document itself: scroll to it. */
  | { kind: 'anchor'; id: string }
  /** A page the workspace lacks (known: its page when the workspace knows of it). */
  | { kind: 'missing'; url: string; known: number; text: string };

/** The one method of an element the reading needs (a link inside the frame's document). */
export interface MarkedLink {
  getAttribute(name: string): string | null;
  readonly textContent: string | null;
}

const idPattern = /^[1-9]\d{0,14}$/;

function id(v: string | null): number {
  return v !== null && idPattern.test(v) ? Number(v) : 0;
}

function httpURL(raw: string | null): URL | null {
  if (raw === null || raw.length > 8192) return null;
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return null;
  }
  return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname ? u : null;
}

/** Reads a link of the frame: what the app does with a click on it (null: nothing). */
export function frameLink(a: MarkedLink): FrameLink | null {
  const anchor = a.getAttribute('data-mundaneum-anchor');
  if (anchor !== null && anchor !== '' && anchor.length <= 512) return { kind: 'anchor', id: anchor };
  const u = httpURL(a.getAttribute('href'));
  if (u === null) return null;
  const page = id(a.getAttribute('data-mundaneum-page'));
  if (page > 0) {
    const fragment = decodeFragment(u.hash);
    return { kind: 'page', page, version: id(a.getAttribute('data-mundaneum-version')), fragment, url: u.href };
  }
  if (a.getAttribute('data-mundaneum-missing') !== null) {
    const text = (a.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 300);
    return { kind: 'missing', url: u.href, known: id(a.getAttribute('data-mundaneum-known')), text };
  }
  return null;
}

function decodeFragment(hash: string): string {
  const f = hash.startsWith('#') ? hash.slice(1) : hash;
  if (f.length > 512) return '';
  try {
    return decodeURIComponent(f);
  } catch {
    return f;
  }
}

/** The element a click landed in, up to its link (null: not in a link). */
export function linkOf(target: EventTarget | null): (Element & MarkedLink) | null {
  const el = target as { closest?: (sel: string) => Element | null } | null;
  if (!el || typeof el.closest !== 'function') return null;
  return el.closest('a[href]') as (Element & MarkedLink) | null;
}

/** The element an anchor names in a document: its id, else the first <a name> of it. */
export function anchorTarget(doc: Document, name: string): Element | null {
  if (name === '') return null;
  return doc.getElementById(name) ?? doc.getElementsByName(name)[0] ?? null;
}

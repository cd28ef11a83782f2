// Pure helpers of the library views: paths, what the crawler knows, tags, what a delete
// removes, where a dragged posting lands.
import type { LibImport, LibKnown, LibRemoval } from '../api';
import { ago } from './format';
import { reasonText } from './wording';

/** The library's field limits, as backend/library/fields.go keeps them (a Go test checks
 * they agree): the forms' `maxlength`, so that a field stops where the library would refuse
 * it. maxlength counts UTF-16 units; the byte limits (address, notes, text, password) may
 * still refuse text of many non-ASCII letters, and then say so. */
export const libLimits = {
  title: 1000,
  url: 8192,
  /** The tags line: 32 tags of up to 100 characters, with ", " between them (32 × 102). */
  tags: 3264,
  notes: 65536,
  body: 1048576,
  author: 200,
  email: 254,
  password: 1024,
  path: 8192,
} as const;

/** Writes a title as a path segment ("TCP/IP" -> "TCP\/IP"), as the backend reads paths. */
export function escapeTitle(t: string): string {
  const s = t.replace(/\\/g, '\\\\').replace(/\//g, '\\/');
  return s.startsWith('#') ? `\\${s}` : s;
}

/** The path of a child titled title of the library at parent. */
export function childPath(parent: string, title: string): string {
  return `${parent === '/' ? '' : parent}/${escapeTitle(title)}`;
}

/** Says what the crawler knows of a pointer's page, in a few words (copy: say whether an
 * offline copy is stored; a view that links to it says so itself). */
export function knownLabel(k: LibKnown | null | undefined, now = Date.now(), copy = true): string {
  if (!k) return 'not in the workspace';
  const parts: string[] = [];
  if (k.state === 'fetched') parts.push(k.status ? `fetched ${k.status}` : 'fetched');
  else if (k.state === 'failed' && k.reason) parts.push(`failed: ${reasonText(k.reason, k.status)}`);
  else if (k.state === 'failed') parts.push(k.status ? `failed ${k.status}` : 'failed');
  else if (k.state === 'skipped' && k.reason) parts.push(`skipped: ${reasonText(k.reason, k.status)}`);
  else parts.push(k.state || 'known');
  if (k.fetchedAt) parts.push(ago(k.fetchedAt, now));
  if (k.copy && copy) parts.push('offline copy');
  return parts.join(' · ');
}

/** How healthy a pointer's page looks: for the colour of its status. */
export function knownTone(k: LibKnown | null | undefined): 'ok' | 'bad' | 'none' {
  if (!k) return 'none';
  if (k.state === 'failed' || k.status >= 400) return 'bad';
  return k.state === 'fetched' ? 'ok' : 'none';
}

/** Splits what a user types into tags (commas separate them). */
export function parseTags(s: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const t of s.split(',')) {
    const tag = t.trim().replace(/\s+/g, ' ');
    if (tag && !seen.has(tag.toLowerCase())) {
      seen.add(tag.toLowerCase());
      out.push(tag);
    }
  }
  return out;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Says what a delete removes: "“Go” and everything in it: 1 library, 4 pointers". */
export function removalText(r: LibRemoval): string {
  const what = r.titles.length === 1 ? `“${r.titles[0]}”` : plural(r.titles.length, 'posting');
  const parts: string[] = [];
  if (r.libraries) parts.push(plural(r.libraries, 'library', 'libraries'));
  if (r.pointers) parts.push(plural(r.pointers, 'pointer'));
  if (r.reports) parts.push(plural(r.reports, 'report'));
  if (r.views) parts.push(plural(r.views, 'view'));
  const total = r.libraries + r.pointers + r.reports + r.views;
  const below = total > r.titles.length ? ' and everything in it' : '';
  return `${what}${below}: ${parts.join(', ')}`;
}

/** Says what an import did, in sentences whose counts agree with their nouns ("1 library",
 * "1 is elsewhere"). */
export function importText(r: LibImport): string[] {
  const total = r.libraries + r.pointers + r.reports + r.views;
  const parts = [plural(r.libraries, 'library', 'libraries'), plural(r.pointers, 'pointer')];
  if (r.reports) parts.push(plural(r.reports, 'report'));
  if (r.views) parts.push(plural(r.views, 'view'));
  const out = [`Imported ${total} from a ${r.format} file: ${parts.join(', ')}.`];
  const were = (n: number) => (n === 1 ? 'was' : 'were');
  if (r.merged) out.push(`${plural(r.merged, 'library', 'libraries')} ${were(r.merged)} there already.`);
  if (r.duplicates) out.push(`${plural(r.duplicates, 'link')} ${were(r.duplicates)} in ${r.duplicates === 1 ? 'its' : 'their'} library already and ${r.duplicates === 1 ? 'was' : 'were'} left out.`);
  if (r.elsewhere) out.push(`${r.elsewhere} ${r.elsewhere === 1 ? 'is' : 'are'} elsewhere in the library too.`);
  return out;
}

/**
 * Where a posting dropped on another lands: the position (0 first) among the library's
 * children as shown (without the one dragged), before or after the target.
 */
export function dropPosition(shown: number[], dragged: number, target: number, after: boolean): number {
  const rest = shown.filter((id) => id !== dragged);
  const i = rest.indexOf(target);
  if (i < 0) return -1;
  return after ? i + 1 : i;
}

/** Reads a dropped or chosen file as text. */
export function readText(f: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result ?? ''));
    r.onerror = () => reject(r.error ?? new Error('cannot read the file'));
    r.readAsText(f);
  });
}

/** Reads a chosen picture as a data: URL. */
export function readDataURL(f: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result ?? ''));
    r.onerror = () => reject(r.error ?? new Error('cannot read the file'));
    r.readAsDataURL(f);
  });
}

/** A picture the app may show: a data: URL of a raster image (the backend checked it). */
export function safeImage(src: string | null | undefined): string {
  return typeof src === 'string' && /^data:image\/(png|gif|jpeg|webp);base64,[A-Za-z0-9+/=]+$/.test(src) ? src : '';
}

/** Saves text as a file through the browser (the window saves with its own dialog). */
export function download(name: string, content: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a'); // not in the document: the shell's link guard never sees it
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// What the extension keeps (chrome.storage.local, never synced: the token opens the
// library): where Mundaneum is, the token it gave this browser, and the libraries pages
// were lately added to.
import { defaultAddress } from './address';
import type { LibraryChoice } from './client';

export interface Settings {
  /** The base of the capture calls, "http://127.0.0.1:7343/". */
  address: string;
  /** This browser's token ("" when not paired). */
  token: string;
  /** The workspace it paired with, and through which door. */
  workspace: string;
  door: 'window' | 'serve' | '';
  /** Whether the toolbar button tells that the page is in the library (it asks Mundaneum about every page opened). */
  badge: boolean;
  /** The libraries pages were added to lately, most recent first. */
  recent: LibraryChoice[];
}

export const defaults: Settings = { address: defaultAddress, token: '', workspace: '', door: '', badge: true, recent: [] };

/** How many recent libraries are kept. */
export const maxRecent = 8;

/** Reads the settings, with the defaults for what is not stored. */
export async function load(): Promise<Settings> {
  const got = await chrome.storage.local.get<Settings>(Object.keys(defaults) as (keyof Settings)[]);
  return { ...defaults, ...got };
}

/** Stores some of the settings. */
export async function save(part: Partial<Settings>): Promise<void> {
  await chrome.storage.local.set(part);
}

/** Puts a library first in the recent list (once), keeping at most maxRecent. */
export function pushRecent(list: readonly LibraryChoice[], c: LibraryChoice): LibraryChoice[] {
  return [{ id: c.id, path: c.path, recent: true }, ...list.filter((r) => r.id !== c.id)].slice(0, maxRecent);
}

/** Forgets a library that no longer exists. */
export function dropRecent(list: readonly LibraryChoice[], id: number): LibraryChoice[] {
  return list.filter((r) => r.id !== id);
}

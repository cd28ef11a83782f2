// The toolbar button of a tab: its badge tells whether the page is in the library.
import { badgeFor, checkable, plain, type Badge } from './badge';
import { Mundaneum } from './client';
import { CaptureError } from './errors';
import { load } from './settings';

async function client(): Promise<{ m: Mundaneum; badge: boolean } | null> {
  const s = await load();
  return s.token ? { m: new Mundaneum(s.address, s.token), badge: s.badge } : null;
}

export async function show(tabId: number, b: Badge): Promise<void> {
  try {
    await chrome.action.setBadgeText({ tabId, text: b.text });
    await chrome.action.setTitle({ tabId, title: b.title });
    if (b.text) await chrome.action.setBadgeBackgroundColor({ tabId, color: b.color });
  } catch {
    // the tab is gone
  }
}

/** Asks Mundaneum whether the page at url is in the library, and shows it on tab's button. */
export async function updateBadge(tabId: number, url: string | undefined): Promise<void> {
  const c = await client();
  if (!c || !c.badge || !checkable(url)) {
    await show(tabId, plain);
    return;
  }
  try {
    await show(tabId, badgeFor(await c.m.status(url)));
  } catch (err) {
    // Mundaneum closed, or this browser unpaired: the button says so, without a badge.
    const why = err instanceof CaptureError && err.code === 'unreachable' ? 'Mundaneum is not running' : 'Mundaneum: ' + String(err instanceof Error ? err.message : err);
    await show(tabId, { ...plain, title: `Add to Mundaneum (${why})` });
  }
}


// The extension's background (a service worker in Chromium, an event page in Firefox): the
// context menu ("Add link to Mundaneum", "Add page to Mundaneum"), and the toolbar
// button's badge, which tells that the page in the tab is in the library, and where.
// Everything it knows is in storage: the browser may stop it between events.
import { checkable } from './badge';
import { Mundaneum } from './client';
import { show, updateBadge } from './tabs';
import { noteOf, readPage } from './page';
import { load, pushRecent, save } from './settings';

const menuLink = 'mundaneum-add-link';
const menuPage = 'mundaneum-add-page';

/** Adds a link or the page to the library lately used (the root at first). */
export async function addFromMenu(info: chrome.contextMenus.OnClickData, tab: chrome.tabs.Tab | undefined): Promise<void> {
  const s = await load();
  const tabId = tab?.id ?? -1;
  if (!s.token) {
    await chrome.runtime.openOptionsPage();
    return;
  }
  const m = new Mundaneum(s.address, s.token);
  const lib = s.recent[0];
  let url = '';
  let title = '';
  let notes = '';
  if (info.menuItemId === menuLink && info.linkUrl) {
    url = info.linkUrl;
    // Firefox tells the link's text; Chromium does not (Mundaneum then takes the stored
    // page's title, or the address).
    title = (info as { linkText?: string }).linkText ?? '';
  } else if (tab?.url) {
    url = tab.url;
    title = tab.title ?? '';
    notes = noteOf(info.selectionText ?? '');
    if (tabId >= 0) {
      try {
        const [r] = await chrome.scripting.executeScript({ target: { tabId }, func: readPage });
        if (r?.result) notes = noteOf(r.result.selection) || notes;
      } catch {
        // a page the extension may not read: the menu's selection text is enough
      }
    }
  }
  if (!checkable(url)) return;
  try {
    const added = await m.add({ url, title, notes, tags: [], libraryId: lib?.id ?? 0, library: lib ? '' : '/', page: null });
    await save({ recent: pushRecent(s.recent, { id: added.place.libraryId, path: added.place.library, recent: true }) });
    if (tabId >= 0) {
      const what = added.existing ? 'Already in' : 'Added to';
      await show(tabId, { text: '+', title: `${what} ${added.place.library}: ${added.place.title}`, color: '#26a269' });
    }
  } catch (err) {
    if (tabId >= 0) await show(tabId, { text: '!', title: `Not added: ${err instanceof Error ? err.message : String(err)}`, color: '#c01c28' });
  }
}

function makeMenus(): void {
  chrome.contextMenus.removeAll(() => {
    chrome.contextMenus.create({ id: menuLink, title: 'Add link to Mundaneum', contexts: ['link'] });
    chrome.contextMenus.create({ id: menuPage, title: 'Add page to Mundaneum', contexts: ['page', 'selection'] });
  });
}

chrome.runtime.onInstalled.addListener((details) => {
  makeMenus();
  // First thing after installing: pairing, which nothing works without.
  if (details.reason === 'install') void chrome.runtime.openOptionsPage();
});
chrome.runtime.onStartup.addListener(makeMenus);
chrome.contextMenus.onClicked.addListener((info, tab) => void addFromMenu(info, tab));

chrome.tabs.onActivated.addListener(({ tabId }) => {
  chrome.tabs.get(tabId).then(
    (t) => updateBadge(tabId, t.url),
    () => {},
  );
});
chrome.tabs.onUpdated.addListener((tabId, change, tab) => {
  if (change.status === 'complete' || change.url !== undefined) void updateBadge(tabId, tab.url);
});

// The popup asks for the badge again after adding; pairing and the badge setting change
// what every tab shows.
chrome.runtime.onMessage.addListener((msg: unknown) => {
  const m = msg as { type?: string; tabId?: number; url?: string };
  if (m?.type === 'badge' && typeof m.tabId === 'number') void updateBadge(m.tabId, m.url);
});
chrome.storage.onChanged.addListener(async (changes) => {
  if (!('token' in changes || 'badge' in changes || 'address' in changes)) return;
  for (const t of await chrome.tabs.query({})) if (t.id !== undefined) await updateBadge(t.id, t.url);
});

// The handlers, on the worker's global object: a debugger (and the end-to-end test) can
// run them as the browser's events do.
Object.assign(globalThis, { mundaneum: { updateBadge, addFromMenu } });

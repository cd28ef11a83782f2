// The popup: add the page in the current tab to a library of Mundaneum, with its title,
// tags and the selected text as notes, and (if asked) the page as the browser shows it.
// Opened from the toolbar button or its shortcut; popup.html?tab=ID acts on tab ID (the
// popup opened in a tab of its own, as a test or a keyboard user may open it).
import { checkable } from './badge';
import { Mundaneum, type LibraryChoice, type Status } from './client';
import { combo } from './combo';
import { mergeLibraries, parseTags, putTag, tagAt } from './complete';
import { advice, CaptureError } from './errors';
import { noteOf, readPage, snapshotPage } from './page';
import { dropRecent, load, pushRecent, save, type Settings } from './settings';
import { updateBadge } from './tabs';

/** The most of a page's DOM sent (Mundaneum takes 16 MiB). */
const maxDOM = 16 * 1024 * 1024 - 64 * 1024;

function el<T extends HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`popup.html lacks #${id}`);
  return e as T;
}

const form = el<HTMLFormElement>('form');
const libraryInput = el<HTMLInputElement>('library');
const titleInput = el<HTMLInputElement>('title');
const tagsInput = el<HTMLInputElement>('tags');
const notesInput = el<HTMLTextAreaElement>('notes');
const shownInput = el<HTMLInputElement>('shown');
const addButton = el<HTMLButtonElement>('add');
const msg = el<HTMLSpanElement>('msg');
const errorBox = el<HTMLParagraphElement>('error');
const where = el<HTMLParagraphElement>('where');

let settings: Settings;
let m: Mundaneum;
let tab: chrome.tabs.Tab;
/** The library picked from the list, while the box still shows its path. */
let chosen: LibraryChoice | null = null;

function fail(text: string) {
  errorBox.textContent = text;
  errorBox.hidden = false;
}

function describe(err: unknown): string {
  return err instanceof CaptureError ? advice(err, settings.address) : String(err instanceof Error ? err.message : err);
}

async function targetTab(): Promise<chrome.tabs.Tab | undefined> {
  const id = Number(new URLSearchParams(location.search).get('tab'));
  if (Number.isInteger(id) && id > 0) return chrome.tabs.get(id);
  const [t] = await chrome.tabs.query({ active: true, currentWindow: true });
  return t;
}

function showWhere(s: Status) {
  where.hidden = false;
  if (s.places.length > 0) {
    where.className = 'where';
    where.textContent = `Already in ${s.places.map((p) => p.library).join(', ')}.`;
  } else {
    where.className = 'where new';
    where.textContent = s.page?.copy ? 'Not in the library yet; Mundaneum has a copy of the page.' : 'Not in the library yet.';
  }
}

function choose(c: LibraryChoice) {
  chosen = c;
  libraryInput.value = c.path;
}

async function init() {
  settings = await load();
  if (!settings.token) {
    el('unpaired').hidden = false;
    el('pair').addEventListener('click', () => void chrome.runtime.openOptionsPage().then(() => window.close()));
    return;
  }
  m = new Mundaneum(settings.address, settings.token);
  el('workspace').textContent = settings.workspace;
  const t = await targetTab();
  if (!t || t.id === undefined || !checkable(t.url)) {
    fail('Only web pages (http and https addresses) can be added to the library.');
    return;
  }
  tab = t;
  titleInput.value = tab.title ?? '';
  try {
    const [r] = await chrome.scripting.executeScript({ target: { tabId: tab.id! }, func: readPage });
    if (r?.result) {
      titleInput.value = r.result.title || titleInput.value;
      notesInput.value = noteOf(r.result.selection);
    }
  } catch {
    // A page the extension may not read (the browser's own, a store): no selection, and
    // it cannot be saved as shown either.
    shownInput.disabled = true;
  }
  const last = settings.recent[0];
  if (last) choose(last);
  else libraryInput.value = '/';
  form.hidden = false;
  addButton.focus();
  try {
    showWhere(await m.status(tab.url!));
  } catch (err) {
    fail(describe(err));
  }
}

combo({
  input: libraryInput,
  list: el<HTMLUListElement>('library-list'),
  suggest: async (input) => {
    const q = input.value === chosen?.path ? '' : input.value.trim();
    const server = await m.libraries(q);
    return mergeLibraries(q, settings.recent, server).map((c) => ({ ...c, label: c.path, note: c.recent ? 'recent' : '' }));
  },
  pick: (s) => choose({ id: s.id, path: s.path, recent: s.recent }),
});

combo({
  input: tagsInput,
  list: el<HTMLUListElement>('tags-list'),
  suggest: async (input) => {
    const word = tagAt(input.value, input.selectionStart ?? input.value.length).word;
    const have = new Set(parseTags(input.value).map((t) => t.toLowerCase()));
    const tags = await m.tags(word);
    return tags.filter((t) => !have.has(t.tag.toLowerCase()) || t.tag.toLowerCase() === word.toLowerCase()).map((t) => ({ ...t, label: t.tag, note: String(t.count) }));
  },
  pick: (s, input) => {
    const r = putTag(input.value, input.selectionStart ?? input.value.length, s.label);
    input.value = r.text;
    input.setSelectionRange(r.caret, r.caret);
  },
});

notesInput.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    form.requestSubmit();
  }
});

form.addEventListener('submit', (e) => {
  e.preventDefault();
  void add();
});

async function add() {
  errorBox.hidden = true;
  msg.className = '';
  msg.textContent = shownInput.checked ? 'Saving the page as shown…' : 'Adding…';
  addButton.disabled = true;
  try {
    let page: { title: string; dom: string } | null = null;
    if (shownInput.checked) {
      const [r] = await chrome.scripting.executeScript({ target: { tabId: tab.id! }, func: snapshotPage });
      if (!r?.result) throw new Error('The page could not be read.');
      if (r.result.dom.length > maxDOM) throw new CaptureError('too-large', 'too large');
      page = { title: r.result.title, dom: r.result.dom };
    }
    const lib = libraryInput.value.trim();
    const byId = chosen !== null && lib === chosen.path;
    const added = await m.add({
      url: tab.url!,
      title: titleInput.value,
      notes: notesInput.value,
      tags: parseTags(tagsInput.value),
      libraryId: byId ? chosen!.id : 0,
      library: byId ? '' : lib || '/',
      page,
    });
    const place = { id: added.place.libraryId, path: added.place.library, recent: true };
    settings.recent = pushRecent(settings.recent, place);
    await save({ recent: settings.recent });
    choose(place);
    let text = added.existing ? `Already in ${added.place.library}: left as it was.` : `Added to ${added.place.library}.`;
    if (added.saved) text += added.saved.changed ? ' The page as shown is saved.' : ' The page as shown was saved already.';
    msg.className = 'ok';
    msg.textContent = text;
    await updateBadge(tab.id!, tab.url);
    showWhere(await m.status(tab.url!));
  } catch (err) {
    msg.textContent = '';
    if (err instanceof CaptureError && err.code === 'not-found' && chosen) {
      settings.recent = dropRecent(settings.recent, chosen.id);
      await save({ recent: settings.recent });
      chosen = null;
    }
    fail(describe(err));
  } finally {
    addButton.disabled = false;
  }
}

void init().catch((err: unknown) => fail(describe(err)));

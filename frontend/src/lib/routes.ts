// The app's routes and their hash form (#/search?q=..., #/page/12, ...): pure functions,
// so that links, history and tests agree on one spelling.

/** The crawl page states the crawl view can filter by ('' is all). */
export const pageStates = ['', 'fetched', 'queued', 'failed', 'skipped', 'redirected'] as const;
export type PageState = (typeof pageStates)[number];

/** Which form of the offline copy a page view shows. */
export type CopyTab = 'text' | 'page' | 'shot';

/** The parts of the maintenance view. */
export const maintTabs = ['tasks', 'check', 'rules', 'sites', 'settings'] as const;
export type MaintTab = (typeof maintTabs)[number];
/** What a library view shows: its postings, or everything below it newest first. */
export type LibTab = 'list' | 'new';

/** The orders a library view may ask for ('' is the library's own). */
export const libOrderParams = ['', 'title', 'date', 'manual'] as const;
export type LibOrderParam = (typeof libOrderParams)[number];

export type Route =
  | { name: 'search'; q: string; page: number; view: string }
  | { name: 'maintenance'; tab: MaintTab }
  | { name: 'report'; id: number; page: number }
  | { name: 'crawls' }
  | { name: 'crawl'; id: number; state: PageState; page: number }
  | { name: 'page'; id: number; copy: CopyTab | ''; since?: string; version?: number; anchor?: string }
  | { name: 'graph'; crawl: number; layout: GraphLayout; color: GraphColor }
  | { name: 'settings' }
  | { name: 'library'; id: number; tab: LibTab; q: string; order: LibOrderParam }
  | { name: 'posting'; id: number }
  | { name: 'add'; url: string; title: string; notes: string };

/** How the graph view lays a crawl out: its tree by family index, or by the links' forces. */
export const graphLayouts = ['tree', 'force'] as const;
export type GraphLayout = (typeof graphLayouts)[number];
/** What the graph view colours pages by. */
export const graphColors = ['host', 'status', 'category'] as const;
export type GraphColor = (typeof graphColors)[number];

function oneOf<T extends string>(v: string | null, all: readonly T[], fallback: T): T {
  return v !== null && (all as readonly string[]).includes(v) ? (v as T) : fallback;
}

export type RouteName = Route['name'];

/** The route of an empty hash: the search view with no query. */
export const home: Route = { name: 'search', q: '', page: 1, view: '' };

const maxPage = 100_000;

function positive(s: string | null, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (s === null || !/^\d{1,15}$/.test(s)) return fallback;
  const n = Number(s);
  return n >= 1 && n <= max ? n : fallback;
}

/** Parses a location hash ("#/crawls/3?state=failed") into a route; unknown ones go home. */
export function parseHash(hash: string): Route {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  const qi = raw.indexOf('?');
  const path = (qi < 0 ? raw : raw.slice(0, qi)).replace(/\/+$/, '');
  const params = new URLSearchParams(qi < 0 ? '' : raw.slice(qi + 1));
  const parts = path.split('/').filter((p) => p !== '');
  switch (parts[0]) {
    case undefined:
    case 'search':
      if (parts.length > 1) return home;
      return {
        name: 'search',
        q: params.get('q') ?? '',
        page: positive(params.get('page'), 1, maxPage),
        view: params.get('view') ?? '',
      };
    case 'crawls': {
      if (parts.length === 1) return { name: 'crawls' };
      const id = positive(parts[1], 0);
      if (parts.length > 2 || id === 0) return { name: 'crawls' };
      const st = params.get('state') ?? '';
      const state = (pageStates as readonly string[]).includes(st) ? (st as PageState) : '';
      return { name: 'crawl', id, state, page: positive(params.get('page'), 1, maxPage) };
    }
    case 'page': {
      const id = parts.length === 2 ? positive(parts[1], 0) : 0;
      if (id === 0) return home;
      const c = params.get('copy');
      const r: Route = { name: 'page', id, copy: c === 'text' || c === 'page' || c === 'shot' ? c : '' };
      // since: a saved view's last opening, for the diff of what changed since.
      const since = params.get('since') ?? '';
      if (since !== '' && !Number.isNaN(Date.parse(since))) r.since = since;
      // v: the version whose copy is shown; at: where in the copy to scroll (an id in it).
      const v = positive(params.get('v'), 0);
      if (v > 0) r.version = v;
      const at = params.get('at') ?? '';
      if (at !== '' && at.length <= 512) r.anchor = at;
      return r;
    }
    case 'settings':
      return { name: 'settings' };
    case 'maintenance': {
      const tab = parts[1] ?? 'tasks';
      if (parts.length > 2 || !(maintTabs as readonly string[]).includes(tab)) return { name: 'maintenance', tab: 'tasks' };
      return { name: 'maintenance', tab: tab as MaintTab };
    }
    case 'report': {
      const id = parts.length === 2 ? positive(parts[1], 0) : 0;
      if (id === 0) return { name: 'maintenance', tab: 'tasks' };
      return { name: 'report', id, page: positive(params.get('page'), 1, maxPage) };
    }
    case 'graph':
      if (parts.length > 1) return home;
      return {
        name: 'graph',
        crawl: positive(params.get('crawl'), 0),
        layout: oneOf(params.get('layout'), graphLayouts, 'tree'),
        color: oneOf(params.get('color'), graphColors, 'host'),
      };
    case 'library': {
      const id = parts.length === 1 ? 1 : parts.length === 2 ? positive(parts[1], 0) : 0;
      if (id === 0) return libraryHome;
      const o = params.get('order') ?? '';
      return {
        name: 'library',
        id,
        tab: params.get('tab') === 'new' ? 'new' : 'list',
        q: params.get('q') ?? '',
        order: (libOrderParams as readonly string[]).includes(o) ? (o as LibOrderParam) : '',
      };
    }
    case 'posting': {
      const id = parts.length === 2 ? positive(parts[1], 0) : 0;
      return id === 0 ? libraryHome : { name: 'posting', id };
    }
    case 'add':
      // The add form, filled in by the bookmarklet from any page: untrusted text, kept
      // within the library's limits and shown as text.
      if (parts.length > 1) return libraryHome;
      return {
        name: 'add',
        url: (params.get('url') ?? '').slice(0, addLimits.url),
        title: (params.get('title') ?? '').slice(0, addLimits.title),
        notes: (params.get('notes') ?? '').slice(0, addLimits.notes),
      };
  }
  return home;
}

/** The longest parts of an add form's address the form takes (the library's own limits). */
export const addLimits = { url: 8192, title: 1000, notes: 64 * 1024 };

/** The root library's route. */
export const libraryHome: Route = { name: 'library', id: 1, tab: 'list', q: '', order: '' };

function withParams(path: string, params: Record<string, string | number>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== '' && v !== 1) p.set(k, String(v));
  }
  const s = p.toString();
  return s === '' ? path : `${path}?${s}`;
}

/** Formats a route as a hash, the inverse of parseHash. Defaults are left out. */
export function formatRoute(r: Route): string {
  switch (r.name) {
    case 'search':
      return withParams('#/search', { view: r.view, q: r.q, page: r.page });
    case 'crawls':
      return '#/crawls';
    case 'crawl':
      return withParams(`#/crawls/${r.id}`, { state: r.state, page: r.page });
    case 'page':
      return withParams(`#/page/${r.id}`, { copy: r.copy, since: r.since ?? '', v: r.version ? String(r.version) : '', at: r.anchor ?? '' });
    case 'settings':
      return '#/settings';
    case 'maintenance':
      return r.tab === 'tasks' ? '#/maintenance' : `#/maintenance/${r.tab}`;
    case 'report':
      return withParams(`#/report/${r.id}`, { page: r.page });
    case 'graph':
      return withParams('#/graph', {
        crawl: r.crawl === 0 ? '' : r.crawl,
        layout: r.layout === 'tree' ? '' : r.layout,
        color: r.color === 'host' ? '' : r.color,
      });
    case 'library':
      return withParams(r.id === 1 ? '#/library' : `#/library/${r.id}`, {
        tab: r.tab === 'new' ? 'new' : '',
        q: r.q,
        order: r.order,
      });
    case 'posting':
      return `#/posting/${r.id}`;
    case 'add':
      return withParams('#/add', { url: r.url, title: r.title, notes: r.notes });
  }
}

/** The hash of a maintenance report's view. */
export function reportHref(id: number, page = 1): string {
  return formatRoute({ name: 'report', id, page });
}

/** The hash of a library's view. */
export function libraryHref(id: number, tab: LibTab = 'list', q = ''): string {
  return formatRoute({ name: 'library', id, tab, q, order: '' });
}

/** The hash of a posting's view. */
export function postingHref(id: number): string {
  return formatRoute({ name: 'posting', id });
}

/** The hash of a page's view. */
export function pageHref(id: number, copy: CopyTab | '' = '', since = ''): string {
  return formatRoute(since ? { name: 'page', id, copy, since } : { name: 'page', id, copy });
}

/**
 * The route of a page's stored copy opened from a link in another copy: its page tab, the
 * version a replay chose (0: the current content), scrolled to the link's fragment.
 */
export function copyRoute(id: number, version = 0, anchor = ''): Extract<Route, { name: 'page' }> {
  const r: Extract<Route, { name: 'page' }> = { name: 'page', id, copy: 'page' };
  if (version > 0) r.version = version;
  if (anchor !== '') r.anchor = anchor;
  return r;
}

/** The hash of a search. */
export function searchHref(q: string, page = 1): string {
  return formatRoute({ name: 'search', q, page, view: '' });
}

/** Where Esc goes from a route when there is no history to go back to. */
export function parentOf(r: Route): Route | null {
  switch (r.name) {
    case 'crawl':
      return { name: 'crawls' };
    case 'page':
      return home;
    case 'report':
      return { name: 'maintenance', tab: 'tasks' };
    case 'posting':
    case 'add':
      return libraryHome;
    case 'library':
      return r.id === 1 && r.tab === 'list' && r.q === '' ? null : libraryHome;
    default:
      return null;
  }
}

/** The top-level section a route belongs to (what the navigation marks as current). */
export function sectionOf(r: Route): 'search' | 'library' | 'crawls' | 'graph' | 'maintenance' | 'settings' | '' {
  switch (r.name) {
    case 'search':
      return 'search';
    case 'library':
    case 'posting':
    case 'add':
      return 'library';
    case 'crawls':
    case 'crawl':
      return 'crawls';
    case 'graph':
      return 'graph';
    case 'settings':
      return 'settings';
    case 'maintenance':
    case 'report':
      return 'maintenance';
    default:
      return '';
  }
}

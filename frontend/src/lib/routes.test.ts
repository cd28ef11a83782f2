import { describe, expect, it } from 'vitest';
import { bareHash, copyRoute, formatRoute, home, pageHref, parentOf, parseHash, searchHref, sectionOf, type Route } from './routes';

describe('parseHash', () => {
  it.each<[string, Route]>([
    ['', home],
    ['#', home],
    ['#/', home],
    ['#/search', home],
    ['#/search?q=otlet%20cards', { name: 'search', q: 'otlet cards', page: 1, view: '' }],
    ['#/search?q=a+b&page=3', { name: 'search', q: 'a b', page: 3, view: '' }],
    ['#/search?view=My%20view', { name: 'search', q: '', page: 1, view: 'My view' }],
    ['#/search?q=x&page=0', { name: 'search', q: 'x', page: 1, view: '' }],
    ['#/search?q=x&page=-2', { name: 'search', q: 'x', page: 1, view: '' }],
    ['#/search?q=x&page=1e9', { name: 'search', q: 'x', page: 1, view: '' }],
    ['#/crawls', { name: 'crawls' }],
    ['#/crawls/', { name: 'crawls' }],
    ['#/crawls/7', { name: 'crawl', id: 7, state: '', page: 1 }],
    ['#/crawls/7?state=failed&page=2', { name: 'crawl', id: 7, state: 'failed', page: 2 }],
    ['#/crawls/7?state=bogus', { name: 'crawl', id: 7, state: '', page: 1 }],
    ['#/crawls/x', { name: 'crawls' }],
    ['#/crawls/7/8', { name: 'crawls' }],
    ['#/page/12', { name: 'page', id: 12, copy: '' }],
    ['#/page/12?copy=page', { name: 'page', id: 12, copy: 'page' }],
    ['#/page/12?copy=script', { name: 'page', id: 12, copy: '' }],
    ['#/page/0', home],
    ['#/page/abc', home],
    ['#/page', home],
    ['#/settings', { name: 'settings' }],
    ['#/maintenance', { name: 'maintenance', tab: 'tasks' }],
    ['#/maintenance/rules', { name: 'maintenance', tab: 'rules' }],
    ['#/maintenance/bogus', { name: 'maintenance', tab: 'tasks' }],
    ['#/maintenance/rules/x', { name: 'maintenance', tab: 'tasks' }],
    ['#/report/9', { name: 'report', id: 9, page: 1 }],
    ['#/report/9?page=3', { name: 'report', id: 9, page: 3 }],
    ['#/report/x', { name: 'maintenance', tab: 'tasks' }],
    ['#/library', { name: 'library', id: 1, tab: 'list', q: '', order: '' }],
    ['#/library/12?tab=new', { name: 'library', id: 12, tab: 'new', q: '', order: '' }],
    ['#/library/12?q=go%20lang&order=date', { name: 'library', id: 12, tab: 'list', q: 'go lang', order: 'date' }],
    ['#/library/12?order=evil', { name: 'library', id: 12, tab: 'list', q: '', order: '' }],
    ['#/library/x', { name: 'library', id: 1, tab: 'list', q: '', order: '' }],
    ['#/posting/7', { name: 'posting', id: 7 }],
    ['#/posting/0', { name: 'library', id: 1, tab: 'list', q: '', order: '' }],
    ['#/nowhere', home],
    ['#/page/12%3Cscript%3E', home],
  ])('%s', (hash, want) => {
    expect(parseHash(hash)).toEqual(want);
  });
});

describe('formatRoute', () => {
  it.each<Route>([
    home,
    { name: 'search', q: 'otlet & "cards" #1?', page: 4, view: '' },
    { name: 'search', q: '', page: 1, view: 'Les fiches / 2' },
    { name: 'crawls' },
    { name: 'crawl', id: 3, state: 'skipped', page: 9 },
    { name: 'crawl', id: 3, state: '', page: 1 },
    { name: 'page', id: 99, copy: 'text' },
    { name: 'page', id: 99, copy: '' },
    { name: 'page', id: 99, copy: 'page', version: 1, anchor: 'sec 2/<b>' },
    { name: 'page', id: 99, copy: 'page', version: 12 },
    { name: 'settings' },
    { name: 'maintenance', tab: 'tasks' },
    { name: 'maintenance', tab: 'sites' },
    { name: 'report', id: 4, page: 1 },
    { name: 'report', id: 4, page: 12 },
    { name: 'library', id: 1, tab: 'list', q: '', order: '' },
    { name: 'library', id: 4, tab: 'new', q: 'a/b "c"', order: 'manual' },
    { name: 'posting', id: 8 },
  ])('round-trips %j', (r) => {
    expect(parseHash(formatRoute(r))).toEqual(r);
  });

  it('leaves defaults out', () => {
    expect(formatRoute(home)).toBe('#/search');
    expect(formatRoute({ name: 'crawl', id: 3, state: '', page: 1 })).toBe('#/crawls/3');
    expect(pageHref(5)).toBe('#/page/5');
    expect(pageHref(5, 'text')).toBe('#/page/5?copy=text');
    expect(pageHref(5, '', '2026-02-01T10:00:00Z')).toBe('#/page/5?since=2026-02-01T10%3A00%3A00Z');
    expect(parseHash('#/page/5?since=2026-02-01T10%3A00%3A00Z')).toEqual({ name: 'page', id: 5, copy: '', since: '2026-02-01T10:00:00Z' });
    expect(parseHash('#/page/5?since=yesterday')).toEqual({ name: 'page', id: 5, copy: '' });
    expect(searchHref('a b', 2)).toBe('#/search?q=a+b&page=2');
    expect(formatRoute(copyRoute(5, 1, 'top'))).toBe('#/page/5?copy=page&v=1&at=top');
    expect(copyRoute(5)).toEqual({ name: 'page', id: 5, copy: 'page' });
    expect(parseHash('#/page/5?v=abc&at=')).toEqual({ name: 'page', id: 5, copy: '' });
    expect(parseHash(`#/page/5?at=${'x'.repeat(600)}`)).toEqual({ name: 'page', id: 5, copy: '' });
  });
});

describe('parentOf and sectionOf', () => {
  it('send Esc up one level', () => {
    expect(parentOf({ name: 'page', id: 1, copy: '' })).toEqual(home);
    expect(parentOf({ name: 'crawl', id: 1, state: '', page: 1 })).toEqual({ name: 'crawls' });
    expect(parentOf(home)).toBeNull();
  });
  it('mark the navigation', () => {
    expect(sectionOf({ name: 'crawl', id: 1, state: '', page: 1 })).toBe('crawls');
    expect(sectionOf({ name: 'page', id: 1, copy: '' })).toBe('');
    expect(sectionOf({ name: 'settings' })).toBe('settings');
  });
});

describe('graph routes', () => {
  it('read and write the crawl, layout and colour', () => {
    expect(parseHash('#/graph')).toEqual({ name: 'graph', crawl: 0, layout: 'tree', color: 'host' });
    expect(parseHash('#/graph?crawl=3&layout=force&color=status')).toEqual({ name: 'graph', crawl: 3, layout: 'force', color: 'status' });
    expect(parseHash('#/graph?layout=spiral&color=mood')).toEqual({ name: 'graph', crawl: 0, layout: 'tree', color: 'host' });
    expect(parseHash('#/graph/x')).toEqual(home);
    expect(formatRoute({ name: 'graph', crawl: 0, layout: 'tree', color: 'host' })).toBe('#/graph');
    expect(formatRoute({ name: 'graph', crawl: 2, layout: 'force', color: 'category' })).toBe('#/graph?crawl=2&layout=force&color=category');
    expect(sectionOf({ name: 'graph', crawl: 2, layout: 'force', color: 'category' })).toBe('graph');
  });
});

describe('the start page', () => {
  it('has a route of its own, and the bare address is told apart', () => {
    expect(parseHash('#/start')).toEqual({ name: 'start' });
    expect(formatRoute({ name: 'start' })).toBe('#/start');
    expect(parseHash('#/start/x')).toEqual(home);
    for (const h of ['', '#', '#/']) expect(bareHash(h)).toBe(true);
    for (const h of ['#/search', '#/start', '#/library']) expect(bareHash(h)).toBe(false);
  });
});

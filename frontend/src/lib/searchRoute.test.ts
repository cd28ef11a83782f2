import { describe, expect, it } from 'vitest';
import { routeAction } from './searchRoute';

const r = (q: string, page = 1, view = '') => ({ name: 'search' as const, q, page, view });

describe('routeAction', () => {
  it('does nothing when the route shows what is held (back from a page view)', () => {
    expect(routeAction(r('otlet', 2), { query: 'otlet', page: 2, view: '' })).toEqual({ kind: 'none' });
    expect(routeAction(r(''), { query: '', page: 3, view: '' })).toEqual({ kind: 'none' });
    expect(routeAction(r('', 1, 'Cards'), { query: 'cards', page: 1, view: 'Cards' })).toEqual({ kind: 'none' });
  });
  it('runs another query or page (Back, Forward, a typed URL)', () => {
    expect(routeAction(r('otlet'), { query: 'otle', page: 1, view: '' })).toEqual({ kind: 'run', q: 'otlet', page: 1 });
    expect(routeAction(r('otlet', 3), { query: 'otlet', page: 1, view: '' })).toEqual({ kind: 'run', q: 'otlet', page: 3 });
    expect(routeAction(r('cards'), { query: 'cards', page: 1, view: 'Cards' })).toEqual({ kind: 'none' });
  });
  it('opens a saved view that is not open', () => {
    expect(routeAction(r('', 1, 'Cards'), { query: 'x', page: 1, view: '' })).toEqual({ kind: 'view', name: 'Cards' });
    expect(routeAction(r('', 1, 'Cards'), { query: 'x', page: 1, view: 'Other' })).toEqual({ kind: 'view', name: 'Cards' });
  });
});

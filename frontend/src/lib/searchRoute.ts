// How the search view reacts to its route: Back, Forward, a typed URL or a saved view's link
// may ask for another query, page or view than the one on screen.
import type { Route } from './routes';

type SearchRoute = Extract<Route, { name: 'search' }>;

/** What the search view holds now. */
export interface Held {
  query: string;
  page: number;
  view: string; // the open saved view's name, or ''
}

export type RouteAction = { kind: 'none' } | { kind: 'run'; q: string; page: number } | { kind: 'view'; name: string };

/** Decides what to do when the route is r and the view holds h. */
export function routeAction(r: SearchRoute, h: Held): RouteAction {
  if (r.view !== '') return r.view === h.view ? { kind: 'none' } : { kind: 'view', name: r.view };
  if (r.q === h.query && (r.page === h.page || r.q.trim() === '')) return { kind: 'none' };
  return { kind: 'run', q: r.q, page: r.page };
}

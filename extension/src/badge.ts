// The toolbar button's badge: whether the page is in the library, and where.
import type { Status } from './client';

export interface Badge {
  text: string;
  title: string;
  color: string;
}

/** The button as it is when the page is not in the library (or nothing is known). */
export const plain: Badge = { text: '', title: 'Add to Mundaneum', color: '#1a5fb4' };

/** The badge of a page's status: a check mark (or the number of places) and the libraries holding it. */
export function badgeFor(s: Status): Badge {
  const n = s.places.length;
  if (n === 0) return plain;
  const libs = [...new Set(s.places.map((p) => p.library))];
  const shown = libs.slice(0, 5).join(', ') + (libs.length > 5 ? `, and ${libs.length - 5} more` : '');
  return { text: n === 1 ? '✓' : String(Math.min(n, 99)), title: `In Mundaneum: ${shown}`, color: '#26a269' };
}

/** Whether the badge is asked for a tab's address: web pages only. */
export function checkable(url: string | undefined): url is string {
  return typeof url === 'string' && /^https?:\/\//i.test(url);
}

// Which two versions of a page the page view compares first.
import type { PageVersion } from '../api';

/**
 * The pair of versions (ids; 0 for none) a page's diff starts with: the newest version whose
 * body is kept, against the one before it; or, given a time (a saved view's last opening),
 * against the version in force then, so that the diff is everything that changed since.
 * Versions are oldest first, as PageVersions lists them.
 */
export function diffPair(versions: PageVersion[], since = ''): { from: number; to: number } {
  const kept = versions.filter((v) => v.cached);
  const to = kept.at(-1)?.id ?? 0;
  let from = kept.at(-2)?.id ?? 0;
  const t = since ? Date.parse(since) : NaN;
  if (!Number.isNaN(t) && kept.length > 1) {
    const before = kept.slice(0, -1).filter((v) => Date.parse(v.fetchedAt) <= t);
    // None before: the page's whole history is newer than the time, from its oldest.
    // The newest already in force then: nothing changed since; the last change is shown.
    from = before.length === 0 ? kept[0].id : before.at(-1)!.id;
  }
  return { from, to };
}

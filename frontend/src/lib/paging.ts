// Paging helpers.

/**
 * The page numbers a pager shows: the first, the last and a window around the current
 * one, with null where pages are left out.
 */
export function pageWindow(page: number, pages: number, around = 2): (number | null)[] {
  if (pages <= 1) return [];
  page = Math.min(Math.max(1, page), pages);
  const lo = Math.max(2, page - around);
  const hi = Math.min(pages - 1, page + around);
  const out: (number | null)[] = [1];
  // A gap of one page shows that page rather than an ellipsis.
  if (lo === 3) out.push(2);
  else if (lo > 3) out.push(null);
  for (let p = lo; p <= hi; p++) out.push(p);
  if (hi === pages - 2) out.push(pages - 1);
  else if (hi < pages - 2) out.push(null);
  out.push(pages);
  return out;
}

// Editing the query text: facets add their `refine` term (host:..., type:..., crawl:...,
// status:... / is:...) and take it away again.

/** Splits a query into its whitespace-separated terms, keeping quoted phrases whole. */
export function terms(query: string): string[] {
  return query.match(/-?"[^"]*"?|\S+/g) ?? [];
}

/** Reports whether the query already holds the term (case-insensitively). */
export function hasTerm(query: string, term: string): boolean {
  const t = term.trim().toLowerCase();
  return t !== '' && terms(query).some((x) => x.toLowerCase() === t);
}

/** Adds the term to the query, or removes it if it is there already. */
export function toggleTerm(query: string, term: string): string {
  const t = term.trim();
  if (t === '') return query;
  if (hasTerm(query, t)) {
    return terms(query)
      .filter((x) => x.toLowerCase() !== t.toLowerCase())
      .join(' ');
  }
  const q = query.trim();
  return q === '' ? t : `${q} ${t}`;
}

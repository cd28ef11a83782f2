// Completion for the popup's pickers: libraries (this browser's recent choices, then
// Mundaneum's answers) and tags (the comma-separated word being typed).
import type { LibraryChoice } from './client';

/**
 * Merges this browser's recent libraries that match query with Mundaneum's choices
 * (which already rank its own recent ones), without duplicates, at most limit.
 */
export function mergeLibraries(query: string, recent: readonly LibraryChoice[], server: readonly LibraryChoice[], limit = 12): LibraryChoice[] {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== '');
  const known = new Set(server.map((c) => c.id));
  // A recent library Mundaneum does not offer for a non-empty query does not match, or is
  // gone: only an empty query shows this browser's list as it is.
  const mine = recent.filter((r) => (words.length === 0 ? true : known.has(r.id)) && words.every((w) => r.path.toLowerCase().includes(w)));
  const out: LibraryChoice[] = [];
  const seen = new Set<number>();
  for (const c of [...mine.map((r) => ({ ...r, recent: true })), ...server]) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    out.push(c);
  }
  return out.slice(0, limit);
}

/** The tag being typed in a comma-separated list at the caret: its text and where it is. */
export function tagAt(text: string, caret: number): { word: string; start: number; end: number } {
  const start = text.lastIndexOf(',', caret - 1) + 1;
  let end = text.indexOf(',', caret);
  if (end < 0) end = text.length;
  const raw = text.slice(start, end);
  const lead = raw.length - raw.trimStart().length;
  return { word: raw.trim(), start: start + lead, end: start + raw.trimEnd().length };
}

/** Replaces the tag at the caret with tag; returns the text and the caret after it. */
export function putTag(text: string, caret: number, tag: string): { text: string; caret: number } {
  const t = tagAt(text, caret);
  let after = text.slice(t.end);
  const before = text.slice(0, t.start);
  if (!after.startsWith(',')) after = ', ' + after.trimStart();
  const out = before + tag + after;
  return { text: out, caret: (before + tag + ', ').length };
}

/** The tags of a comma-separated list, trimmed, without empties or repeats (ignoring case). */
export function parseTags(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of text.split(',')) {
    const s = t.trim().replace(/\s+/g, ' ');
    if (s === '' || seen.has(s.toLowerCase())) continue;
    seen.add(s.toLowerCase());
    out.push(s);
  }
  return out;
}

// Pure helpers of the rule editor: the highlighted segments of rule text and wording.
import type { RuleSpan } from '../api';

/** A run of rule text with its kind ('' for plain text) and whether it is the deciding atom. */
export interface Segment {
  text: string;
  kind: string;
  decided: boolean;
}

/**
 * Cuts text into segments from the backend's spans (JavaScript offsets, sorted; an error
 * span may cover others, and wins); the stretch [mark.from, mark.to) is flagged as the
 * atom that decided.
 * Everything of text is in exactly one segment, in order, so the segments rebuild it.
 */
export function segments(text: string, spans: RuleSpan[], mark?: { from: number; to: number } | null): Segment[] {
  const cuts = new Set<number>([0, text.length]);
  const ok = spans.filter((s) => s.from >= 0 && s.to <= text.length && s.from < s.to);
  for (const s of ok) {
    cuts.add(s.from);
    cuts.add(s.to);
  }
  if (mark && mark.from < mark.to) {
    cuts.add(Math.max(0, Math.min(text.length, mark.from)));
    cuts.add(Math.max(0, Math.min(text.length, mark.to)));
  }
  const points = [...cuts].sort((a, b) => a - b);
  const out: Segment[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const from = points[i];
    const to = points[i + 1];
    if (from === to) continue;
    const within = (s: RuleSpan) => s.from <= from && to <= s.to;
    const span = ok.find((s) => s.kind === 'error' && within(s)) ?? ok.find(within);
    const decided = !!mark && mark.from <= from && to <= mark.to;
    const seg = { text: text.slice(from, to), kind: span?.kind ?? '', decided };
    const last = out[out.length - 1];
    if (last && last.kind === seg.kind && last.decided === seg.decided) last.text += seg.text;
    else out.push(seg);
  }
  return out;
}

/** What a category value means for a page, in a few words. */
export function valueText(v: string): string {
  switch (v) {
    case 'first':
      return 'followed first (imperative)';
    case 'next':
      return 'followed next (directional)';
    case 'last':
      return 'followed last (last resort)';
    case 'rejected':
      return 'not followed (rejected)';
    case 'untested':
      return 'decided once the page is read';
  }
  return v;
}

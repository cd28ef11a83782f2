// Pure helpers of the rule editor: the highlighted segments of rule text and wording.
import type { RuleSpan, RulesTest } from '../api';

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

/** A line of the rule test about the paths to the page and the LOCAL blocks, in words. */
export interface LocalLine {
  text: string;
  /** The block's place in the rule text (JavaScript offsets), -1 for a line about a path. */
  from: number;
  to: number;
  active: boolean;
}

type Verdict = Pick<RulesTest, 'value' | 'reason'>;

function verdictText(v: Verdict): string {
  return `${v.value} (${v.reason})`;
}

/**
 * What a rule test says about LOCAL blocks and paths: the element decided (a crawl's first
 * path to the page), the other paths and what they get, and for each block whether it holds
 * on that path and through which page, or what it would make of the URL if it did.
 */
export function localLines(t: Pick<RulesTest, 'element' | 'elements' | 'locals'>): LocalLine[] {
  const out: LocalLine[] = [];
  const { elements, locals } = t;
  const decided = elements[0];
  if (decided) {
    out.push({
      text: `Tested as element ${decided.family} of crawl ${decided.crawlId}${decided.visited ? ' (the path the crawl visited it by)' : ''}.`,
      from: -1,
      to: -1,
      active: false,
    });
    for (const e of elements.slice(1)) {
      out.push({ text: `Also reached as ${e.family} of crawl ${e.crawlId}: ${verdictText(e)}.`, from: -1, to: -1, active: false });
    }
  } else if (locals.length > 0) {
    out.push({
      text: 'No crawl reached this URL, so no path to it is known: the global rules decided. Each LOCAL block would apply if it were reached through a page the block selects:',
      from: -1,
      to: -1,
      active: false,
    });
  }
  locals.forEach((l) => {
    const head = `LOCAL ${l.selector} (line ${l.line})`;
    let text: string;
    if (l.active) text = `${head} applies: reached through ${l.through}.`;
    else if (decided) text = `${head} does not apply on this path; through a page it selects, this would be ${verdictText(l.ifActive)}.`;
    else text = `${head} could apply: through a page it selects, this would be ${verdictText(l.ifActive)}.`;
    out.push({ text, from: l.from, to: l.to, active: l.active });
  });
  if (decided && !decided.complete) {
    out.push({ text: 'A page on this path is no longer recorded: blocks it would have put in force are unknown.', from: -1, to: -1, active: false });
  }
  return out;
}

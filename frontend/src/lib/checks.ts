// Pure helpers of the maintenance view: verdict wording, schedules, news summaries.
import type { CheckNewsCounts, CheckTask, ReportCounts } from '../api';
import { count } from './format';

/** The words for a verdict ("server_error" -> "server error"). */
export function verdictLabel(v: string): string {
  return v.replaceAll('_', ' ');
}

/** How seriously a verdict is shown: failing, moved, inconclusive or fine. */
export function verdictTone(v: string): 'bad' | 'warn' | 'muted' | 'ok' {
  switch (v) {
    case 'broken':
    case 'server_error':
    case 'timeout':
    case 'invalid':
      return 'bad';
    case 'redirected':
    case 'fragment_missing':
      return 'warn';
    case 'ok':
      return 'ok';
  }
  return 'muted';
}

/** Reports whether a verdict counts as a failing link. */
export function failing(v: string): boolean {
  return verdictTone(v) === 'bad';
}

export type ScheduleUnit = 'hours' | 'days';

/** A schedule as the form edits it: off, or every n hours or days. */
export interface Schedule {
  on: boolean;
  n: number;
  unit: ScheduleUnit;
}

/** The form's schedule for a task's period in minutes. */
export function scheduleOf(minutes: number): Schedule {
  if (!(minutes > 0)) return { on: false, n: 1, unit: 'days' };
  if (minutes % 1440 === 0) return { on: true, n: minutes / 1440, unit: 'days' };
  return { on: true, n: Math.max(1, Math.round(minutes / 60)), unit: 'hours' };
}

/** A schedule's period in minutes (0: only when asked). */
export function minutesOf(s: Schedule): number {
  if (!s.on || !(s.n > 0)) return 0;
  return Math.round(s.n * (s.unit === 'days' ? 1440 : 60));
}

/** Says when a task runs ("every day", "every 6 hours", "when asked"). */
export function everyText(minutes: number): string {
  const s = scheduleOf(minutes);
  if (!s.on) return 'when asked';
  if (s.unit === 'days') return s.n === 1 ? 'every day' : s.n === 7 ? 'every week' : `every ${s.n} days`;
  return s.n === 1 ? 'every hour' : `every ${s.n} hours`;
}

/**
 * Says how many links fail without being dead yet, and until when none will be:
 * "1 failing, not dead until 2026-12-04 and 2 more failing checks" ("" when none fails).
 * The same words as the report's (report.FailingText).
 */
export function failingText(failing: number, deadFrom: string, checksLeft: number): string {
  if (!(failing > 0)) return '';
  const until: string[] = [];
  if (deadFrom) until.push(deadFrom);
  if (checksLeft === 1) until.push('1 more failing check');
  else if (checksLeft > 1) until.push(`${checksLeft} more failing checks`);
  const head = `${failing} failing`;
  if (until.length === 0) return head;
  return `${head}, ${failing === 1 ? 'not' : 'none'} dead until ${until.join(' and ')}`;
}

/** Summarises a report's news ("2 broken (1 dead; 1 failing, not dead until …) · 3 moved"), or "no news". */
export function newsSummary(n: CheckNewsCounts): string {
  const parts: string[] = [];
  const failing = failingText(n.failing, n.deadFrom, n.checksLeft);
  const why = [n.dead ? `${n.dead} dead` : '', failing].filter(Boolean).join('; ');
  if (n.broken) parts.push(`${n.broken} broken${why ? ` (${why})` : ''}`);
  if (n.moved) parts.push(`${n.moved} moved`);
  if (n.changed) parts.push(`${n.changed} changed`);
  if (n.expiring) parts.push(`${n.expiring} expiring`);
  if (n.fragments) parts.push(`${n.fragments} missing fragment${n.fragments === 1 ? '' : 's'}`);
  return parts.length ? parts.join(' · ') : 'no news';
}

/** The URLs in pasted text: whitespace-separated, each once, in order. */
export function parseLinks(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of text.split(/\s+/)) {
    if (w && !seen.has(w)) {
      seen.add(w);
      out.push(w);
    }
  }
  return out;
}

/** A new task's defaults: a site, reporting moved and broken links, changes and expiries of a week. */
export function newTask(): CheckTask {
  return {
    id: 0,
    name: '',
    type: 'site',
    top: '',
    title: '',
    for: '',
    email: false,
    report: { moved: true, broken: true, changedDays: 7, expiringDays: 7 },
    everyMinutes: 1440,
    maxPages: 0,
    maxDepth: 0,
    indexFile: '',
    internalOnly: false,
    createdAt: '',
    lastRunAt: '',
    nextRunAt: '',
  };
}

/** What the top field asks for, by task type. */
export function topLabel(type: string): string {
  return type === 'library' ? 'Library path' : 'Top URL';
}

/**
 * A report's counts in a sentence, as the report's own (report.Counts.Summary): "3 documents
 * with 6 references to 5 distinct URLs; 5 URLs tested"; a library task's documents are its
 * libraries and their references pointers.
 */
export function countsText(c: ReportCounts, taskType: string): string {
  const n = (k: number, one: string, many: string) => `${count(k)} ${k === 1 ? one : many}`;
  const lib = taskType === 'library';
  return (
    `${n(c.documents, lib ? 'library' : 'document', lib ? 'libraries' : 'documents')} with ` +
    `${n(c.references, lib ? 'pointer' : 'reference', lib ? 'pointers' : 'references')} to ` +
    `${n(c.links, 'distinct URL', 'distinct URLs')}; ${n(c.tested, 'URL', 'URLs')} tested`
  );
}

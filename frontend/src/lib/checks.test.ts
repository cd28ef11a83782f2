import { describe, expect, it } from 'vitest';
import { everyText, failingText, minutesOf, newsSummary, parseLinks, scheduleOf, verdictLabel, verdictTone } from './checks';

describe('verdicts', () => {
  it('words and tones', () => {
    expect(verdictLabel('server_error')).toBe('server error');
    expect(verdictTone('broken')).toBe('bad');
    expect(verdictTone('timeout')).toBe('bad');
    expect(verdictTone('blocked')).toBe('muted');
    expect(verdictTone('rate_limited')).toBe('muted');
    expect(verdictTone('redirected')).toBe('warn');
    expect(verdictTone('fragment_missing')).toBe('warn');
    expect(verdictTone('ok')).toBe('ok');
  });
});

describe('schedules', () => {
  it.each([
    [0, 'when asked'],
    [60, 'every hour'],
    [360, 'every 6 hours'],
    [1440, 'every day'],
    [10080, 'every week'],
    [2880, 'every 2 days'],
  ])('%d minutes is %s', (m, text) => {
    expect(everyText(m)).toBe(text);
    expect(minutesOf(scheduleOf(m))).toBe(m);
  });
  it('off and nonsense give 0', () => {
    expect(minutesOf({ on: false, n: 3, unit: 'days' })).toBe(0);
    expect(minutesOf({ on: true, n: -1, unit: 'hours' })).toBe(0);
    expect(minutesOf({ on: true, n: Number.NaN, unit: 'hours' })).toBe(0);
  });
});

describe('newsSummary', () => {
  it('lists what there is', () => {
    const zero = {
      moved: 0, broken: 0, changed: 0, expiring: 0, newMoved: 0, newBroken: 0, newChanged: 0, newExpiring: 0, dead: 0,
      failing: 0, deadFrom: '', checksLeft: 0, fragments: 0,
    };
    expect(newsSummary(zero)).toBe('no news');
    expect(newsSummary({ ...zero, broken: 2, dead: 1, moved: 3 })).toBe('2 broken (1 dead) · 3 moved');
    expect(newsSummary({ ...zero, fragments: 2 })).toBe('2 missing fragments');
    // A broken link that is not dead yet is said so, with when it can be.
    expect(newsSummary({ ...zero, broken: 1, failing: 1, deadFrom: '2026-12-04', checksLeft: 2 })).toBe(
      '1 broken (1 failing, not dead until 2026-12-04 and 2 more failing checks)',
    );
    expect(newsSummary({ ...zero, broken: 3, dead: 1, failing: 2, checksLeft: 1 })).toBe(
      '3 broken (1 dead; 2 failing, none dead until 1 more failing check)',
    );
  });
});

describe('parseLinks', () => {
  it('splits, trims and dedupes', () => {
    expect(parseLinks(' https://a/\n\nhttps://b/  https://a/\t')).toEqual(['https://a/', 'https://b/']);
    expect(parseLinks('   ')).toEqual([]);
  });
});

describe('failingText', () => {
  it('says nothing when nothing fails', () => {
    expect(failingText(0, '2026-12-04', 2)).toBe('');
    expect(failingText(1, '', 0)).toBe('1 failing');
  });
});

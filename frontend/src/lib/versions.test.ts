import { describe, expect, it } from 'vitest';
import type { PageVersion } from '../api';
import { diffPair } from './versions';

const v = (id: number, fetchedAt: string, cached = true): PageVersion =>
  ({ id, n: id, fetchedAt, confirmedAt: '', confirmedStatus: 0, status: 200, size: 1, contentType: 'text/html', title: '', flag: '', current: false, cached, crawlId: 1 }) as PageVersion;

const vs = [v(1, '2026-01-01T00:00:00Z'), v(2, '2026-01-10T00:00:00Z'), v(3, '2026-01-20T00:00:00Z'), v(4, '2026-01-30T00:00:00Z')];

describe('diffPair', () => {
  it('compares the newest version with the one before', () => {
    expect(diffPair(vs)).toEqual({ from: 3, to: 4 });
    expect(diffPair(vs.slice(0, 1))).toEqual({ from: 0, to: 1 });
    expect(diffPair([])).toEqual({ from: 0, to: 0 });
  });
  it('skips versions whose body is not kept', () => {
    expect(diffPair([vs[0], vs[1], v(3, '2026-01-20T00:00:00Z', false), vs[3]])).toEqual({ from: 2, to: 4 });
  });
  it('since a time: from the version in force then to the newest (what changed since)', () => {
    expect(diffPair(vs, '2026-01-12T00:00:00Z')).toEqual({ from: 2, to: 4 });
    expect(diffPair(vs, '2026-01-10T00:00:00Z')).toEqual({ from: 2, to: 4 });
    // Before the first version: all of it changed since, from the oldest.
    expect(diffPair(vs, '2025-12-01T00:00:00Z')).toEqual({ from: 1, to: 4 });
    // After the newest: nothing changed since; the last change is shown.
    expect(diffPair(vs, '2026-02-01T00:00:00Z')).toEqual({ from: 3, to: 4 });
    expect(diffPair(vs, 'not a time')).toEqual({ from: 3, to: 4 });
  });
});

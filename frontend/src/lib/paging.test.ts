import { describe, expect, it } from 'vitest';
import { pageWindow } from './paging';

describe('pageWindow', () => {
  it.each<[number, number, (number | null)[]]>([
    [1, 1, []],
    [1, 2, [1, 2]],
    [1, 5, [1, 2, 3, 4, 5]],
    [1, 10, [1, 2, 3, null, 10]],
    [5, 10, [1, 2, 3, 4, 5, 6, 7, null, 10]],
    [6, 10, [1, null, 4, 5, 6, 7, 8, 9, 10]],
    [10, 10, [1, null, 8, 9, 10]],
    [4, 10, [1, 2, 3, 4, 5, 6, null, 10]],
    [25000, 50000, [1, null, 24998, 24999, 25000, 25001, 25002, null, 50000]],
    [99, 10, [1, null, 8, 9, 10]],
  ])('page %i of %i', (page, pages, want) => {
    expect(pageWindow(page, pages)).toEqual(want);
  });
});

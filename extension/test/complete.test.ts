import { describe, expect, it } from 'vitest';
import { mergeLibraries, parseTags, putTag, tagAt } from '../src/complete';
import { dropRecent, maxRecent, pushRecent } from '../src/settings';

const lib = (id: number, path: string, recent = false) => ({ id, path, recent });

describe('libraries', () => {
  it("puts this browser's recent libraries first, without duplicates", () => {
    const recent = [lib(5, '/Reading'), lib(9, '/Computing/Go')];
    const server = [lib(2, '/'), lib(9, '/Computing/Go', true), lib(5, '/Reading')];
    expect(mergeLibraries('', recent, server).map((c) => c.id)).toEqual([5, 9, 2]);
    expect(mergeLibraries('', recent, server)[0]?.recent).toBe(true);
  });
  it('keeps a recent library only when it matches and Mundaneum still offers it', () => {
    const recent = [lib(5, '/Reading'), lib(7, '/Gone')];
    expect(mergeLibraries('go', recent, [lib(9, '/Computing/Go')]).map((c) => c.id)).toEqual([9]);
    expect(mergeLibraries('rea', recent, [lib(5, '/Reading')]).map((c) => c.id)).toEqual([5]);
  });
  it('keeps a short list of recent libraries', () => {
    let list: ReturnType<typeof pushRecent> = [];
    for (let i = 1; i <= 12; i++) list = pushRecent(list, lib(i, `/L${i}`));
    list = pushRecent(list, lib(10, '/L10'));
    expect(list.map((c) => c.id)).toEqual([10, 12, 11, 9, 8, 7, 6, 5].slice(0, maxRecent));
    expect(dropRecent(list, 12).map((c) => c.id)).not.toContain(12);
  });
});

describe('tags', () => {
  it('finds the tag at the caret', () => {
    expect(tagAt('go, res', 7)).toEqual({ word: 'res', start: 4, end: 7 });
    expect(tagAt('go, res, web', 2)).toEqual({ word: 'go', start: 0, end: 2 });
    expect(tagAt('', 0)).toEqual({ word: '', start: 0, end: 0 });
  });
  it('puts a completed tag in its place', () => {
    expect(putTag('go, res', 7, 'research')).toEqual({ text: 'go, research, ', caret: 14 });
    expect(putTag('g, web', 1, 'go')).toEqual({ text: 'go, web', caret: 4 });
  });
  it('parses a list of tags', () => {
    expect(parseTags(' go,  Research , ,go, research,  web  dev ')).toEqual(['go', 'Research', 'web dev']);
  });
});

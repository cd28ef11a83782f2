import { describe, expect, it } from 'vitest';
import { chordTimeout, editable, globalShortcut, intoResults, moveHighlight, resultAction, searchBoxKey, shortcuts, type KeyLike } from './keys';

function key(k: string, over: Partial<KeyLike> = {}): KeyLike {
  return { key: k, ctrlKey: false, metaKey: false, altKey: false, target: document.body, ...over };
}

describe('editable', () => {
  it.each([
    ['input', 'text', true],
    ['input', 'search', true],
    ['input', 'number', true],
    ['input', 'checkbox', false],
    ['input', 'radio', false],
    ['textarea', '', true],
    ['select', '', true],
    ['button', '', false],
    ['li', '', false],
  ])('<%s type=%s>: %s', (tag, type, want) => {
    const el = document.createElement(tag);
    if (type) el.setAttribute('type', type);
    expect(editable(el)).toBe(want);
  });
  it('is false for no target', () => {
    expect(editable(null)).toBe(false);
  });
});

describe('globalShortcut', () => {
  it('maps single keys', () => {
    expect(globalShortcut(key('/'), 0, 1000).action).toBe('focus-search');
    expect(globalShortcut(key('?'), 0, 1000).action).toBe('help');
    expect(globalShortcut(key('Escape'), 0, 1000).action).toBe('back');
    expect(globalShortcut(key('x'), 0, 1000).action).toBeNull();
  });

  it('maps g-chords within the timeout', () => {
    const g = globalShortcut(key('g'), 0, 1000);
    expect(g).toEqual({ action: null, chordAt: 1000 });
    expect(globalShortcut(key('c'), g.chordAt, 1500)).toEqual({ action: 'go-crawls', chordAt: 0 });
    expect(globalShortcut(key('s'), g.chordAt, 1500).action).toBe('go-search');
    expect(globalShortcut(key('g'), g.chordAt, 1500).action).toBe('go-graph');
    expect(globalShortcut(key(','), g.chordAt, 1500).action).toBe('go-settings');
    expect(globalShortcut(key('l'), g.chordAt, 1500).action).toBe('go-library');
    expect(globalShortcut(key('m'), g.chordAt, 1500).action).toBe('go-maintenance');
    expect(globalShortcut(key('q'), g.chordAt, 1500)).toEqual({ action: null, chordAt: 0 });
    // too late: the second key is read on its own
    expect(globalShortcut(key('c'), g.chordAt, 1000 + chordTimeout + 1).action).toBeNull();
  });

  it('maps Ctrl+digits, even in a field', () => {
    const input = document.createElement('input');
    expect(globalShortcut(key('1', { ctrlKey: true, target: input }), 0, 0).action).toBe('go-search');
    expect(globalShortcut(key('2', { metaKey: true }), 0, 0).action).toBe('go-crawls');
    expect(globalShortcut(key('3', { ctrlKey: true }), 0, 0).action).toBe('go-settings');
    expect(globalShortcut(key('4', { ctrlKey: true }), 0, 0).action).toBe('go-graph');
    expect(globalShortcut(key('5', { ctrlKey: true }), 0, 0).action).toBe('go-library');
    expect(globalShortcut(key('6', { ctrlKey: true }), 0, 0).action).toBe('go-maintenance');
    expect(globalShortcut(key('7', { ctrlKey: true }), 0, 0).action).toBeNull();
  });

  it('leaves typing alone', () => {
    const input = document.createElement('input');
    for (const k of ['/', 'g', '?', 'Escape']) {
      expect(globalShortcut(key(k, { target: input }), 0, 0)).toEqual({ action: null, chordAt: 0 });
    }
    expect(globalShortcut(key('c', { target: input }), 1000, 1100).action).toBeNull();
    expect(globalShortcut(key('/', { altKey: true }), 0, 0).action).toBeNull();
  });
});

describe('moveHighlight', () => {
  it.each([
    [-1, 'ArrowDown', 5, 0],
    [0, 'ArrowDown', 5, 1],
    [4, 'ArrowDown', 5, 4],
    [0, 'ArrowUp', 5, -1],
    [3, 'ArrowUp', 5, 2],
    [2, 'j', 5, 3],
    [2, 'k', 5, 1],
    [3, 'Home', 5, 0],
    [0, 'End', 5, 4],
    [0, 'PageDown', 20, 5],
    [18, 'PageDown', 20, 19],
    [7, 'PageUp', 20, 2],
    [2, 'PageUp', 20, 0],
    [-1, 'ArrowDown', 0, -1],
  ])('from %i, %s in %i items: %i', (i, k, n, want) => {
    expect(moveHighlight(i, k, n)).toBe(want);
  });
  it('ignores other keys', () => {
    expect(moveHighlight(1, 'x', 5)).toBeNull();
    expect(moveHighlight(1, 'Enter', 5)).toBeNull();
  });
});

describe('resultAction', () => {
  it('opens, copies, goes external', () => {
    expect(resultAction(key('Enter'))).toBe('open');
    expect(resultAction(key('Enter', { ctrlKey: true }))).toBe('external');
    expect(resultAction(key('Enter', { metaKey: true }))).toBe('external');
    expect(resultAction(key('o'))).toBe('copy');
    expect(resultAction(key('o', { ctrlKey: true }))).toBeNull();
    expect(resultAction(key('Enter', { altKey: true }))).toBeNull();
    expect(resultAction(key('p'))).toBeNull();
  });
});

describe('the search box', () => {
  it('lets go of the keyboard on Esc, so that shortcuts work again', () => {
    const box = document.createElement('input');
    box.type = 'search';
    expect(searchBoxKey(key('Escape', { target: box }))).toBe('leave');
    expect(searchBoxKey(key('ArrowDown', { target: box }))).toBe('results');
    expect(searchBoxKey(key('PageDown', { target: box }))).toBe('results');
    expect(searchBoxKey(key('Enter', { target: box, ctrlKey: true }))).toBe('external');
    expect(searchBoxKey(key('Enter', { target: box }))).toBeNull();
    // Typed in the box, j, g and l are words; out of it, j goes to the results and g l to the library.
    for (const k of ['j', 'k', 'o', 'g', 'l']) expect(searchBoxKey(key(k, { target: box }))).toBeNull();
    expect(intoResults(key('j', { target: box }))).toBe(false);
    expect(intoResults(key('j'))).toBe(true);
    expect(intoResults(key('ArrowDown'))).toBe(true);
    expect(intoResults(key('j', { ctrlKey: true }))).toBe(false);
    let r = globalShortcut(key('g'), 0, 1000);
    r = globalShortcut(key('l'), r.chordAt, 1100);
    expect(r.action).toBe('go-library');
  });

  it('is named in the list of keys, with j and k', () => {
    const all = shortcuts.flatMap((s) => s.keys);
    expect(all).toEqual(expect.arrayContaining(['j', 'k', 'Esc', '/', '?']));
    expect(shortcuts.find((s) => s.keys.includes('Esc'))?.what).toMatch(/leave the search box/i);
  });

  it('names the library\'s undo and redo keys', () => {
    const all = shortcuts.flatMap((s) => s.keys);
    expect(all).toEqual(expect.arrayContaining(['Ctrl+Z', 'Ctrl+Shift+Z', 'Ctrl+Y']));
  });
});

// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { maxNote, noteOf, readPage, snapshotPage } from '../src/page';

describe('page', () => {
  it('reads the title and the selection, and the DOM as it is now', () => {
    document.title = 'A <page>';
    document.body.innerHTML = '<p id="a">first paragraph</p><p id="b">second one</p>';
    const built = document.createElement('section');
    built.textContent = 'made by a script';
    document.body.append(built);
    const r = document.createRange();
    r.setStart(document.getElementById('a')!.firstChild!, 6);
    r.setEnd(document.getElementById('b')!.firstChild!, 6);
    window.getSelection()!.removeAllRanges();
    window.getSelection()!.addRange(r);
    expect(readPage()).toEqual({ title: 'A <page>', selection: 'paragraphsecond' });
    const s = snapshotPage();
    expect(s.selection).toBe('paragraphsecond');
    expect(s.dom).toMatch(/<section>made by a script<\/section>/);
    expect(s.dom.startsWith('<html>') || s.dom.startsWith('<!DOCTYPE html>')).toBe(true);
  });
  it('makes a note of a selection', () => {
    expect(noteOf('  one  \r\n\r\n\r\n\r\n  two\u00a0 three ')).toBe('one\n\ntwo three');
    const long = noteOf('x'.repeat(maxNote + 10));
    expect(long.length).toBe(maxNote);
    expect(long.endsWith('…')).toBe(true);
  });
});

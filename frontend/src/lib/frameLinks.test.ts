import { describe, expect, it } from 'vitest';
import { anchorTarget, frameLink, linkOf } from './frameLinks';

function link(html: string): HTMLAnchorElement {
  const d = document.implementation.createHTMLDocument('');
  const div = d.createElement('div');
  div.innerHTML = html; // the test's own markup, parsed in a detached document
  return div.querySelector('a') as HTMLAnchorElement;
}

describe('frameLink', () => {
  it('opens a held page, its version and fragment', () => {
    expect(frameLink(link('<a href="http://a.test/x.html#sec%202" data-mundaneum-page="12" data-mundaneum-version="3">x</a>'))).toEqual({
      kind: 'page',
      page: 12,
      version: 3,
      fragment: 'sec 2',
      url: 'http://a.test/x.html#sec%202',
    });
    expect(frameLink(link('<a href="https://a.test/" data-mundaneum-page="7">x</a>'))).toMatchObject({ page: 7, version: 0, fragment: '' });
  });

  it('scrolls to an anchor in the document', () => {
    expect(frameLink(link('<a href="http://a.test/#top" data-mundaneum-anchor="top">x</a>'))).toEqual({ kind: 'anchor', id: 'top' });
  });

  it('offers the choice for a missing page, with its words', () => {
    expect(frameLink(link('<a href="http://b.test/y" data-mundaneum-missing="" data-mundaneum-known="9"> the   other\npage </a>'))).toEqual({
      kind: 'missing',
      url: 'http://b.test/y',
      known: 9,
      text: 'the other page',
    });
  });

  it('refuses what is not http(s) or not a number', () => {
    for (const html of [
      '<a href="javascript:alert(1)" data-mundaneum-page="12">x</a>',
      '<a href="data:text/html,x" data-mundaneum-missing="">x</a>',
      '<a href="file:///etc/passwd" data-mundaneum-missing="">x</a>',
      '<a href="/relative" data-mundaneum-page="3">x</a>',
      '<a href="http://a.test/">unmarked</a>',
    ]) {
      expect(frameLink(link(html))).toBeNull();
    }
    expect(frameLink(link('<a href="http://a.test/" data-mundaneum-page="1e3" data-mundaneum-missing="">x</a>'))).toMatchObject({ kind: 'missing' });
    expect(frameLink(link('<a href="http://a.test/" data-mundaneum-page="12" data-mundaneum-version="-1">x</a>'))).toMatchObject({ version: 0 });
  });
});

describe('linkOf and anchorTarget', () => {
  it('find the link around a click and the element an anchor names', () => {
    const d = document.implementation.createHTMLDocument('');
    d.body.innerHTML = '<p id="p"><a href="http://a.test/"><b id="b">bold</b></a></p><a name="old">o</a><h2 id="new">n</h2>';
    expect(linkOf(d.getElementById('b'))?.getAttribute('href')).toBe('http://a.test/');
    expect(linkOf(d.getElementById('p'))).toBeNull();
    expect(linkOf(null)).toBeNull();
    expect(anchorTarget(d, 'new')?.tagName).toBe('H2');
    expect(anchorTarget(d, 'old')?.tagName).toBe('A');
    expect(anchorTarget(d, 'none')).toBeNull();
  });
});

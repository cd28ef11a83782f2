import { describe, expect, it } from 'vitest';
import { bookmarklet, bookmarkletCode, maxSelection } from './bookmarklet';
import { formatRoute, parseHash } from './routes';

describe('bookmarklet', () => {
  it("opens serve's add form filled in with the page's address, title and selection", () => {
    const opened: [string, string, string][] = [];
    const page = {
      location: { href: 'https://news.example/a?b=1&c=%20#frag' },
      document: { title: 'A “title” & <b>markup</b>' },
      getSelection: () => 'the selected sentence, with & and = and #',
      open: (u: string, t: string, f: string) => opened.push([u, t, f]),
    };
    // The code runs in the page: its free names are the page's globals.
    new Function('location', 'document', 'getSelection', 'open', bookmarkletCode('http://127.0.0.1:7343'))(
      page.location, page.document, page.getSelection, page.open,
    );
    expect(opened).toHaveLength(1);
    const [u, target, features] = opened[0]!;
    expect(target).toBe('_blank');
    expect(features).toBe('noopener');
    const url = new URL(u);
    expect(url.origin).toBe('http://127.0.0.1:7343');
    expect(url.pathname).toBe('/');
    expect(parseHash(url.hash)).toEqual({
      name: 'add',
      url: 'https://news.example/a?b=1&c=%20#frag',
      title: 'A “title” & <b>markup</b>',
      notes: 'the selected sentence, with & and = and #',
    });
  });

  it('cuts a long selection', () => {
    let opened = '';
    new Function('location', 'document', 'getSelection', 'open', bookmarkletCode('http://127.0.0.1:7343'))(
      { href: 'https://x.example/' }, { title: '' }, () => 'x'.repeat(maxSelection * 3), (u: string) => (opened = u),
    );
    const r = parseHash(new URL(opened).hash);
    expect(r.name === 'add' && r.notes.length).toBe(maxSelection);
  });

  it('is a javascript: address that decodes to its code', () => {
    const b = bookmarklet('http://localhost:8080');
    expect(b.startsWith('javascript:(()=>{')).toBe(true);
    expect(decodeURIComponent(b.slice('javascript:'.length))).toBe(bookmarkletCode('http://localhost:8080'));
  });

  it("the add form's route round-trips and bounds what it takes", () => {
    const r = { name: 'add' as const, url: 'https://x.example/?q=a&b', title: 't & u', notes: 'line\nline' };
    expect(parseHash(formatRoute(r))).toEqual(r);
    const long = parseHash('#/add?title=' + 'x'.repeat(5000));
    expect(long.name === 'add' && long.title.length).toBe(1000);
  });
});

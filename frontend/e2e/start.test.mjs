// End to end, the first hour (issue 28 items 2, 5, 6, 10), in headless chromium on `mundaneum
// serve` with a fresh workspace: it opens on the start page, which says it is empty and
// crawls a site from one box with the window's limits; the Search view says what to do first
// until the first crawl; Esc lets go of the search box so that g l reaches the library; and
// the crawl's links to style sheets and other sites are named as recorded, not as skipped.
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { apiClient, launchBrowser, shotDir, startApp, tempDir, until, watch } from './harness.mjs';

let tmp, app, api, browser, page, seen, site;

/** Two pages, a style sheet and a link to another site: 2 pages, 2 links recorded. */
function smallSite() {
  const server = http.createServer((req, res) => {
    const html = (title, body) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>${title}</title><link rel="stylesheet" href="/s.css">${body}`);
    };
    if (req.url === '/') html('Quillwort home', '<p>Start here.</p><a href="/a">about quillworts</a> <a href="https://elsewhere.example/">elsewhere</a>');
    else if (req.url === '/a') html('About quillworts', '<p>Quillworts are lycophytes.</p>');
    else if (req.url === '/s.css') res.writeHead(200, { 'Content-Type': 'text/css' }).end('p{}');
    else res.writeHead(404).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() })),
  );
}

before(async () => {
  tmp = await tempDir('mundaneum-e2e-start-');
  site = await smallSite();
  app = await startApp(tmp.dir);
  api = await apiClient(app);
  browser = await launchBrowser(tmp.dir);
  page = await browser.context.newPage();
  page.setDefaultTimeout(10000);
  seen = await watch(page);
  await mkdir(shotDir, { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.stop();
  site?.close();
  await tmp?.cleanup();
});

const nav = (name) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });

test('an empty workspace opens on the start page, with the three ways in', async () => {
  await page.goto(app.url);
  await page.getByRole('heading', { name: 'Start', level: 2 }).waitFor();
  await page.waitForURL(/#\/start$/);
  await page.getByText(/This workspace is empty/).waitFor();
  await page.getByRole('textbox', { name: 'Address of the site to crawl' }).waitFor();
  await page.getByText('Stops after 2,000 pages or 1 h, 5 links deep at most.', { exact: false }).waitFor();
  await page.getByRole('button', { name: 'Import bookmarks…' }).waitFor();
  assert.equal(await page.getByRole('main').getByRole('link', { name: 'Open the library' }).getAttribute('href'), '#/library');
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(shotDir, 'start.png') });
});

test('Search says what to do first; Esc leaves the box, and g l then goes to the library', async () => {
  await nav(/search/i).click();
  const box = page.getByRole('searchbox', { name: 'Search query' });
  await until(() => box.evaluate((el) => el === document.activeElement), { what: 'the search box to have the keyboard' });
  const hint = page.getByText(/Nothing crawled yet/);
  await hint.waitFor();
  assert.equal(await hint.getByRole('link').getAttribute('href'), '#/start');
  await page.keyboard.type('quill');
  await page.keyboard.press('Escape');
  assert.equal(await box.evaluate((el) => el === document.activeElement), false, 'Esc left the keyboard in the box');
  assert.equal(await box.inputValue(), 'quill', 'Esc emptied the query');
  await page.keyboard.press('g');
  await page.keyboard.press('l');
  await page.waitForURL(/#\/library$/);
  assert.equal(await page.evaluate(() => document.activeElement?.value ?? ''), '');
});

test('the start page crawls a site from one box, bounded; its recorded links are not called skipped', async () => {
  await page.getByRole('link', { name: 'Start page' }).click();
  await page.waitForURL(/#\/start$/);
  await page.getByRole('textbox', { name: 'Address of the site to crawl' }).fill(site.url);
  await page.getByRole('button', { name: 'Crawl', exact: true }).click();
  await page.waitForURL(/#\/crawls\/\d+$/);
  const crawls = await api.call('Crawls');
  assert.equal(crawls.length, 1);
  assert.deepEqual([crawls[0].seeds, crawls[0].maxPages, crawls[0].maxSeconds], [[site.url], 2000, 3600]);
  const card = page.getByRole('listitem', { name: /^Crawl \d+:/ });
  await card.getByText(/^done$/).waitFor({ timeout: 30000 });
  await until(async () => /2\s*fetched/.test(await card.textContent()), { what: 'the card to count 2 pages' });
  const text = (await card.textContent()).replace(/\s+/g, ' ');
  assert.match(text, /0 skipped/);
  assert.match(text, /2 links recorded, not pages/);
  // The status line says the same, with no skipped count.
  const statusLine = page.locator('footer.status');
  await until(async () => /2 links recorded, not pages/.test((await statusLine.textContent()) ?? ''), { what: 'the status line to name the recorded links' });
  assert.doesNotMatch(await statusLine.textContent(), /skipped/);
  // The recorded links are a filter of their own in the crawl's pages.
  await page.getByRole('radio', { name: 'recorded, not pages' }).click();
  await page.waitForURL(/state=recorded$/);
  const rows = page.getByRole('table', { name: /^Pages of crawl/ }).locator('tbody tr');
  await until(async () => (await rows.count()) === 2, { what: 'the two recorded links' });
  assert.deepEqual(await rows.locator('td:nth-child(2)').allTextContents(), ['recorded, not a page', 'recorded, not a page']);

  // After the first crawl, Search has no hint.
  await nav(/search/i).click();
  await page.getByRole('searchbox', { name: 'Search query' }).waitFor();
  assert.equal(await page.getByText(/Nothing crawled yet/).count(), 0);
  assert.deepEqual(seen.errors, []);
});

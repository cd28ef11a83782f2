// End to end in a real browser: a crawl downloads a PDF linked from a page, and a search
// for a word only its text holds shows it with its title, author and page count; its
// offline copy shows the summary's attributes, and the PDF's bytes never reach the window:
// "Open in PDF viewer" shows them in a tab of its own, sandboxed, by a ticket.
// `make e2e SCREENSHOTS=1` writes docs/screenshots/pdf-result.png and pdf-viewer.png.
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { apiClient, launchBrowser, shotDir, startApp, tempDir, until, watch } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
let tmp, app, api, browser, page, server, base, pdf;

before(async () => {
  tmp = await tempDir('mundaneum-e2e-documents-');
  pdf = await readFile(path.join(here, '../../backend/summary/testdata/paper.pdf'));
  server = http.createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      return res.end('<!doctype html><title>Papers</title><a href="paper.pdf">the paper on the card index</a>');
    }
    if (req.url === '/paper.pdf') {
      res.writeHead(200, { 'Content-Type': 'application/pdf' });
      return res.end(pdf);
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
  await watch(page);
  await mkdir(shotDir, { recursive: true });
});

after(async () => {
  await browser?.close();
  const code = await app?.stop();
  await new Promise((r) => server?.close(r));
  await tmp?.cleanup();
  assert.equal(code, 0, `mundaneum serve exited with ${code}:\n${app?.output()}`);
});

test('a PDF result shows its title, author and pages', async () => {
  await api.call('StartCrawl', { seeds: [base], scope: 'site', maxDepth: 0, maxPages: 0, maxSeconds: 0, agents: 0, perHost: 0,
    delayMs: 0, refresh: false, rules: '', types: ['pdf'] });
  await until(async () => (await api.call('Search', { query: 'quoxilated', offset: 0, limit: 10, facets: false })).results.length > 0,
    { timeout: 30000, what: 'the PDF to be searchable' });
  await page.goto(`${app.url}#/search?q=quoxilated`);
  const result = page.locator('li.result').first();
  await until(async () => (await result.count()) > 0, { what: 'the result' });
  const text = await result.innerText();
  assert.match(text, /A planted paper/);
  assert.match(text, /by Paul Otlet/);
  assert.match(text, /12 pages/);
  assert.match(text, /pdf/);
  await page.setViewportSize({ width: 1100, height: 520 });
  await page.screenshot({ path: path.join(shotDir, 'pdf-result.png') });
  // The offline copy is the summary's text and attributes, never the PDF itself.
  await result.getByRole('link', { name: 'offline copy' }).click();
  const attrs = page.getByLabel('Summary attributes');
  await until(async () => (await attrs.count()) > 0, { what: 'the summary attributes' });
  assert.match(await attrs.innerText(), /pdf[\s\S]*author[\s\S]*Paul Otlet[\s\S]*pages[\s\S]*12/);
  assert.equal(await page.locator('embed, object').count(), 0);
});

test('in serve, the offline PDF opens in a tab of its own, sandboxed, by a ticket', async () => {
  // The offline copy of the previous test is on screen.
  const button = page.getByRole('button', { name: 'Open in PDF viewer' });
  await until(async () => (await button.count()) > 0, { what: 'the PDF viewer button' });
  const served = browser.context.waitForEvent('response', { predicate: (r) => r.url().includes('/document?ticket=') });
  const [tab] = await Promise.all([browser.context.waitForEvent('page'), button.click()]);
  const res = await served;
  assert.equal(res.status(), 200);
  // headersArray: headers() splits a policy at its semicolons.
  const h = Object.fromEntries((await res.headersArray()).map((x) => [x.name.toLowerCase(), x.value]));
  assert.equal(h['content-type'], 'application/pdf');
  assert.match(h['content-security-policy'], /^sandbox;/);
  assert.equal(h['x-content-type-options'], 'nosniff');
  assert.equal(h['cache-control'], 'no-store');
  // (The viewer takes the navigation's body; the ticket lets its PDF be read again awhile.)
  const again = await fetch(res.url());
  assert.equal(again.status, 200);
  assert.ok(Buffer.from(await again.arrayBuffer()).equals(pdf), 'the ticket serves the stored PDF, byte for byte');
  // The tab's address holds a ticket, never the door's token; it has no handle on the app.
  assert.ok(!tab.url().includes(api.token), tab.url());
  assert.equal(await tab.evaluate(() => window.opener), null);
  await tab.setViewportSize({ width: 1100, height: 520 });
  // The viewer draws in a process of its own, with no DOM to wait on: wait until what it
  // shows has something drawn (a frame of one colour compresses to under 4 KiB) and stays
  // the same between two looks (a fixed wait left it blank on a busy machine).
  let last = Buffer.alloc(0);
  const drawn = await until(
    async () => {
      const now = await tab.screenshot();
      const settled = now.length > 4096 && now.equals(last);
      last = now;
      return settled && now;
    },
    { timeout: 30000, interval: 500, what: 'the PDF viewer to draw the first page' },
  );
  await writeFile(path.join(shotDir, 'pdf-viewer.png'), drawn);
  await tab.close();
  // A ticket names one PDF: a made-up one opens nothing, and only the token issues one.
  assert.equal((await fetch(`${app.url}document?ticket=made-up`)).status, 404);
  const id = new URL(res.url()).searchParams.get('ticket');
  assert.ok(id && id.length >= 32);
  assert.equal((await fetch(`${app.url}files/document?id=1`, { method: 'POST' })).status, 403);
});

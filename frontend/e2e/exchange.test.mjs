// End to end in a real browser, two real `mundaneum serve` processes on loopback: A crawls
// a site and issues a read-only token; in B's window the token and A's address are added
// as a source in Settings and pulled (with its progress); B's search then finds A's page,
// marked with where it came from, and a revoked token is refused.
// `make e2e SCREENSHOTS=1` writes docs/screenshots/exchange.png.
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { apiClient, domOffences, launchBrowser, shotDir, startApp, tempDir, until, watch } from './harness.mjs';

let tmpA, tmpB, a, b, apiA, apiB, browser, page, seen, server, base;

before(async () => {
  tmpA = await tempDir('mundaneum-e2e-exchange-a-');
  tmpB = await tempDir('mundaneum-e2e-exchange-b-');
  server = http.createServer((req, res) => {
    const pages = {
      '/': '<title>Otlet\'s papers</title><a href="/rep.html">the repertory</a>',
      '/rep.html': '<title>The Universal Bibliographic Repertory</title><p>Filed by the decimal classification: <b>quinquagenary</b> cards.</p>',
    };
    if (pages[req.url]) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      return res.end(pages[req.url]);
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}/`;
  a = await startApp(tmpA.dir);
  b = await startApp(tmpB.dir);
  apiA = await apiClient(a);
  apiB = await apiClient(b);
  browser = await launchBrowser(tmpB.dir);
  page = await browser.context.newPage();
  page.setDefaultTimeout(20000);
  seen = await watch(page);
  await mkdir(shotDir, { recursive: true });
});

after(async () => {
  await browser?.close();
  const codes = [await a?.stop(), await b?.stop()];
  await new Promise((r) => server?.close(r));
  await tmpA?.cleanup();
  await tmpB?.cleanup();
  assert.deepEqual(codes, [0, 0], `serve exited with ${codes}:\n${a?.output()}\n${b?.output()}`);
});

test('a source added and pulled in Settings is searchable, marked with its source', async () => {
  await apiA.call('StartCrawl', { seeds: [base], scope: 'site', maxDepth: 0, maxPages: 0, maxSeconds: 0, agents: 0, perHost: 0, delayMs: 0, refresh: false, rules: '' });
  await until(async () => (await apiA.call('Crawls'))[0]?.state === 'done', { timeout: 30000, what: 'the crawl on A' });
  const token = await apiA.call('IssueExchangeToken', "B's window");
  assert.match(token.secret, /^mdx_/);

  await page.goto(`${b.url}#/settings`);
  const panel = page.getByRole('group', { name: /Exchange with other instances/ });
  await panel.getByLabel('Source address').fill(a.url);
  await panel.getByLabel('Source token').fill(token.secret);
  await panel.getByRole('button', { name: 'Add the source' }).click();
  const sources = panel.getByRole('list', { name: 'Sources' });
  await until(async () => (await sources.locator('li').count()) === 1, { what: 'the source listed' });
  await sources.getByRole('button', { name: 'Pull changes' }).click();
  await until(async () => /2 summaries received, 2 new or changed/.test(await sources.textContent()), { timeout: 30000, what: 'the pull to end' });
  await panel.getByLabel('Token for whom').fill('Ana');
  await panel.getByRole('button', { name: 'Issue a token' }).click();
  await until(async () => /Give it to them now/.test(await panel.textContent()), { what: 'a token issued in the window' });
  await panel.screenshot({ path: path.join(shotDir, 'exchange.png') });

  await page.goto(`${b.url}#/search?q=quinquagenary`);
  const item = page.locator('li', { hasText: 'The Universal Bibliographic Repertory' }).first();
  await until(async () => (await item.count()) === 1, { what: 'the pulled page found' });
  assert.match(await item.locator('.chip.source').textContent(), /from Mundaneum workspace/);
  await item.screenshot({ path: path.join(shotDir, 'exchange-result.png') });

  // A revoked token is refused: the pull fails and says so.
  await apiA.call('RevokeExchangeToken', token.id);
  await page.goto(`${b.url}#/settings`);
  await sources.getByRole('button', { name: 'Pull changes' }).click();
  await until(async () => /Pull failed: .*403/.test(await sources.textContent()), { timeout: 30000, what: 'the refused pull' });
  const [src] = await apiB.call('Sources');
  assert.equal(src.summaries, 2);
  assert.deepEqual(await domOffences(page), []);
  assert.deepEqual(seen.errors, []);
});

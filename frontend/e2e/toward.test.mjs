// End to end, the live-web search (issue 14, WebCrawler's real-time search), in headless
// chromium on `mundaneum serve`: from the search view, "Search the live web…" opens the crawl
// form with the query to crawl toward and the best results as seeds; starting it opens the
// crawl's view, whose live results fill with the matching pages, ranked by the index.
import assert from 'node:assert/strict';
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { apiClient, launchBrowser, shotDir, startApp, tempDir, until, watch } from './harness.mjs';
import { startSite } from './site.mjs';

let tmp, app, api, browser, page, site;

before(async () => {
  tmp = await tempDir('mundaneum-e2e-toward-');
  site = await startSite();
  app = await startApp(tmp.dir);
  site.setAppURL?.(app.url);
  api = await apiClient(app);
  browser = await launchBrowser(tmp.dir);
  page = await browser.context.newPage();
  page.setDefaultTimeout(15000);
  await watch(page);
  await mkdir(shotDir, { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.stop();
  site?.close();
  await tmp?.cleanup();
});

test('search the live web from the search view', async () => {
  // A first crawl, so that the index has results to start from.
  const first = await api.call('StartCrawl', { seeds: [site.url], scope: 'site', maxDepth: 1, delayMs: 0 });
  await until(async () => (await api.call('Crawls')).find((c) => c.id === first.id)?.state === 'done', {
    timeout: 60000,
    what: 'the first crawl to finish',
  });

  await page.goto(app.url);
  const box = page.getByRole('searchbox', { name: 'Search query' });
  await box.fill('otlet catalogue');
  await box.press('Enter');
  await page.getByRole('list', { name: 'Results' }).getByRole('listitem').first().waitFor();
  await page.getByRole('button', { name: /search the live web/i }).click();

  const form = page.getByRole('form', { name: 'New crawl' });
  const toward = form.getByRole('searchbox', { name: /toward/i });
  assert.equal(await toward.inputValue(), 'otlet catalogue');
  const seeds = (await form.getByRole('textbox', { name: /seeds/i }).inputValue()).split('\n');
  assert.ok(seeds.length >= 1 && seeds.every((s) => s.startsWith(site.url)), `seeds: ${seeds}`);
  await form.getByRole('button', { name: /start crawl/i }).click();

  // The crawl's own view, with its live results.
  await page.waitForURL(/#\/crawls\/\d+/);
  const live = page.getByRole('region', { name: /live web search/i });
  await live.waitFor();
  const items = live.getByRole('listitem');
  await until(async () => (await items.count()) >= 3, { timeout: 60000, what: 'three live results' });
  const crawls = await api.call('Crawls');
  const mine = crawls.find((c) => c.toward === 'otlet catalogue');
  assert.ok(mine, 'the crawl keeps its query');
  await until(async () => (await api.call('Crawls')).find((c) => c.id === mine.id)?.state === 'done', {
    timeout: 60000,
    what: 'the live-web crawl to finish',
  });
  await page.waitForTimeout(2500); // the last refresh of the live results
  const text = await live.textContent();
  assert.match(text, /matching pages? so far/);
  assert.match(text, /Otlet/);
  await page.screenshot({ path: path.join(shotDir, 'live-web-search.png'), fullPage: false });
});

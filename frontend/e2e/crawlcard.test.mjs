// End to end, the crawl form and card (issue 18, items 14-17), in headless chromium on
// `mundaneum serve` with a workspace of its own: a failed seed says what failed and why; the
// form takes any sensible number and says what is wrong with the others, starting from the
// backend's defaults; the bar never moves back and shows the URL being fetched; Cancel asks
// first.
import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { apiClient, launchBrowser, shotDir, startApp, tempDir, until, watch } from './harness.mjs';
import { linkedSite } from './site.mjs';

let tmp, app, api, browser, page, seen, slow;

/** A port nothing listens on. */
function closedPort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = s.address().port;
      s.close(() => resolve(port));
    });
  });
}

before(async () => {
  tmp = await tempDir('mundaneum-e2e-card-');
  slow = await linkedSite(400, { page: (i) => `<title>Slow page ${i}</title><p>patience number ${i}</p>`, delayMs: 150 });
  app = await startApp(tmp.dir);
  api = await apiClient(app);
  browser = await launchBrowser(tmp.dir);
  page = await browser.context.newPage();
  page.setDefaultTimeout(10000);
  seen = await watch(page);
  await mkdir(shotDir, { recursive: true });
  await page.goto(app.url);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /crawls/i }).click();
});

after(async () => {
  await browser?.close();
  await app?.stop();
  slow?.close();
  await tmp?.cleanup();
});

const form = () => page.getByRole('form', { name: 'New crawl' });
const field = (name) => form().getByRole('spinbutton', { name });

async function startFromForm(seed, fill = {}) {
  await form().getByRole('textbox', { name: /^seeds/i }).fill(seed);
  for (const [name, value] of Object.entries(fill)) await field(new RegExp(name, 'i')).fill(value);
  await form().getByRole('button', { name: /start crawl/i }).click();
}

function card(seed) {
  return page.getByRole('listitem', { name: new RegExp(`^Crawl \\d+: ${seed.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`) });
}

test('the form starts from the backend defaults and takes any sensible number', async () => {
  const defaults = await api.call('CrawlDefaults');
  assert.equal(defaults.maxPages, 0);
  assert.equal(defaults.delayMs, 1000);
  // The CLI's limits are none; the window's crawls start bounded, and the form says so
  // (issue 28 item 5). Politeness placeholders: the workspace's settings. The form fills
  // its fields once the backend's defaults have come: the summary says when.
  await form().getByText('Stops after 2,000 pages or 1 h, 5 links deep at most.').waitFor();
  assert.equal(await field(/max pages/i).inputValue(), '2000');
  assert.equal(await field(/depth/i).inputValue(), '5');
  assert.equal(await field(/time limit/i).inputValue(), '60');
  assert.equal(await field(/delay/i).getAttribute('placeholder'), '1000');
  assert.equal(await field(/pages per host/i).getAttribute('placeholder'), String(defaults.maxPerHost));

  // Clear messages instead of WebKit's "Enter a valid value".
  await form().getByRole('textbox', { name: /^seeds/i }).fill(slow.url);
  await field(/depth/i).fill('-2');
  await field(/max pages/i).fill('2.5');
  await form().getByRole('button', { name: /start crawl/i }).click();
  const alert = form().getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.textContent(), /Depth cannot be negative \(0 means no limit\)\. Max pages must be a whole number\./);
  assert.equal((await api.call('Crawls')).length, 0, 'a crawl started from an invalid form');
  await field(/depth/i).fill('');

  // 50 ms, 250 pages, 7 minutes: all refused by the browser before, all fine now.
  await startFromForm(slow.url, { 'delay': '50', 'max pages': '250', 'time limit': '7' });
  const c = await until(async () => (await api.call('Crawls'))[0], { what: 'the crawl to start' });
  assert.equal(c.maxPages, 250);
  assert.equal(c.maxSeconds, 420);
});

test('the bar never moves back, shows the URL being fetched, and Cancel asks first', async () => {
  const row = card(slow.url);
  const bar = row.getByRole('progressbar');
  const samples = [];
  await until(
    async () => {
      const now = await bar.getAttribute('aria-valuenow', { timeout: 1000 }).catch(() => null);
      if (now !== null) samples.push(Number(now));
      const text = await row.textContent({ timeout: 1000 }).catch(() => '');
      const m = text.match(/http:\/\/127\.0\.0\.1:\d+\/p\/\d+/);
      // For the screenshot: the URL being fetched and some pages stored, at once.
      return m && /[1-9][\d,]* fetched/.test(text) && samples.length >= 5 && samples.at(-1) > 0;
    },
    { timeout: 30000, what: 'a few progress samples and the URL being fetched' },
  );
  assert.ok(samples.every((v, i) => i === 0 || v >= samples[i - 1]), `progress went backwards: ${samples}`);
  // The card alone: below the form, a screenshot of the window would cut it off.
  await row.screenshot({ path: path.join(shotDir, 'crawl-card.png') });

  // Cancel asks; "Keep it" keeps the crawl running.
  await row.getByRole('button', { name: 'Cancel…' }).click();
  const confirm = row.getByRole('alertdialog', { name: 'Cancel this crawl?' });
  await confirm.waitFor();
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  assert.equal(await confirm.count(), 0);
  assert.equal((await api.call('Crawls'))[0].state, 'running');
  await row.getByRole('button', { name: 'Cancel…' }).click();
  await row.getByRole('alertdialog').getByRole('button', { name: 'Cancel crawl' }).click();
  await until(async () => (await api.call('Crawls'))[0].state === 'cancelled', { what: 'the crawl to be cancelled' });
  await row.getByText(/^cancelled$/).waitFor();
});

test('a crawl without a limit has no percentage: its queue grows', async () => {
  // The first test left a page and a time limit in the form: one click lifts them all.
  await form().getByRole('button', { name: 'Lift the limits' }).click();
  await form().getByText(/^No limits: the crawl follows the site to its end/).waitFor();
  assert.equal(await field(/max pages/i).inputValue(), '');
  await startFromForm(`${slow.url}p/1`, { 'delay': '0' });
  const row = card(`${slow.url}p/1`);
  const bar = row.getByRole('progressbar');
  await row.getByText(/^running$/).waitFor();
  assert.equal(await bar.getAttribute('aria-valuenow'), null);
  assert.match(await bar.getAttribute('aria-valuetext'), /pages visited, [\d,]+ to visit/);
  await row.getByRole('button', { name: 'Pause' }).click();
  await row.getByText(/^paused$/).waitFor();
});

test('a failed seed says what failed and why, and no rate', async () => {
  const port = await closedPort();
  for (const [seed, why] of [
    [`http://127.0.0.1:${port}/`, /connection refused/],
    ['notaurl', /DNS name not found/],
  ]) {
    await startFromForm(seed, { 'delay': '0' });
    const label = seed.includes('://') ? seed : `http://${seed}/`;
    const row = card(label);
    await row.getByText(/^failed$/).waitFor({ timeout: 45000 });
    const text = await row.textContent();
    assert.match(text, /no seed could be reached/);
    assert.match(text, why);
    assert.doesNotMatch(text, /pages\/s/, 'a failed crawl shows a rate');
    assert.match(text, /Try again/);
  }
  await card('http://notaurl/').screenshot({ path: path.join(shotDir, 'crawl-failed.png') });
  assert.deepEqual(seen.errors, []);
});

// End to end in a real browser: `mundaneum serve` on a fresh workspace, Debian's chromium,
// and a local site with hostile pages. Crawl it from the form, watch the progress bar reach
// the end, search, and check that nothing crawled ever runs, becomes markup, or reaches
// the API. Run with `make e2e` (it builds the binary first).
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { apiClient, domOffences, launchBrowser, reboundHost, shotDir, startApp, tempDir, until, watch } from './harness.mjs';
import { marker, startSite } from './site.mjs';

let tmp, site, app, api, browser, page, seen;

before(async () => {
  tmp = await tempDir('mundaneum-e2e-');
  site = await startSite();
  app = await startApp(tmp.dir);
  site.setAppURL(app.url);
  api = await apiClient(app);
  browser = await launchBrowser(tmp.dir);
  page = await browser.context.newPage();
  page.setDefaultTimeout(10000);
  seen = await watch(page);
  await mkdir(shotDir, { recursive: true });
});

after(async () => {
  await browser?.close();
  const code = await app?.stop();
  await site?.close();
  await tmp?.cleanup();
  // Ctrl-C or SIGTERM is how a server stops: a clean exit, crawls paused.
  assert.equal(code, 0, `mundaneum serve exited with ${code}:\n${app?.output()}`);
});

/** Opens a view by its navigation entry, if the app has one (a single-page app has none). */
async function view(name) {
  const nav = page.getByRole('navigation').getByRole('link', { name }).or(page.getByRole('navigation').getByRole('button', { name }));
  if ((await nav.count()) > 0) await nav.first().click();
}

async function searchFor(q) {
  await view(/search/i);
  const box = page.getByRole('searchbox').first();
  await box.fill(q);
  await box.press('Enter');
}

/** The result links shown for the current search. */
function resultLinks() {
  return page.getByRole('region', { name: /search/i }).getByRole('link');
}

/** Waits until at least min results for q are shown (not those of the previous search). */
async function awaitResults(q, min) {
  await until(
    async () => {
      const marks = await page.locator('mark').allTextContents();
      const fresh = marks.length > 0 && marks.every((m) => m.toLowerCase().includes(q.toLowerCase()));
      return fresh && (await resultLinks().count()) >= min;
    },
    { what: `${min} results for "${q}"` },
  );
}

test('the page has the bridge and runs clean', async () => {
  const res = await page.goto(app.url);
  assert.equal(res.status(), 200);
  assert.equal(await page.evaluate(() => typeof window.go?.app?.App?.StartCrawl), 'function');
  assert.equal(await page.evaluate(() => typeof window.runtime?.EventsOn), 'function');
  await page.getByRole('heading', { name: 'Mundaneum', level: 1 }).waitFor();
  // The page talks to the backend: a bound call round trip.
  const status = await page.evaluate(() => window.go.app.App.Status());
  assert.equal(status.path, app.db);
  // Errors arrive as Wails sends them: a string holding {"code", "message"}. (In another
  // tab: the browser logs the 404 to the console, and the app page's console must stay clean.)
  const other = await browser.context.newPage();
  await other.goto(app.url);
  const err = await other.evaluate(() => window.go.app.App.ResumeCrawl(987654).then(() => 'resolved', (e) => e));
  assert.equal(typeof err, 'string');
  assert.equal(JSON.parse(err).code, 'not-found');
  // The runtime's event functions behave as Wails' do.
  const calls = await other.evaluate(() => {
    const got = [];
    const rt = window.runtime;
    const off = rt.EventsOn('t:a', (x, y) => got.push(`on ${x} ${y}`));
    rt.EventsOnce('t:a', (x) => got.push(`once ${x}`));
    rt.EventsOnMultiple('t:b', (x) => got.push(`twice ${x}`), 2);
    rt.EventsEmit('t:a', 1, 2);
    rt.EventsEmit('t:a', 3);
    off();
    rt.EventsEmit('t:a', 4);
    for (const i of [1, 2, 3]) rt.EventsEmit('t:b', i);
    rt.EventsOn('t:c', () => got.push('c'));
    rt.EventsOff('t:c');
    rt.EventsEmit('t:c');
    return got;
  });
  assert.deepEqual(calls, ['on 1 2', 'once 1', 'on 3 undefined', 'twice 1', 'twice 2']);
  await other.close();
});

test('crawl from the form; the progress bar reaches the end', async () => {
  await page.evaluate(() => {
    window.__events = [];
    window.runtime.EventsOn('crawl:progress', (c) => window.__events.push(['progress', c.state, c.fetched]));
    window.runtime.EventsOn('crawl:done', (c) => window.__events.push(['done', c.state, c.fetched]));
  });
  await view(/crawl/i);
  await page.getByRole('textbox', { name: /^seeds/i }).fill(site.url);
  await page.getByRole('spinbutton', { name: /delay/i }).fill('0');
  const started = Date.now();
  await page.getByRole('button', { name: /start crawl/i }).click();

  const row = page.getByRole('listitem', { name: /^crawl \d+/i }).first();
  const bar = row.getByRole('progressbar');
  const state = row.getByText(/^(running|paused|done|cancelled|failed)$/);
  const samples = [];
  await until(
    async () => {
      const [now, st] = await Promise.all([bar.getAttribute('aria-valuenow', { timeout: 1000 }).catch(() => null), state.textContent({ timeout: 1000 }).catch(() => null)]);
      if (now !== null) samples.push(Number(now));
      return st === 'done' && now === '100';
    },
    { timeout: 30000, what: 'the crawl row to show done at 100%' },
  );
  const seconds = (Date.now() - started) / 1000;
  console.log(`# crawl of ${site.expectedPages} pages: done in the UI after ${seconds.toFixed(1)} s; progress samples ${[...new Set(samples)].join(' ')}`);
  assert.ok(samples.every((v, i) => i === 0 || v >= samples[i - 1] || samples[i - 1] === 100), `progress went backwards: ${samples}`);

  // The done event came over the event stream.
  const events = await until(() => page.evaluate(() => window.__events.filter((e) => e[0] === 'done')), { what: 'a crawl:done event' });
  assert.equal(events[0][1], 'done');

  const crawls = await api.call('Crawls');
  assert.equal(crawls.length, 1);
  assert.equal(crawls[0].state, 'done');
  assert.equal(crawls[0].fetched, site.expectedPages, JSON.stringify(crawls[0]));
  assert.match(await row.textContent(), new RegExp(`${site.expectedPages}\\s*fetched`));
});

test('search shows ranked results with highlights', async () => {
  await searchFor('catalogue');
  const links = resultLinks();
  await awaitResults('catalogue', 10);
  const marks = await page.locator('mark').allTextContents();
  assert.ok(marks.length >= 10, `only ${marks.length} highlights`);
  for (const m of marks) assert.match(m, /catalogue/i);
  const region = page.getByRole('region', { name: /search/i });
  assert.match(await region.textContent(), /\d+ results? in [\d.]+ ms/);
  await page.screenshot({ path: path.join(shotDir, 'main.png') });
});

test('hostile titles, anchor text, bodies and URLs stay text', async () => {
  await searchFor(marker);
  const links = resultLinks();
  await awaitResults(marker, 3);
  const text = await page.getByRole('region', { name: /search/i }).textContent();
  // The payloads are on screen, as text.
  assert.ok(text.includes(`"><img src=x onerror=`), 'the title payload is not shown as text');
  assert.ok(text.includes('<script>'), 'the script payload is not shown as text');
  // Give any image error handler or script a moment to have run, then look.
  await page.waitForTimeout(500);
  assert.deepEqual(await domOffences(page), []);
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.csp, []);
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  assert.deepEqual(site.beacons, [], 'a payload reached the beacon');
  // No result points anywhere but http(s).
  for (const href of await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))) {
    assert.match(href, /^https?:\/\//);
  }
});

test('a result opens only its http(s) page, in a new tab that cannot reach the app', async () => {
  const appURL = page.url();
  const link = resultLinks().filter({ hasText: 'hostile title' }).first();
  const href = await link.getAttribute('href');
  assert.equal(href, `${site.url}hostile.html`);
  const [popup] = await Promise.all([browser.context.waitForEvent('page'), link.click()]);
  const popupConsole = [];
  popup.on('console', (m) => popupConsole.push(m.text()));
  await popup.waitForLoadState('domcontentloaded');
  assert.equal(popup.url(), href);
  assert.equal(page.url(), appURL, 'the app window navigated');
  assert.equal(await popup.evaluate(() => window.opener), null, 'the crawled page can reach its opener');

  // The hostile page attacks the app from its own origin and reports.
  const report = await until(() => site.reports[0], { timeout: 15000, what: 'the attack report' });
  console.log(`# attacks from ${site.origin}: ${JSON.stringify(report)}`);
  for (const k of ['readIndex', 'callJSON', 'callWithGuessedToken', 'events', 'bridgeScript']) {
    assert.match(report[k], /^blocked/, `${k}: ${report[k]}`);
  }
  assert.doesNotMatch(JSON.stringify(report), new RegExp(api.token), 'the attacker saw the token');
  // The "simple" POST was sent but did nothing: still one crawl, none of the attacker's.
  const crawls = await api.call('Crawls');
  assert.equal(crawls.length, 1, JSON.stringify(crawls));
  // Its attempt to frame the app was refused by frame-ancestors.
  await until(() => popupConsole.some((t) => /frame-ancestors/.test(t)), { timeout: 5000, what: 'the frame-ancestors refusal' });
  await popup.close();

  // Other schemes never open, whoever asks.
  const pagesBefore = browser.context.pages().length;
  await page.evaluate(() => {
    window.runtime.BrowserOpenURL("javascript:window.__pwned='open';alert(1)");
    window.runtime.BrowserOpenURL('data:text/html,<script>alert(1)</script>');
    window.runtime.BrowserOpenURL('file:///etc/passwd');
  });
  await page.waitForTimeout(500);
  assert.equal(browser.context.pages().length, pagesBefore);
  assert.deepEqual(await domOffences(page), []);
  assert.deepEqual(seen.dialogs, []);
});

test('a name re-pointed at 127.0.0.1 (DNS rebinding) gets nothing', async () => {
  const p = await browser.context.newPage();
  const res = await p.goto(`http://${reboundHost}:${app.port}/`);
  assert.equal(res.status(), 403);
  assert.doesNotMatch(await p.content(), /mundaneum-token/);
  const call = await p.evaluate(async () => {
    const r = await fetch('/api/App.Crawls', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '[]' });
    return r.status;
  });
  assert.equal(call, 403);
  await p.close();
});

test('no CSP violation or error in the app page', async () => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await searchFor('catalogue');
  await awaitResults('catalogue', 10);
  await page.screenshot({ path: path.join(shotDir, 'main-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(seen.csp, []);
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  assert.deepEqual(seen.errors, []);
  // The only warnings are the bridge's refusals to open other schemes (test above).
  const problems = seen.console.filter((m) => /^(error|warning)/.test(m) && !/^warning: \[mundaneum\] refused to open a (javascript|data|file): URL$/.test(m));
  assert.deepEqual(problems, []);
});

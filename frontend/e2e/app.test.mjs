// End to end in a real browser: `mundaneum serve` on a fresh workspace, Debian's chromium,
// and a local site with hostile pages. Save a view, crawl the site from the form, watch the
// progress bar reach the end, search, walk the results with the keyboard into page views
// and offline copies, open the crawl's pages, change the settings, and check throughout
// that nothing crawled ever runs, becomes markup, or reaches the API. Run with `make e2e`
// (it builds the binary first); `make e2e SCREENSHOTS=1` refreshes docs/screenshots.
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

/** Opens a view by its entry in the main navigation. */
async function view(name) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
}

/** The saved views in the sidebar. */
function savedViews() {
  return page.getByRole('region', { name: 'Saved views' });
}

/** Waits until the facets are those of the results on screen. */
async function awaitFacets() {
  const facets = page.getByRole('complementary', { name: 'Facets' });
  await until(async () => (await facets.getAttribute('aria-busy', { timeout: 1000 }).catch(() => null)) === 'false', { what: 'the facets of the results' });
  return facets;
}

async function shot(name) {
  await page.screenshot({ path: path.join(shotDir, name) });
}

/** Hrefs the app may give a link: the page's own http(s) URL, or one of its own routes. */
const safeHref = /^(https?:\/\/|#\/(page\/\d+(\?copy=(text|page))?|search(\?.*)?|crawls(\/\d+)?|settings)$)/;

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

test('a view saved before the crawl', async () => {
  await searchFor('catalogue');
  await page.getByText('No results.', { exact: true }).waitFor();
  await page.getByRole('button', { name: /^save view/i }).click();
  await page.getByRole('textbox', { name: 'View name' }).fill('Catalogue');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const link = savedViews().getByRole('link', { name: 'Catalogue' });
  await link.waitFor();
  assert.deepEqual((await api.call('Views')).map((v) => [v.name, v.query]), [['Catalogue', 'catalogue']]);
  // Opened now, it has nothing; after the crawl it will have news.
  await link.click();
  await page.getByText(/View Catalogue:\s*0 new since last opened/).waitFor();
  // A second view, to delete.
  await searchFor('otlet');
  await page.getByRole('button', { name: /^save view/i }).click();
  await page.getByRole('textbox', { name: 'View name' }).fill('Scratch');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await savedViews().getByRole('link', { name: 'Scratch' }).waitFor();
  await savedViews().getByRole('button', { name: 'Delete view Scratch' }).click();
  await savedViews().getByRole('button', { name: 'Delete', exact: true }).click();
  // The view is gone once its item is (while the delete is under way, the item asks no
  // more but is still there, without its link).
  await until(async () => (await savedViews().getByRole('listitem').count()) === 1, { what: 'the deleted view to go' });
  assert.deepEqual((await api.call('Views')).map((v) => v.name), ['Catalogue']);
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
  // The README's picture of the view: its top, where a crawl starts (the form, the archives).
  await page.getByRole('heading', { name: 'Crawls', level: 2 }).evaluate((h) => h.scrollIntoView({ block: 'start' }));
  await shot('crawls.png');
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
  // Facets follow the results: site, type, status, crawl, each value with a count.
  const facets = await awaitFacets();
  const host = facets.getByRole('button', { name: new RegExp(`^127\\.0\\.0\\.1:${new URL(site.url).port}\\s*\\d+$`) });
  await host.waitFor();
  assert.equal(await host.getAttribute('aria-pressed'), 'false');
  await page.mouse.move(0, 0);
  await shot('main.png');
  // A facet adds its refine term to the query, and takes it away again.
  await facets.getByRole('button', { name: /^html/ }).click();
  await until(async () => (await page.getByRole('searchbox').inputValue()) === 'catalogue type:html', { what: 'the refined query' });
  await until(() => page.locator('ol.results[data-for="catalogue type:html"]').count(), { what: 'the refined results' });
  await facets.getByRole('button', { name: /^html/, pressed: true }).click();
  await until(async () => (await page.getByRole('searchbox').inputValue()) === 'catalogue', { what: 'the query without the facet' });
  await awaitResults('catalogue', 10);
});

test('the keyboard walks the results into a page view, and Esc comes back', async () => {
  const box = page.getByRole('searchbox');
  await box.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const selected = page.locator('li.result.selected');
  assert.equal(await selected.getAttribute('data-index'), '1');
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('selected')), true);
  const title = (await selected.locator('a.title').textContent()).trim();
  await page.keyboard.press('Enter');
  await page.waitForURL(/#\/page\/\d+$/);
  await page.getByRole('heading', { level: 2, name: title }).waitFor();
  const article = page.getByRole('article');
  assert.match(await article.textContent(), /HTTP status\s*200/);
  assert.match(await article.textContent(), /Problems in its HTML\s*None found\./);
  // Links out, with their words; each known target is a page view.
  const out = page.getByRole('table', { name: 'Links out' });
  assert.ok((await out.getByRole('row').count()) >= 4, 'a card has three links and a header row');
  assert.match(await out.textContent(), /The catalogue/);
  for (const href of await out.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')))) {
    assert.match(href, safeHref);
  }
  // Who cites it, with what words.
  const cited = page.getByRole('table', { name: 'Cited by' });
  assert.ok((await cited.getByRole('row').count()) >= 2);
  // The offline copy: a page reads best as a page (its links open in place), so that tab
  // comes first; the text is one click away.
  await page.getByRole('tab', { name: 'Page', selected: true }).waitFor();
  await page.locator('iframe[sandbox="allow-same-origin"]').waitFor();
  await page.frameLocator('iframe').locator('h1').waitFor();
  await page.mouse.move(0, 0);
  await shot('page.png');
  // Esc goes back to the results, with the keyboard where it was.
  await page.getByRole('heading', { level: 2, name: title }).focus();
  await page.keyboard.press('Escape');
  await page.waitForURL(/#\/search\?q=catalogue$/);
  await until(() => page.evaluate(() => document.activeElement?.matches('li.result.selected[data-index="1"]')), { what: 'the result to have the keyboard again' });
  // Ctrl+1..3 and g-chords move between views.
  await page.keyboard.press('Control+2');
  await page.waitForURL(/#\/crawls$/);
  await page.keyboard.press('g');
  await page.keyboard.press('s');
  await page.waitForURL(/#\/search\?q=catalogue$/);
  await page.keyboard.press('/');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('type')), 'search');
});

test('opening the saved view tells what is new since it was last opened', async () => {
  await view(/crawls/i);
  await savedViews().getByRole('link', { name: 'Catalogue' }).click();
  const banner = page.getByText(/View Catalogue:\s*\d+ new since last opened/);
  await banner.waitFor();
  const fresh = Number((await banner.textContent()).match(/(\d+) new/)[1]);
  assert.ok(fresh >= 10, `only ${fresh} new`);
  assert.equal(await page.getByRole('searchbox').inputValue(), 'catalogue');
  await awaitResults('catalogue', 10);
  // Each new result is marked (issue 18: only a count said so).
  const marks = await page.locator('li.result .new').count();
  assert.ok(marks >= Math.min(fresh, 10), `${marks} results marked new of ${fresh}`);
  // Opened again, nothing is new.
  await view(/crawls/i);
  await savedViews().getByRole('link', { name: 'Catalogue' }).click();
  await page.getByText(/View Catalogue:\s*0 new since last opened/).waitFor();
  await awaitResults('catalogue', 10);
  assert.equal(await page.locator('li.result .new').count(), 0);
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
  // No result points anywhere but http(s) or the app's own page views.
  for (const href of await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))) {
    assert.match(href, safeHref);
  }
});

test("a hostile page's view and offline copy, in both tabs, run nothing", async () => {
  const titles = await page.locator('li.result a.title').allTextContents();
  const i = titles.findIndex((t) => t.includes('hostile title'));
  assert.ok(i >= 0, `no hostile title among ${JSON.stringify(titles)}`);
  await page.getByRole('searchbox').focus();
  for (let k = 0; k <= i; k++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('o');
  await page.waitForURL(/#\/page\/\d+\?copy=text$/);
  // The page view shows the payloads as text.
  const heading = page.getByRole('article').getByRole('heading', { level: 2 });
  await until(async () => (await heading.textContent()).includes('hostile title'), { what: 'the hostile page view' });
  assert.ok((await heading.textContent()).includes(`"><img src=x onerror=`), 'the title payload is not shown as text');
  const out = page.getByRole('table', { name: 'Links out' });
  assert.ok((await out.textContent()).includes('<script>'), 'the anchor payload is not shown as text');
  // The Text tab: the extracted text, as text, and the keyboard is on the tab.
  await until(() => page.evaluate(() => document.activeElement?.getAttribute('role') === 'tab'), { what: 'the copy tab to have focus' });
  const text = page.getByRole('tabpanel');
  await until(async () => (await text.textContent()).includes(`${marker} hostile body`), { what: 'the text of the copy' });
  assert.ok((await text.textContent()).includes('<img src=x onerror='), 'the body payload is not shown as text');
  // The Page tab: the sanitised document in a frame sandboxed without scripts.
  await page.keyboard.press('ArrowRight');
  await page.waitForURL(/#\/page\/\d+\?copy=page$/);
  const frame = page.locator('iframe');
  await frame.waitFor();
  assert.equal(await frame.count(), 1);
  assert.equal(await frame.getAttribute('sandbox'), 'allow-same-origin');
  // What the frame holds has no script, no handler, no javascript: link (parsed, not run).
  const active = await page.evaluate((html) => {
    const d = new DOMParser().parseFromString(html, 'text/html');
    const bad = [...d.querySelectorAll('script, iframe, object, embed, form, base, img')].map((e) => e.localName);
    for (const el of d.querySelectorAll('*')) {
      for (const a of el.attributes) if (/^on/i.test(a.name) || /^\s*(javascript|data):/i.test(a.value)) bad.push(`${el.localName} ${a.name}`);
    }
    return bad;
  }, await frame.getAttribute('srcdoc'));
  assert.deepEqual(active, []);
  const inside = page.frameLocator('iframe');
  await until(async () => ((await inside.locator('h1').textContent({ timeout: 1000 }).catch(() => '')) || '').includes('hostile body'), { what: 'the copy in its frame' });
  // Nothing in the copy ran, and nothing can: the frame has no scripts at all. The app may
  // read the frame (same origin, to take its link clicks); the frame can do nothing. Even a
  // script and a handler put into it by hand stay dead.
  const ran = await page.evaluate(async () => {
    const f = document.querySelector('iframe');
    const d = f.contentDocument;
    const before = {
      pwned: f.contentWindow.__pwned ?? null,
      scripts: d.querySelectorAll('script').length,
      handlers: [...d.querySelectorAll('*')].flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => a.name)),
    };
    const s = d.createElement('script');
    s.textContent = "window.__pwned = 'injected'; parent.__pwned = 'injected'";
    d.body.append(s);
    const img = d.createElement('img');
    img.setAttribute('onerror', "parent.__pwned = 'handler'");
    img.src = 'data:,not-an-image';
    d.body.append(img);
    await new Promise((r) => setTimeout(r, 300));
    s.remove();
    img.remove();
    return { ...before, after: [f.contentWindow.__pwned ?? null, window.__pwned ?? null] };
  });
  assert.deepEqual(ran, { pwned: null, scripts: 0, handlers: [], after: [null, null] });
  // A link in the copy opens no window and never moves the frame: a page the workspace
  // holds opens in place, as a step of the app's history.
  const appURL = page.url();
  const pagesBefore = browser.context.pages().length;
  await inside.getByRole('link').first().click();
  await page.waitForURL((u) => u.href !== appURL && /#\/page\/\d+\?copy=page$/.test(u.href));
  await until(async () => ((await inside.locator('h1').textContent({ timeout: 1000 }).catch(() => '')) || '').includes('Paul Otlet'), { what: 'the linked card in place' });
  assert.equal(browser.context.pages().length, pagesBefore, 'a link in the copy opened a window');
  await page.goBack();
  await page.waitForURL(appURL);
  assert.equal(page.url(), appURL);
  assert.deepEqual(await domOffences(page), []);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.csp, []);
  assert.deepEqual(site.beacons, [], 'a payload reached the beacon');
  // (Keys typed in the frame stay in the frame: take the keyboard back first.)
  await heading.focus();
  await page.keyboard.press('Escape');
  await page.waitForURL(/#\/search\?q=/);
  await awaitResults(marker, 3);
});

test('a result opens only its http(s) page, in a new tab that cannot reach the app', async () => {
  const appURL = page.url();
  const item = page.locator('li.result').filter({ has: page.locator('a.title', { hasText: 'hostile title' }) }).first();
  const link = item.getByRole('link', { name: `${site.url}hostile.html`, exact: true });
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

test("a crawl's pages, by state, each opening its page view", async () => {
  await view(/crawls/i);
  await page.getByRole('link', { name: 'Pages and reasons' }).first().click();
  await page.waitForURL(/#\/crawls\/\d+$/);
  const table = page.getByRole('table', { name: /^pages of crawl/i });
  await table.waitFor();
  const meta = page.getByRole('region', { name: /^crawl \d+$/i }).getByRole('status');
  const all = Number((await meta.textContent()).match(/^(\d+)/)[1]);
  assert.ok(all >= site.expectedPages, `${all} pages listed`);
  await page.getByRole('radio', { name: /^fetched/ }).click();
  await page.waitForURL(/state=fetched$/);
  await until(async () => (await table.getByRole('row').count()) === site.expectedPages + 1, { what: 'the fetched pages only' });
  await page.getByRole('radio', { name: /^all/ }).click();
  await page.waitForURL(/#\/crawls\/\d+$/);
  await until(async () => (await table.getByRole('row').count()) === Math.min(all, 100) + 1, { what: 'all the pages again' });
  // Whatever was not fetched says why, in words.
  const states = await table.locator('tbody tr td:nth-child(2)').allTextContents();
  const whys = await table.locator('tbody tr td.why').allTextContents();
  states.forEach((st, k) => {
    if (!/fetched|queued/.test(st)) assert.notEqual(whys[k].trim(), '', `a ${st} page with no reason`);
  });
  await shot('crawl.png');
  await table.getByRole('link', { name: 'Paul Otlet', exact: true }).click();
  await page.getByRole('heading', { level: 2, name: 'Paul Otlet' }).waitFor();
  await page.keyboard.press('Escape');
  await table.waitFor();
});

test('settings: a round trip, an invalid value, the theme', async () => {
  // In a tab of its own: the browser logs the refused save (HTTP 400) to the console, and
  // the main tab's console must stay clean.
  const page = await browser.context.newPage();
  page.setDefaultTimeout(10000);
  const tabSeen = await watch(page);
  await page.goto(`${app.url}#/settings`);
  const ua = page.getByRole('textbox', { name: /user-agent suffix/i });
  const from = page.getByRole('textbox', { name: /^from/i });
  const delay = page.getByRole('spinbutton', { name: /delay between/i });
  const save = page.getByRole('button', { name: 'Save', exact: true });
  await ua.fill('+https://mundaneum.example/e2e');
  await from.fill('e2e@example.org');
  await delay.fill('250');
  await save.click();
  await page.getByText('Saved.', { exact: true }).waitFor();
  const stored = await api.call('Settings');
  assert.equal(stored.userAgentSuffix, '+https://mundaneum.example/e2e');
  assert.equal(stored.from, 'e2e@example.org');
  assert.equal(stored.delayMs, 250);
  // The search index: how far behind it is, and a rebuild that ends up to date.
  const index = page.getByRole('group', { name: 'Search index' });
  await until(async () => /\d[\d,]* of [\d,]+ pages searchable/.test(await index.textContent()), { what: 'the index summary' });
  const rebuild = index.getByRole('button', { name: 'Rebuild the index' });
  await rebuild.click();
  // The panel never says "up to date" from before the click while the rebuild runs.
  await until(async () => (await rebuild.isEnabled()) && /up to date/.test(await index.textContent()), {
    what: 'the rebuilt index up to date',
    timeout: 30000,
  });
  assert.equal((await api.call('IndexStatus')).current, true);
  await index.screenshot({ path: path.join(shotDir, 'index.png') });
  await page.mouse.move(0, 0);
  // The README's picture of the view: its top (the crawler's settings just saved).
  await page.getByRole('heading', { name: 'Settings', level: 2 }).evaluate((h) => h.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: path.join(shotDir, 'settings.png') });
  await page.reload();
  await until(async () => (await ua.inputValue()) === '+https://mundaneum.example/e2e', { what: 'the saved suffix after a reload' });
  assert.equal(await delay.inputValue(), '250');
  // The backend refuses what is wrong, and the form says why.
  await from.fill('not an address');
  await save.click();
  assert.match(await page.getByRole('alert').textContent(), /From must be an e-mail address/);
  assert.equal((await api.call('Settings')).from, 'e2e@example.org');
  await from.fill('e2e@example.org');
  await save.click();
  await page.getByText('Saved.', { exact: true }).waitFor();
  // The theme applies at once, is stored, and holds across a reload.
  await page.getByRole('radio', { name: 'Dark' }).check();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await until(async () => (await api.call('Settings')).theme === 'dark', { what: 'the stored theme' });
  await page.reload();
  await page.getByRole('radio', { name: 'Dark', checked: true }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await page.getByRole('radio', { name: 'Follow the system' }).check();
  assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-theme')), false);
  await until(async () => (await api.call('Settings')).theme === 'system', { what: 'the theme back to system' });
  assert.deepEqual(tabSeen.errors, []);
  assert.deepEqual(tabSeen.dialogs, []);
  assert.deepEqual(
    tabSeen.console.filter((m) => /^(error|warning)/.test(m)),
    ['error: Failed to load resource: the server responded with a status of 400 (Bad Request)'],
  );
  await page.close();
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
  await awaitFacets();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(shotDir, 'main-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(seen.csp, []);
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  assert.deepEqual(seen.errors, []);
  // The only warnings are the bridge's refusals to open other schemes (test above), the
  // browser's refusal to let a link in a sandboxed offline copy open a window, and its
  // refusal to run the script and the handler the hostile-copy test put into the frame.
  const problems = seen.console.filter(
    (m) =>
      /^(error|warning)/.test(m) &&
      !/^warning: \[mundaneum\] refused to open a (javascript|data|file): URL$/.test(m) &&
      !/^error: Blocked opening '[^']*' in a new window because the request was made in a sandboxed frame whose 'allow-popups' permission is not set\.$/.test(m) &&
      !/^error: Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed and the 'allow-scripts' permission is not set\.$/.test(m),
  );
  assert.deepEqual(problems, []);
});

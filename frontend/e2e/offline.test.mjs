// End to end in a real browser: a small manual crawled with its page requisites, read
// offline in `mundaneum serve` by following its links. Three pages down by clicks inside the
// copy and back with the browser's Back; an anchor scrolls; the manual's style sheet and
// picture are there; a link the workspace lacks offers its choices, and fetching it once
// opens it; an old version's links go to the versions nearest in time. Nothing in the
// copies runs. `make e2e SCREENSHOTS=1` writes docs/screenshots/offline.png.
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { apiClient, domOffences, launchBrowser, shotDir, startApp, tempDir, until, watch } from './harness.mjs';

let tmp, app, api, browser, page, seen, server, base;
const beacons = [];
let edition = 'first';

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAYAAADED76LAAAAEklEQVR4nGOokLP5jw8zjAwFAL8ddEGeG+4dAAAAAElFTkSuQmCC',
  'base64',
);
const filler = Array.from({ length: 60 }, (_, i) => `<p>Paragraph ${i + 1} of the chapter, for the reader to scroll past.</p>`).join('\n');

function manual(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<link rel="stylesheet" href="/manual/style.css"></head>
<body><div class="navheader"><a href="/manual/">Contents</a></div><h1>${title}</h1>${body}
<script>parent.__pwned = 'script'; fetch('/beacon?script')</script>
<img src="/nowhere.png" onerror="parent.__pwned = 'handler'; fetch('/beacon?img')" alt="">
</body></html>`;
}

function pages() {
  return {
    '/manual/': manual(
      'The Mundaneum manual',
      `<p>This is the ${edition} edition.</p><img src="/manual/logo.png" alt="Logo" class="logo">
<ul><li><a href="ch1.html">Chapter 1: Cards</a></li><li><a href="/elsewhere/extra.html">An extra page, not crawled</a></li>
<li><a href="javascript:parent.__pwned='link'">A script link</a></li></ul>`,
    ),
    '/manual/ch1.html': manual('Chapter 1: Cards', `<p>Cards, ${edition} edition.</p><p>Go on to <a href="ch2.html#part2">the second part of chapter 2</a>.</p>`),
    '/manual/ch2.html': manual('Chapter 2: Drawers', `<p><a href="#part2">Skip to part 2</a></p>${filler}<h2 id="part2">Part 2</h2><p>Then <a href="ch3.html">chapter 3</a>, or <a href="#top-of-2">back up</a>.</p>${filler}`.replace('<p>Paragraph 1 ', '<p id="top-of-2">Paragraph 1 ')),
    '/manual/ch3.html': manual('Chapter 3: Enquiries', `<p>The last chapter. Back to <a href="./">the contents</a>, or on to <a href="/newsection/">a new section</a>. See also <a href="appendix.html">the appendix</a>.</p>`),
    // A long page, shown a screenful first and the rest after (frameSwap.ts).
    '/manual/appendix.html': manual(
      'Appendix: Index',
      `<div class="index"><dl>${Array.from({ length: 400 }, (_, i) => `<dt>Term ${i + 1}</dt><dd>Where the term ${i + 1} is explained, at some length for the reader.</dd>`).join('\n')}</dl>` +
        `<p id="last">The last paragraph: back to <a href="ch1.html">the cards, from the end</a>.</p></div>`,
    ),
    '/elsewhere/extra.html': manual('An extra page', '<p>Fetched once, on request.</p>'),
  };
}

before(async () => {
  tmp = await tempDir('mundaneum-e2e-offline-');
  server = http.createServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    // The crawl renders these small pages in its own browser (their scripts run there, as
    // on the web); what must never run them is the app showing a copy. The crawler says who
    // it is in its User-Agent.
    if (u.pathname === '/beacon' && !/^Mundaneum\//.test(req.headers['user-agent'] ?? '')) beacons.push(u.search);
    const body = pages()[u.pathname];
    if (body) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      return res.end(body);
    }
    if (u.pathname === '/manual/style.css') {
      res.writeHead(200, { 'Content-Type': 'text/css' });
      return res.end(`h1{color:rgb(120, 30, 60);font-family:Georgia,serif}.navheader{border-bottom:2px solid rgb(120, 30, 60)}
.logo{width:32px;height:32px;image-rendering:pixelated;background:url(logo.png)}`);
    }
    if (u.pathname === '/manual/logo.png') {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      return res.end(png);
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('not found');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
  app = await startApp(tmp.dir);
  api = await apiClient(app);
  browser = await launchBrowser(tmp.dir);
  page = await browser.context.newPage();
  page.setDefaultTimeout(15000);
  seen = await watch(page);
  await mkdir(shotDir, { recursive: true });
  // Two crawls of the manual, a second apart: the first edition, then the second.
  await crawl();
  edition = 'second';
  await new Promise((r) => setTimeout(r, 1100)); // a version's time is its fetch's
  await crawl();
});

after(async () => {
  await browser?.close();
  const code = await app?.stop();
  await new Promise((r) => server?.close(r));
  await tmp?.cleanup();
  assert.equal(code, 0, `mundaneum serve exited with ${code}:\n${app?.output()}`);
});

async function crawl() {
  const c = await api.call('StartCrawl', {
    seeds: [`${base}/manual/`], scope: 'tree', maxDepth: 0, maxPages: 0, maxSeconds: 0, agents: 0, perHost: 0, delayMs: 0,
    refresh: true, rules: '', requisites: true,
  });
  await until(async () => (await api.call('Crawls')).find((x) => x.id === c.id)?.state === 'done', { timeout: 60000, what: 'the crawl to end' });
}

async function pageId(path) {
  const t = await api.call('LinkTarget', `${base}${path}`);
  assert.ok(t.page > 0, `${path} is not held: ${JSON.stringify(t)}`);
  return t.page;
}

const frame = () => page.frameLocator('iframe[sandbox="allow-same-origin"]');

/** Waits until the copy in the frame is the page titled h1. */
async function shows(h1) {
  await until(async () => ((await frame().locator('h1').textContent({ timeout: 1000 }).catch(() => '')) || '') === h1, { what: `the copy of “${h1}”` });
}

function noOffences() {
  return Promise.all([domOffences(page), page.evaluate(() => [window.__pwned ?? null, document.querySelector('iframe')?.contentWindow?.__pwned ?? null])]);
}

test('a crawled manual is read offline by following its links, and Back walks back', async () => {
  const home = await pageId('/manual/');
  await page.goto(`${app.url}#/page/${home}`);
  // The Page tab opens first, and the copy looks like the page: its style sheet and picture.
  await page.getByRole('tab', { name: 'Page', selected: true }).waitFor();
  await shows('The Mundaneum manual');
  const look = await page.evaluate(() => {
    const d = document.querySelector('iframe').contentDocument;
    const h1 = getComputedStyle(d.querySelector('h1'));
    const img = d.querySelector('img.logo');
    return { color: h1.color, font: h1.fontFamily, img: img?.getAttribute('src')?.slice(0, 22) ?? '', loaded: img?.complete && img.naturalWidth };
  });
  assert.deepEqual(look, { color: 'rgb(120, 30, 60)', font: 'Georgia, serif', img: 'data:image/png;base64,', loaded: 8 });
  await page.getByText(/Shown with its 2 style sheet/).waitFor();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(shotDir, 'offline.png') });

  // Three pages down, by clicks in the copy.
  const steps = [
    ['Chapter 1: Cards', 'Chapter 1: Cards', '/manual/ch1.html'],
    ['the second part of chapter 2', 'Chapter 2: Drawers', '/manual/ch2.html'],
    ['chapter 3', 'Chapter 3: Enquiries', '/manual/ch3.html'],
  ];
  const urls = [page.url()];
  for (const [link, h1, p] of steps) {
    await frame().getByRole('link', { name: link }).click();
    const id = await pageId(p);
    await page.waitForURL(new RegExp(`#/page/${id}\\?copy=page`));
    await shows(h1);
    urls.push(page.url());
  }
  assert.match(urls[2], /at=part2/, 'the link’s fragment is in the route');
  // Back, three times, through the same copies; Forward once.
  for (let i = steps.length - 1; i >= 0; i--) {
    await page.goBack();
    await page.waitForURL(urls[i]);
    await shows(i === 0 ? 'The Mundaneum manual' : steps[i - 1][1]);
  }
  await page.goForward();
  await page.waitForURL(urls[1]);
  await shows('Chapter 1: Cards');
  // The anchor in chapter 2: the copy opens scrolled to it.
  await page.goForward();
  await shows('Chapter 2: Drawers');
  await until(() => page.evaluate(() => (document.querySelector('iframe').contentWindow?.scrollY ?? 0) > 300), { what: 'the copy scrolled to #part2' });
  // An anchor within the page scrolls the copy, and the app stays where it is.
  const at = page.url();
  await frame().getByRole('link', { name: 'back up' }).click();
  await until(() => page.evaluate(() => (document.querySelector('iframe').contentWindow?.scrollY ?? 1e9) < 300), { what: 'the copy scrolled up to #top-of-2' });
  await frame().getByRole('link', { name: 'Skip to part 2' }).click();
  await until(() => page.evaluate(() => (document.querySelector('iframe').contentWindow?.scrollY ?? 0) > 300), { what: 'the copy scrolled down to #part2' });
  assert.equal(page.url(), at);

  const [offences, pwned] = await noOffences();
  assert.deepEqual(offences, []);
  assert.deepEqual(pwned, [null, null]);
  assert.deepEqual(beacons, []);
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.csp, []);
});

test('a link to a page the workspace lacks offers to open, fetch or crawl it; fetched once, it opens', async () => {
  const home = await pageId('/manual/');
  await page.goto(`${app.url}#/page/${home}?copy=page`);
  await shows('The Mundaneum manual');
  // The link is marked as leading out of the workspace.
  const mark = await page.evaluate(() => {
    const a = [...document.querySelector('iframe').contentDocument.querySelectorAll('a')].find((x) => x.textContent.includes('extra'));
    return [a.hasAttribute('data-mundaneum-missing'), getComputedStyle(a, '::after').content];
  });
  assert.deepEqual(mark, [true, '"↗"']);
  const before = page.url();
  await frame().getByRole('link', { name: 'An extra page, not crawled' }).click();
  const choice = page.getByRole('region', { name: 'Not in this workspace' });
  await choice.waitFor();
  assert.match(await choice.textContent(), new RegExp(`${base}/elsewhere/extra.html`));
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(shotDir, 'offline-missing.png') });
  for (const name of ['Open in the browser ↗', 'Fetch it once', 'Crawl from here…']) await choice.getByRole('button', { name }).waitFor();
  assert.equal(page.url(), before, 'the app moved on a click on a missing page');
  // Open in the browser: a tab of its own, on that address only. (There the live page is
  // the web: its scripts run and call the beacon, which nothing in the app ever did.)
  assert.deepEqual(beacons, []);
  const [tab] = await Promise.all([browser.context.waitForEvent('page'), choice.getByRole('button', { name: 'Open in the browser ↗' }).click()]);
  await tab.waitForLoadState('domcontentloaded');
  assert.equal(tab.url(), `${base}/elsewhere/extra.html`);
  assert.equal(await tab.evaluate(() => window.opener), null);
  await until(() => beacons.length === 2, { what: 'the live page’s own scripts' });
  await tab.close();
  beacons.length = 0;
  // A script link is no link at all.
  assert.equal(await frame().getByRole('link', { name: 'A script link' }).count(), 0);
  // Fetch it once: the page is fetched, then its copy opens here.
  await choice.getByRole('button', { name: 'Fetch it once' }).click();
  await shows('An extra page');
  assert.match(page.url(), /#\/page\/\d+\?copy=page$/);
  // Crawl from here: the crawl form, with the address, ready for reading offline.
  await page.goBack();
  await shows('The Mundaneum manual');
  // The manual's copy again: its link to the page now opens it in place.
  await frame().getByRole('link', { name: 'An extra page, not crawled' }).click();
  await shows('An extra page');
  await page.goBack();
  await shows('The Mundaneum manual');
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(beacons, []);
});

test('“crawl from here” opens the crawl form with the address, ready for reading offline', async () => {
  const ch3 = await pageId('/manual/ch3.html');
  await page.goto(`${app.url}#/page/${ch3}?copy=page`);
  await shows('Chapter 3: Enquiries');
  // A section outside the crawl's tree: not in the workspace.
  await frame().getByRole('link', { name: 'a new section' }).click();
  await page.getByRole('region', { name: 'Not in this workspace' }).getByRole('button', { name: 'Crawl from here…' }).click();
  await page.waitForURL(/#\/crawls$/);
  const form = page.getByRole('form', { name: 'New crawl' });
  await until(async () => (await form.getByRole('textbox').first().inputValue()) === `${base}/newsection/`, { what: 'the seed' });
  assert.equal(await form.getByRole('checkbox', { name: /style sheets, images and fonts/ }).isChecked(), true);
  assert.equal(await form.getByRole('combobox').first().inputValue(), 'tree');
});

test('an old version’s links go to the versions nearest in time, and say so', async () => {
  const home = await pageId('/manual/');
  const ch1 = await pageId('/manual/ch1.html');
  const homeVersions = await api.call('PageVersions', home);
  const ch1Versions = await api.call('PageVersions', ch1);
  assert.equal(homeVersions.length, 2);
  assert.equal(ch1Versions.length, 2);
  await page.goto(`${app.url}#/page/${home}`);
  const versions = page.getByRole('region', { name: /Versions/ });
  await versions.getByRole('button', { name: /Open the copy of #1/ }).click();
  await page.waitForURL(new RegExp(`#/page/${home}\\?.*v=${homeVersions[0].id}`));
  await page.getByText(/replayed: its links open the versions of their pages nearest in time/).waitFor();
  await until(async () => /first edition/.test((await frame().locator('body').textContent({ timeout: 1000 }).catch(() => '')) || ''), { what: 'the first edition' });
  await frame().getByRole('link', { name: 'Chapter 1: Cards' }).click();
  await page.waitForURL(new RegExp(`#/page/${ch1}\\?copy=page&v=${ch1Versions[0].id}`));
  await shows('Chapter 1: Cards');
  await until(async () => /Cards, first edition/.test((await frame().locator('body').textContent({ timeout: 1000 }).catch(() => '')) || ''), { what: 'chapter 1 as it was then' });
  await page.getByText(/replayed/).waitFor();
  // The current copy of the same chapter is the second edition.
  await page.getByRole('button', { name: 'Show the current' }).click();
  await until(async () => /Cards, second edition/.test((await frame().locator('body').textContent({ timeout: 1000 }).catch(() => '')) || ''), { what: 'the current chapter 1' });
  const [offences, pwned] = await noOffences();
  assert.deepEqual(offences, []);
  assert.deepEqual(pwned, [null, null]);
  assert.deepEqual(seen.errors, []);
});

test('a report’s links open the pages the workspace holds, in place', async () => {
  const ch1 = await pageId('/manual/ch1.html');
  const posted = await api.call('LibraryReport', 1, {
    title: 'Reading notes', body: `# Notes\n\nStart with [the cards chapter](${base}/manual/ch1.html), then [the web](${base}/newsection/).`,
    url: '', notes: '', tags: [], purpose: '', createOnly: false, order: '', image: '', view: '', author: '', email: '', password: '',
  });
  await page.goto(`${app.url}#/posting/${posted.id}`);
  const report = page.frameLocator('iframe[title^="Report:"]');
  await report.getByRole('heading', { name: 'Notes' }).waitFor();
  await report.getByRole('link', { name: 'the web' }).click();
  await page.getByRole('region', { name: 'Not in this workspace' }).waitFor();
  await report.getByRole('link', { name: 'the cards chapter' }).click();
  await page.waitForURL(new RegExp(`#/page/${ch1}\\?copy=page$`));
  await shows('Chapter 1: Cards');
  await page.goBack();
  await report.getByRole('heading', { name: 'Notes' }).waitFor();
  assert.deepEqual(seen.errors, []);
});

test('a long copy, shown a screenful first, is whole in the end and its late links open in place', async () => {
  const ch3 = await pageId('/manual/ch3.html');
  const appendix = await pageId('/manual/appendix.html');
  const ch1 = await pageId('/manual/ch1.html');
  await page.goto(`${app.url}#/page/${ch3}?copy=page`);
  await shows('Chapter 3: Enquiries');
  const shown = await page.evaluate(() => Number(document.querySelector('iframe').dataset.shown));
  await frame().getByRole('link', { name: 'the appendix' }).click();
  await page.waitForURL(new RegExp(`#/page/${appendix}\\?copy=page$`));
  await shows('Appendix: Index');
  // The same frame and document took it (no new document), and it ends whole.
  await until(() => page.evaluate(() => document.querySelector('iframe').contentDocument.querySelectorAll('dd').length === 400 && !!document.querySelector('iframe').contentDocument.getElementById('last')), { what: 'the whole appendix' });
  const after = await page.evaluate(() => {
    const f = document.querySelector('iframe');
    const d = f.contentDocument;
    return { shown: Number(f.dataset.shown), dts: d.querySelectorAll('dl').length, order: [...d.querySelectorAll('dt')].every((e, i) => e.textContent === `Term ${i + 1}`), title: d.title, top: f.contentWindow.scrollY };
  });
  assert.deepEqual(after, { shown: shown + 1, dts: 1, order: true, title: 'Appendix: Index', top: 0 });
  // A link of the part appended last is taken by the app, like any other.
  await frame().getByRole('link', { name: 'the cards, from the end' }).click();
  await page.waitForURL(new RegExp(`#/page/${ch1}\\?copy=page$`));
  await shows('Chapter 1: Cards');
  await page.goBack();
  await shows('Appendix: Index');
  const [offences, pwned] = await noOffences();
  assert.deepEqual(offences, []);
  assert.deepEqual(pwned, [null, null]);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.csp, []);
});

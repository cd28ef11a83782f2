// End to end in Firefox: Mundaneum's extension as built for Firefox (build/extension/firefox)
// installed into Debian's firefox-esr, driven by puppeteer-core over WebDriver BiDi (no
// browser download), against a running `mundaneum serve`: it opens its options on install,
// pairs (its Origin is moz-extension://UUID, bound at pairing), adds a page with the
// selection as notes, saves a script-built page as shown, and shows the badge.
//
// WebDriver BiDi may not navigate to an extension's pages: the test drives the options
// page the extension opens itself, and moves it to the popup by the page's own navigation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { apiClient, startApp, tempDir, until } from '../../frontend/e2e/harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const extDir = process.env.MUNDANEUM_FIREFOX_EXTENSION || path.resolve(here, '../../build/extension/firefox');
const firefox = process.env.FIREFOX || '/usr/bin/firefox-esr';
// The extension's UUID in this profile, fixed so that the test knows its Origin.
const uuid = '5d9c1f3a-8e2b-4c7d-9a61-0b3e4f5a6c7d';
const origin = `moz-extension://${uuid}`;

const pages = {
  '/article': `<!doctype html><html><head><title>Drawers of the Répertoire</title></head><body>
    <p id="sel">The drawers held twelve million cards.</p></body></html>`,
  '/spa': `<!doctype html><html><head><title>loading</title><script>window.secret = "ff-s3cr3t";</script></head><body>
    <div id="app"></div><script>document.title = 'Wombat survey';
    document.getElementById('app').innerHTML = '<p>the wombat survey of the plains</p>';</script></body></html>`,
};

let tmp, app, api, site, siteURL, browser, ext;

before(async () => {
  await access(path.join(extDir, 'manifest.json')).catch(() => {
    throw new Error(`no built extension at ${extDir}: run make extension`);
  });
  await access(firefox).catch(() => {
    throw new Error(`no Firefox at ${firefox}: apt-get install firefox-esr (make setup does)`);
  });
  tmp = await tempDir('mundaneum-firefox-');
  app = await startApp(tmp.dir);
  api = await apiClient(app);
  site = http.createServer((req, res) => {
    const body = pages[new URL(req.url, 'http://x').pathname];
    res.writeHead(body ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(body ?? '');
  });
  await new Promise((r) => site.listen(0, '127.0.0.1', r));
  siteURL = `http://127.0.0.1:${site.address().port}`;
  browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefox,
    headless: true,
    userDataDir: path.join(tmp.dir, 'firefox-profile'),
    extraPrefsFirefox: { 'extensions.webextensions.uuids': JSON.stringify({ 'capture@mundaneum.invalid': uuid }) },
  });
  assert.equal(await browser.installExtension(extDir), 'capture@mundaneum.invalid');
  // The options page it opened on install (BiDi reports its address as about:blank).
  ext = await until(
    async () => {
      for (const p of await browser.pages()) {
        const href = await p.evaluate(() => location.href).catch(() => '');
        if (href.startsWith(`${origin}/options.html`)) return p;
      }
      return null;
    },
    { what: "the extension's options page" },
  );
});

after(async () => {
  await browser?.close();
  site?.close();
  await app?.stop();
  await tmp?.cleanup();
});

/** Moves the extension's page to file (the page navigates itself) and waits for it. */
async function extPage(file) {
  await ext.evaluate((f) => (location.href = f), file);
  await ext.waitForFunction((f) => location.href.endsWith(f) && document.readyState === 'complete', {}, file);
}

async function tabOf(url) {
  // Not query({url}): Firefox's match patterns take no port.
  return until(() => ext.evaluate(async (u) => (await browser.tabs.query({})).find((t) => t.url === u)?.id, url), { what: `the tab of ${url}` });
}

test('Firefox: pair, add with the selection, save as shown, badge', async () => {
  const reading = await api.call('LibraryCreate', 1, { title: 'Reading' });
  const { code } = await api.call('CapturePairingCode');

  await ext.$eval('#address', (e) => (e.value = ''));
  await ext.type('#address', app.url);
  await ext.type('#code', code);
  await ext.click('#pair');
  await ext
    .waitForFunction(() => document.getElementById('pair-msg').textContent === 'Paired with e2e.mundaneum.', { timeout: 15000 })
    .catch(async (err) => {
      throw new Error(`${err.message}: the page says ${await ext.evaluate(() => document.body.innerText)}`);
    });
  const info = await api.call('CaptureInfo');
  assert.equal(info.clients.length, 1);
  assert.equal(info.clients[0].origin, origin, 'Firefox calls from moz-extension://UUID');
  assert.match(info.clients[0].browser, /^Firefox \d+ on Linux$/);

  const article = await browser.newPage();
  await article.goto(`${siteURL}/article`);
  await article.evaluate(() => {
    const r = document.createRange();
    r.selectNodeContents(document.getElementById('sel'));
    getSelection().removeAllRanges();
    getSelection().addRange(r);
  });
  const tabId = await tabOf(`${siteURL}/article`);
  await extPage(`popup.html?tab=${tabId}`);
  await ext.waitForFunction(() => document.getElementById('notes').value === 'The drawers held twelve million cards.');
  assert.equal(await ext.$eval('#title', (e) => e.value), 'Drawers of the Répertoire');
  await ext.$eval('#library', (e) => (e.value = '/Reading'));
  await ext.click('#add');
  await ext.waitForFunction(() => document.getElementById('msg').textContent === 'Added to /Reading.');
  const p = (await api.call('LibraryPage', reading.id, '', 0, 10)).postings.find((x) => x.url === `${siteURL}/article`);
  assert.ok(p);
  assert.equal(p.notes, 'The drawers held twelve million cards.');
  await until(async () => (await ext.evaluate((id) => browser.action.getBadgeText({ tabId: id }), tabId)) === '✓', { what: 'the badge' });

  const spa = await browser.newPage();
  await spa.goto(`${siteURL}/spa`);
  await spa.waitForFunction(() => document.title === 'Wombat survey');
  const spaTab = await tabOf(`${siteURL}/spa`);
  await extPage(`popup.html?tab=${spaTab}`);
  await ext.waitForFunction(() => !document.getElementById('form').hidden && document.getElementById('title').value === 'Wombat survey');
  await ext.$eval('#library', (e) => (e.value = '/Reading'));
  await ext.click('#shown');
  await ext.click('#add');
  await ext.waitForFunction(() => document.getElementById('msg').textContent === 'Added to /Reading. The page as shown is saved.');
  const hit = await until(
    async () => (await api.call('Search', { query: 'wombat', limit: 5, offset: 0 })).results.find((r) => r.url === `${siteURL}/spa`),
    { what: 'the saved page searchable' },
  );
  const copy = await api.call('OfflineCopy', hit.pageId);
  assert.match(copy.document, /the wombat survey of the plains/);
  assert.ok(!copy.document.includes('ff-s3cr3t'));
});

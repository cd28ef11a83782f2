// End to end: capture from the browser (issue 27). Mundaneum's extension, built by `make
// extension` (build/extension/chromium), loaded unpacked into Debian's chromium (headless,
// a persistent profile: extensions need one) against a running `mundaneum serve`: pairing
// with the code Settings shows, adding the current page with the selection as its notes,
// saving a page built by scripts as it is shown, the badge; refused without the token, from
// a web page holding the token and from another Origin. Then the bookmarklet's add form.
// Screenshots of the popup, of Settings' pairing and of the bookmarklet for the README.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { apiClient, domOffences, repo, shotDir, startApp, tempDir, until, watch } from './harness.mjs';

const extDir = process.env.MUNDANEUM_EXTENSION || path.join(repo, 'build/extension/chromium');

// A small site: an article, a page whose content exists only once its script ran (with a
// secret in a script, as a logged-in page has), and a page with a hostile title.
const pages = {
  '/article': `<!doctype html><html><head><title>The card catalogue</title></head><body>
    <h1>The card catalogue</h1><p id="sel">Otlet filed twelve million cards in standard drawers.</p>
    <p>Another paragraph about the zebrafish index.</p></body></html>`,
  '/spa': `<!doctype html><html><head><title>loading…</title>
    <script>window.sessionSecret = "s3cr3t-session-token";</script></head><body><div id="app"></div>
    <script>
      document.title = 'Quokka census (script-built)';
      document.getElementById('app').innerHTML = '<h1>Census</h1><p>the quokka census counts 1234 animals</p>' +
        '<button onclick="steal()">Sign out</button>';
    </script></body></html>`,
  '/cards': `<!doctype html><html><head><title>Standard index cards</title></head><body>
    <p id="sel">Cards of 125 by 75 mm were easy to file, copy and post.</p></body></html>`,
  '/other': `<!doctype html><html><head><title>&lt;img src=x onerror=window.__pwned=1&gt; Other page</title></head><body>
    <p id="sel">A sentence worth keeping from the other page.</p></body></html>`,
};

function serveSite() {
  const server = http.createServer((req, res) => {
    const body = pages[new URL(req.url, 'http://x').pathname];
    res.writeHead(body ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

let tmp, app, api, site, siteURL, context, sw, extId;

before(async () => {
  await access(path.join(extDir, 'manifest.json')).catch(() => {
    throw new Error(`no built extension at ${extDir}: run make extension`);
  });
  tmp = await tempDir('mundaneum-capture-');
  app = await startApp(tmp.dir);
  api = await apiClient(app);
  site = await serveSite();
  siteURL = `http://127.0.0.1:${site.address().port}`;
  context = await chromium.launchPersistentContext(path.join(tmp.dir, 'profile'), {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', `--disable-extensions-except=${extDir}`, `--load-extension=${extDir}`],
    viewport: { width: 1100, height: 760 },
    deviceScaleFactor: 1,
  });
  sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15000 }));
  extId = new URL(sw.url()).host;
  // Installed, the extension opens its options (background.ts). Chrome may open them in the
  // newest blank tab: wait for that tab, or it takes over the first page a test opens (its
  // navigation was interrupted by the options' under load).
  await until(() => context.pages().some((p) => p.url().startsWith(`chrome-extension://${extId}/options.html`)), {
    what: 'the options the extension opens when installed',
  });
});

after(async () => {
  await context?.close();
  site?.close();
  await app?.stop();
  await tmp?.cleanup();
});

/** The id of the tab showing url, as the extension sees it. */
function tabOf(url) {
  return sw.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]?.id, url);
}

/** Opens the popup acting on the tab showing url (as the toolbar button opens it on the current tab). */
async function popupFor(url) {
  const tabId = await until(() => tabOf(url), { what: `the tab of ${url}` });
  const popup = await context.newPage();
  await popup.setViewportSize({ width: 420, height: 620 });
  const seen = await watch(popup);
  await popup.goto(`chrome-extension://${extId}/popup.html?tab=${tabId}`);
  return { popup, tabId, seen };
}

async function select(page, id) {
  await page.evaluate((i) => {
    const r = document.createRange();
    r.selectNodeContents(document.getElementById(i));
    getSelection().removeAllRanges();
    getSelection().addRange(r);
  }, id);
}

async function posting(libraryId, url) {
  const p = await api.call('LibraryPage', libraryId, '', 0, 100);
  return p.postings.find((x) => x.url === url);
}

test('capture from the browser: pair, add with the selection, save as shown, badge; strangers refused', async () => {
  const reading = await api.call('LibraryCreate', 1, { title: 'Reading' });
  await api.call('LibraryCreate', 1, { title: 'Computing' });
  await api.call('LibraryPoint', reading.id, { url: `${siteURL}/seed`, tags: ['research', 'catalogue'] });

  // Pairing: the code from serve's Settings, typed into the extension's options.
  const settings = await context.newPage();
  await settings.goto(`${app.url}#/settings`);
  const panel = settings.getByRole('group', { name: 'Browser extension' });
  await panel.getByRole('button', { name: 'Pair a browser' }).click();
  const code = (await panel.getByTestId('pairing-code').textContent()).trim();
  assert.match(code, /^[2-9A-Z]{4}-[2-9A-Z]{4}$/);
  assert.equal((await panel.getByTestId('capture-address').textContent()).trim(), app.url);

  const options = await context.newPage();
  await options.goto(`chrome-extension://${extId}/options.html`);
  await options.getByLabel('Address').fill(app.url);
  await options.getByLabel('Pairing code').fill(code.toLowerCase().replace('-', ' '));
  await options.getByRole('button', { name: 'Pair', exact: true }).click();
  await options.getByText('Paired with e2e.mundaneum.', { exact: true }).waitFor();
  // Settings shows the browser as soon as it paired.
  await panel.getByRole('table', { name: 'Paired browsers' }).getByText(/Chromium \d+ on Linux/).waitFor();
  await panel.getByRole('cell', { name: new RegExp(`chrome-extension://${extId}`) }).waitFor();
  await settings.evaluate(() => document.querySelector('[aria-labelledby="capture-heading"]').scrollIntoView());
  await panel.screenshot({ path: path.join(shotDir, 'capture-settings.png') });
  await options.close();
  const token = await sw.evaluate(async () => (await chrome.storage.local.get('token')).token);
  assert.match(token, /^[0-9a-f]{64}$/);

  // Add the current page, with the selection as its notes, to a library picked by completion.
  const article = await context.newPage();
  await article.goto(`${siteURL}/article`);
  await select(article, 'sel');
  const { popup, tabId, seen } = await popupFor(`${siteURL}/article`);
  await until(async () => (await popup.getByLabel('Notes').inputValue()) === 'Otlet filed twelve million cards in standard drawers.', {
    what: 'the selection as notes',
  });
  assert.equal(await popup.getByLabel('Title').inputValue(), 'The card catalogue');
  await popup.getByText('Not in the library yet.').waitFor();
  const lib = popup.getByRole('combobox', { name: 'Library' });
  await lib.fill('');
  await lib.pressSequentially('rea');
  await popup.getByRole('option', { name: '/Reading' }).click();
  assert.equal(await lib.inputValue(), '/Reading');
  const tags = popup.getByRole('combobox', { name: 'Tags' });
  await tags.pressSequentially('res');
  await popup.getByRole('option', { name: /^research/ }).click();
  assert.equal(await tags.inputValue(), 'research, ');
  await tags.pressSequentially('drawers');
  await popup.getByRole('button', { name: 'Add', exact: true }).click();
  await popup.getByText('Added to /Reading.').waitFor();
  await popup.getByText('Already in /Reading.').waitFor();
  const added = await posting(reading.id, `${siteURL}/article`);
  assert.ok(added, 'the page is in /Reading');
  assert.equal(added.notes, 'Otlet filed twelve million cards in standard drawers.');
  assert.deepEqual(added.tags, ['research', 'drawers']);
  assert.equal(added.title, 'The card catalogue');

  // The badge tells the page is in the library, and where.
  await until(async () => (await sw.evaluate((id) => chrome.action.getBadgeText({ tabId: id }), tabId)) === '✓', { what: 'the badge' });
  assert.equal(await sw.evaluate((id) => chrome.action.getTitle({ tabId: id }), tabId), 'In Mundaneum: /Reading');
  // Another tab's page is not in it: no badge there.
  const spa = await context.newPage();
  await spa.goto(`${siteURL}/spa`);
  await spa.getByText('the quokka census counts 1234 animals').waitFor();
  const spaTab = await until(() => tabOf(`${siteURL}/spa`), { what: 'the tab of the script-built page' });
  await sw.evaluate(({ id, url }) => globalThis.mundaneum.updateBadge(id, url), { id: spaTab, url: `${siteURL}/spa` });
  assert.equal(await sw.evaluate((id) => chrome.action.getBadgeText({ tabId: id }), spaTab), '');

  // The popup as the README shows it: a fresh one on the article, already in the library.
  await popup.close();
  const shot = await popupFor(`${siteURL}/article`);
  await shot.popup.getByText('Already in /Reading.').waitFor();
  await until(async () => (await shot.popup.getByLabel('Notes').inputValue()) !== '', { what: 'the notes' });
  await shot.popup.getByRole('combobox', { name: 'Library' }).focus();
  await shot.popup.getByRole('option', { name: /\/Reading/ }).waitFor();
  await shot.popup.locator('body').screenshot({ path: path.join(shotDir, 'capture-popup.png') });
  await shot.popup.close();
  assert.deepEqual(seen.errors, []);

  // Save a page built by scripts as it is shown: its DOM, sanitised, as its newest version.
  const s = await popupFor(`${siteURL}/spa`);
  assert.equal(await s.popup.getByLabel('Title').inputValue(), 'Quokka census (script-built)');
  await s.popup.getByRole('checkbox', { name: 'Save the page as I see it' }).check();
  await s.popup.getByRole('combobox', { name: 'Library' }).fill('/Computing');
  await s.popup.getByRole('button', { name: 'Add', exact: true }).click();
  await s.popup.getByText('Added to /Computing. The page as shown is saved.').waitFor();
  const hit = await until(
    async () => (await api.call('Search', { query: 'quokka census', limit: 10, offset: 0 })).results.find((r) => r.url === `${siteURL}/spa`),
    { what: 'the saved page in the search results' },
  );
  const copy = await api.call('OfflineCopy', hit.pageId);
  assert.match(copy.document, /the quokka census counts 1234 animals/);
  assert.equal(copy.title, 'Quokka census (script-built)');
  for (const bad of ['s3cr3t-session-token', '<script', 'onclick', 'Sign out']) {
    assert.ok(!copy.document.includes(bad), `the stored copy keeps ${bad}`);
  }
  const versions = await api.call('PageVersions', hit.pageId);
  assert.equal(versions.length, 1);
  await s.popup.close();

  // Refused: the extension's own Origin without the token...
  const noToken = await sw.evaluate(async (base) => {
    const r = await fetch(`${base}capture/status`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"url":"https://x.example/"}' });
    return r.status;
  }, app.url);
  assert.equal(noToken, 403);
  // ...a web page that got hold of the token (its Origin is its own: the browser does not
  // even send the call)...
  const before = (await api.call('LibraryPage', reading.id, '', 0, 100)).postings.length;
  const fromPage = await article.evaluate(
    async ({ base, token }) => {
      try {
        const r = await fetch(`${base}capture/add`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
          body: JSON.stringify({ url: 'https://planted.example/', library: '/Reading' }),
        });
        return `HTTP ${r.status}`;
      } catch (err) {
        return `failed: ${err.name}`;
      }
    },
    { base: app.url, token },
  );
  assert.equal(fromPage, 'failed: TypeError');
  assert.equal((await api.call('LibraryPage', reading.id, '', 0, 100)).postings.length, before);
  // ...and a forged Origin with the token (what a program other than the browser could send).
  for (const origin of ['https://evil.example', `chrome-extension://${'a'.repeat(32)}`, siteURL]) {
    const status = await new Promise((resolve, reject) => {
      const u = new URL('capture/hello', app.url);
      const req = http.request(u, { method: 'POST', headers: { Origin: origin, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end('{}');
    });
    assert.equal(status, 403, `Origin ${origin}`);
  }
  // The context menu's "Add link to Mundaneum", run as the browser runs it: into the
  // library used last.
  await sw.evaluate(
    ({ url, id }) => globalThis.mundaneum.addFromMenu({ menuItemId: 'mundaneum-add-link', linkUrl: url, editable: false, pageUrl: '' }, { id }),
    { url: `${siteURL}/linked`, id: tabId },
  );
  const computing = (await api.call('LibraryResolve', '/Computing'));
  await until(async () => (await posting(computing, `${siteURL}/linked`)) !== undefined, { what: 'the link added from the menu' });
});

test('the bookmarklet opens the add form of serve, filled in from the page', async () => {
  const settings = await context.newPage();
  await settings.goto(`${app.url}#/settings`);
  const mark = settings.locator('a[data-bookmarklet]');
  const href = await mark.getAttribute('href');
  assert.ok(href.startsWith('javascript:'), href);
  const code = decodeURIComponent(href.slice('javascript:'.length));
  // The one javascript: link the app may have is its own bookmarklet, to this origin.
  assert.deepEqual(await domOffences(settings), []);

  // For the README: the form as the bookmarklet opens it on a page.
  const cards = await context.newPage();
  await cards.goto(`${siteURL}/cards`);
  await select(cards, 'sel');
  const shown = context.waitForEvent('page');
  await cards.evaluate(code);
  const shot = await shown;
  await shot.setViewportSize({ width: 1000, height: 640 });
  const sf = shot.getByRole('form', { name: 'Add a page to the library' });
  await sf.getByLabel('Library').fill('/Reading');
  await sf.getByLabel(/^Tags/).fill('cata');
  await sf.getByRole('button', { name: /^catalogue/ }).click();
  await shot.screenshot({ path: path.join(shotDir, 'capture-bookmarklet.png') });
  await shot.close();

  const other = await context.newPage();
  await other.goto(`${siteURL}/other`);
  await select(other, 'sel');
  const opened = context.waitForEvent('page');
  // The bookmark runs its code in the page, as a click on it in the bookmarks bar does.
  await other.evaluate(code);
  const form = await opened;
  const seen = await watch(form);
  await form.waitForLoadState();
  assert.ok(form.url().startsWith(`${app.url}#/add?`), form.url());
  const f = form.getByRole('form', { name: 'Add a page to the library' });
  await f.waitFor();
  assert.equal(await f.getByLabel('Address').inputValue(), `${siteURL}/other`);
  assert.equal(await f.getByLabel('Title').inputValue(), '<img src=x onerror=window.__pwned=1> Other page');
  assert.equal(await f.getByLabel('Notes').inputValue(), 'A sentence worth keeping from the other page.');
  await f.getByLabel('Library').fill('/Reading');
  await f.getByLabel(/^Tags/).fill('cata');
  await f.getByRole('button', { name: /^catalogue/ }).click();
  await f.getByRole('button', { name: 'Add', exact: true }).click();
  await form.getByText('Added to /Reading.').waitFor();
  const readingId = await api.call('LibraryResolve', '/Reading');
  const p = await posting(readingId, `${siteURL}/other`);
  assert.ok(p, 'added');
  assert.equal(p.title, '<img src=x onerror=window.__pwned=1> Other page');
  assert.equal(p.notes, 'A sentence worth keeping from the other page.');
  assert.deepEqual(p.tags, ['catalogue']);
  assert.deepEqual(await domOffences(form), []);
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.errors, []);
});

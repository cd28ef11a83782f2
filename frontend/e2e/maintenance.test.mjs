// End to end: the Maintenance view on `mundaneum serve` in Debian's chromium, against a
// small documentation site on loopback with a broken link, a moved page, an avoided
// corner and a hostile page. Add a task from the form, run it, watch it end, read its
// report (news first, then documents), check links now, add a rule, see the robots.txt
// table — and check that nothing crawled ever runs. Screenshots for the README with
// `make e2e SCREENSHOTS=1`.
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { apiClient, domOffences, launchBrowser, shotDir, startApp, tempDir, until, watch } from './harness.mjs';
import { payloads } from './site.mjs';

let tmp, site, siteURL, app, api, browser, page, seen;

function esc(s) {
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

function doc(title, body) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}

/** A documentation site: chapters, a broken link, a moved page, an image, a hostile page. */
function startDocs() {
  const p = payloads('report');
  const pages = {
    '/docs/': doc('Card catalogue handbook', `<h1>Handbook</h1><ul>
      <li><a href="filing.html">Filing cards</a></li><li><a href="drawers.html">Drawers</a></li>
      <li><a href="old-index.html">The old index</a></li><li><a href="missing.html">Lost chapter</a></li>
      <li><a href="hostile.html">A hostile page</a></li><li><a href="../elsewhere.html">Outside the tree</a></li>
      <li><a href="drafts/one.html">Drafts</a></li></ul><img src="logo.png" alt="logo">`),
    '/docs/filing.html': doc('Filing cards', `<p>File by the Universal Decimal Classification.</p><a href="drawers.html">Drawers</a> <a href="index-cards.pdf">Card sizes (PDF)</a>`),
    '/docs/drawers.html': doc('Drawers', `<p>Oak cabinets.</p><a href="filing.html">Filing</a> <a href="gone.html">A gone page</a>`),
    '/docs/new-index.html': doc('The new index', '<p>Moved here.</p>'),
    '/docs/hostile.html': doc(esc(`Hostile ${p.script}`), `<a href="${esc('missing2.html?x=' + p.img)}">${esc(p.img)}</a>`),
    '/docs/drafts/one.html': doc('Draft', '<a href="two.html">two</a>'),
    '/elsewhere.html': doc('Elsewhere', 'outside'),
  };
  const server = http.createServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    if (u.pathname === '/docs/old-index.html') {
      res.writeHead(301, { Location: '/docs/new-index.html' });
      return res.end();
    }
    if (u.pathname === '/docs/logo.png' || u.pathname === '/docs/index-cards.pdf') {
      res.writeHead(200, { 'Content-Type': u.pathname.endsWith('.png') ? 'image/png' : 'application/pdf' });
      return res.end(req.method === 'HEAD' ? undefined : 'x');
    }
    const body = pages[u.pathname];
    if (!body) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      return res.end('not found');
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

before(async () => {
  tmp = await tempDir('mundaneum-e2e-maint-');
  site = await startDocs();
  siteURL = `http://127.0.0.1:${site.address().port}`;
  app = await startApp(tmp.dir);
  api = await apiClient(app);
  // The site is ours: no delay between requests.
  const s = await api.call('Settings');
  await api.call('SaveSettings', { ...s, delayMs: 0, perHost: 4 });
  browser = await launchBrowser(tmp.dir);
  page = await browser.context.newPage();
  page.setDefaultTimeout(15000);
  seen = await watch(page);
  await mkdir(shotDir, { recursive: true });
});

after(async () => {
  await browser?.close();
  const code = await app?.stop();
  site?.close();
  await tmp?.cleanup();
  assert.equal(code, 0, `mundaneum serve exited with ${code}:\n${app?.output()}`);
});

async function shot(name) {
  await page.screenshot({ path: path.join(shotDir, name) });
}

async function tab(name) {
  await page.getByRole('navigation', { name: 'Maintenance' }).getByRole('link', { name }).click();
}

test('add a task from the form, run it, read its report', async () => {
  await page.goto(app.url);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Maintenance/ }).click();
  await page.getByRole('heading', { name: 'Maintenance', level: 2 }).waitFor();
  await page.getByRole('button', { name: 'New task' }).click();
  const form = page.getByRole('form', { name: 'New task' });
  await form.getByLabel('Name').fill('handbook');
  await form.getByLabel('Type').selectOption('tree');
  await form.getByLabel('Top URL').fill(`${siteURL}/docs/`);
  await form.getByLabel('Index title').fill('Handbook maintenance index');
  await form.getByRole('button', { name: 'Add task' }).click();
  const card = page.getByRole('listitem', { name: 'Task handbook' });
  await card.waitFor();
  assert.match(await card.textContent(), /every day/);

  await card.getByRole('button', { name: 'Run now' }).click();
  const bar = page.getByRole('status', { name: 'Check run' });
  await until(async () => /done/.test((await bar.textContent()) ?? ''), { what: 'the run to end', timeout: 30000 });
  const report = card.getByRole('link', { name: /^Report \d+/ });
  await report.waitFor();
  assert.match(await card.textContent(), /broken/);
  await shot('maintenance.png');

  await report.click();
  await page.getByRole('heading', { name: 'Handbook maintenance index' }).waitFor();
  const broken = page.getByRole('region', { name: 'Broken' });
  await until(async () => /missing\.html/.test((await broken.textContent()) ?? ''), { what: 'the broken links' });
  const text = await broken.textContent();
  assert.match(text, /gone\.html/);
  assert.match(text, /HTTP 404/);
  // Cited by the documents that link there (MOMspider's cross-references).
  assert.match(text, new RegExp(`${siteURL}/docs/drawers\\.html`));
  const moved = await page.getByRole('region', { name: 'Moved' }).textContent();
  assert.match(moved, /old-index\.html/);
  assert.match(moved, /new-index\.html/);
  // Outside the tree: tested, not traversed.
  assert.ok(await page.getByRole('article', { name: 'Document Filing cards' }).count());
  assert.equal(await page.getByRole('article', { name: /Document Elsewhere/ }).count(), 0);
  // The hostile page's title is text.
  const hostile = page.getByRole('article', { name: /Document Hostile/ });
  assert.match(await hostile.locator('h4').textContent(), /<script>/);
  await shot('report.png');
  assert.deepEqual(await domOffences(page), []);
});

test('check links now', async () => {
  await page.goto(`${app.url}#/maintenance/check`);
  await page.getByLabel('Links to check, one per line').fill(`${siteURL}/docs/filing.html\n${siteURL}/docs/missing.html\n${siteURL}/docs/old-index.html\njavascript:alert(1)`);
  await page.getByRole('button', { name: /^Check 4 links/ }).click();
  const table = page.getByRole('table', { name: 'Checked links' });
  await table.waitFor({ timeout: 30000 });
  const rows = await table.locator('tbody tr').allTextContents();
  assert.equal(rows.length, 4);
  const by = Object.fromEntries(rows.map((r) => [r.match(/(filing|missing|old-index|javascript)/)?.[1], r]));
  assert.match(by.filing, /^ok\s200/);
  assert.match(by.missing, /^broken\s404/);
  assert.match(by['old-index'], /^redirected\s200/);
  assert.match(by.javascript, /^invalid/);
  assert.match(await page.getByRole('status').filter({ hasText: 'checked' }).textContent(), /4 checked, 2 failing/);
  assert.deepEqual(await domOffences(page), []);
});

test('rules and the robots.txt table', async () => {
  await tab('Avoid & leaf');
  const add = page.getByRole('form', { name: 'Add a rule' });
  await add.getByLabel('Action').selectOption('leaf');
  await add.getByLabel('URL prefix').fill(`${siteURL}/docs/drafts/`);
  await add.getByRole('button', { name: 'Add' }).click();
  const rules = page.getByRole('table', { name: 'Rules' });
  await until(async () => /drafts/.test((await rules.textContent()) ?? ''), { what: 'the rule' });
  assert.match(await rules.textContent(), /leaf/);

  await tab('robots.txt');
  const sites = page.getByRole('table', { name: 'robots.txt by site' });
  await sites.waitFor();
  assert.match(await sites.textContent(), new RegExp(`127\\.0\\.0\\.1:${site.address().port}`));
  assert.match(await sites.textContent(), /none: all allowed/);

  await tab('Settings');
  const settings = page.getByRole('form', { name: 'Maintenance settings' });
  await settings.locator('input[name=deadChecks]').fill('2');
  await settings.getByRole('button', { name: 'Save' }).click();
  await settings.getByRole('status').waitFor();
  assert.equal((await api.call('CheckSettings')).deadChecks, 2);
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.errors, []);
});

test("import MOMspider's files in the window", async () => {
  const file = (name, text) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
  await tab('Avoid & leaf');
  const rules = page.getByRole('table', { name: 'Rules' });
  await rules.waitFor();
  const before = await rules.locator('tbody tr').count();
  // A malformed file is refused whole, its bad line named; nothing of it is kept.
  await page.getByLabel('Import avoid file…').setInputFiles(
    file('broken-avoid.mom', `Avoid ${siteURL}/docs/private/ [*]\nAvoid ${siteURL}/x/ [not a date]\n`),
  );
  const alert = page.getByRole('alert').filter({ hasText: 'broken-avoid.mom' });
  await alert.waitFor();
  assert.match(await alert.textContent(), /line 2/);
  assert.equal(await rules.locator('tbody tr').count(), before);
  // Appendix C's form: entries with and without an expiry date.
  await page.getByLabel('Import avoid file…').setInputFiles(
    file('avoid.mom', `# MOMspider-0.1a Avoid File\nAvoid ${siteURL}/docs/private/ [*]\nLeaf ${siteURL}/docs/archive/ [Fri, 31 Dec 2099 09:30:00 GMT]\n`),
  );
  await page.getByRole('status').filter({ hasText: 'Imported avoid.mom: 2 new rule(s).' }).waitFor();
  const text = await rules.textContent();
  assert.match(text, /docs\/private\//);
  assert.match(text, /docs\/archive\//);
  assert.match(text, /2099/);

  // Appendix D: the sites file sets the expiry of the robots.txt kept for a site.
  await tab('robots.txt');
  await page.getByRole('table', { name: 'robots.txt by site' }).waitFor();
  await page.getByLabel('Import sites file…').setInputFiles(
    file('sites.mom', `Site 127.0.0.1:${site.address().port} [*]\nSite unknown.example:80 [*]\n`),
  );
  const note = page.getByRole('status').filter({ hasText: 'Set the expiry of 1 site(s).' });
  await note.waitFor();
  assert.match(await note.textContent(), /unknown\.example:80/);

  // Appendix A: an instruction file's tasks become tasks.
  await tab('Tasks');
  await page.getByLabel('Import MOMspider instructions…').setInputFiles(
    file('instructions.mom', `<Tree\n  Name drafts\n  TopURL ${siteURL}/docs/drafts/one.html\n  IndexTitle Drafts index\n  EmailBroken\n>\n`),
  );
  await page.getByRole('status').filter({ hasText: 'Imported 1 task(s): drafts' }).waitFor();
  const card = page.getByRole('listitem', { name: 'Task drafts' });
  await card.waitFor();
  assert.match(await card.textContent(), /drafts\/one\.html/);
  assert.equal((await api.call('CheckTasks')).find((t) => t.name === 'drafts')?.type, 'tree');
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(await domOffences(page), []);
});

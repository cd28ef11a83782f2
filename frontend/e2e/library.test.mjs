// End to end, the library: `mundaneum serve` on a fresh workspace and Debian's chromium.
// A browser bookmarks file with hostile titles is imported; its titles show as text; rows
// move by drag and drop (into a library, and between postings); a delete shows what goes,
// undo puts it back and redo makes it again; a report is written with a preview, shown rendered in a sandboxed
// frame and edited; a password is asked for and honoured; the search finds library
// postings. Nothing hostile ever runs or becomes markup.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { apiClient, domOffences, launchBrowser, repo, shotDir, startApp, tempDir, until, watch } from './harness.mjs';
import { startSite } from './site.mjs';

let tmp, site, app, api, browser, page, seen;
const hostile = '<img src=x onerror=alert(1)>';

/** A small PNG: a library's picture (a catalogue card). */
const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAADAAAAAwCAIAAADYYG7QAAAAZUlEQVR42u3YsQ2AMAwEwGzERowArUdkkogJUqRiASRSBMmCk36Ak99uXJZ9TZUCBAQEBDQI6u18Nd8CjYz63xMCegJFbFOiMiAgVwYE5MpUBgQEBOT7MRdUj7gNUFqQpQbKCLoAIk76I8DtPdoAAAAASUVORK5CYII=';

before(async () => {
  tmp = await tempDir('mundaneum-e2e-lib-');
  site = await startSite();
  app = await startApp(tmp.dir);
  site.setAppURL(app.url);
  api = await apiClient(app);
  browser = await launchBrowser(tmp.dir);
  page = await browser.context.newPage();
  page.setDefaultTimeout(10000);
  seen = await watch(page);
  await mkdir(shotDir, { recursive: true });

  // The bookmarks of a browser (nested folders, tags, non-ASCII, hostile titles), and a
  // few libraries made through the API as another user of `serve --public` would.
  const fixture = await readFile(path.join(repo, 'backend/formats/bookmarks/testdata/mixed.html'), 'utf8');
  await api.call('LibraryImport', 1, fixture, '', '');
  const computing = await api.call('LibraryCreate', 1, input({ title: 'Computing', purpose: 'Languages, systems and the web', image: png }));
  const go = await api.call('LibraryCreate', computing.id, input({ title: 'Go', author: 'Ann', email: 'ann@example.org' }));
  for (const [title, url, tags] of [
    ['The Go Programming Language', 'https://go.dev/', ['go']],
    ['Effective Go', 'https://go.dev/doc/effective_go', ['go', 'style']],
    ['Go by Example', 'https://gobyexample.com/', ['tutorial']],
  ]) {
    await api.call('LibraryPoint', go.id, input({ title, url, tags, notes: `Notes about ${title}` }));
  }
  await api.call('LibraryCreate', computing.id, input({ title: 'Databases' }));
  await api.call('LibraryPoint', computing.id, input({ title: hostile, url: 'https://example.org/"><script>alert(2)</script>' }));
  await api.call('LibraryCreate', 1, input({ title: 'Locked', password: 's3cret' }));
  const mundaneum = await api.call('LibraryCreate', 1, input({
    title: 'The Mundaneum', image: png, author: 'Paul Otlet', email: 'otlet@example.org',
    purpose: 'Paul Otlet and Henri La Fontaine’s card catalogue of all knowledge, and what became of it.',
  }));
  await api.call('LibraryCreate', mundaneum.id, input({ title: 'People' }));
  await api.call('LibraryCreate', mundaneum.id, input({ title: 'Places' }));
  for (const [slug, tags, notes] of [
    ['otlet', ['people'], 'Bibliographer, dreamer of the universal book.'],
    ['udc', ['classification'], 'Dewey extended with auxiliary signs.'],
    ['cards', ['catalogue'], '125 by 75 mm, filed in drawers.'],
    ['traite', ['books'], ''],
  ]) {
    await api.call('LibraryPoint', mundaneum.id, input({ url: `${site.url}cards/${slug}.html`, tags, notes }));
  }
  await api.call('LibraryPoint', mundaneum.id, input({ url: `${site.url}hostile.html`, title: 'A page to be careful with' }));
  await api.call('LibraryReport', mundaneum.id, input({ title: 'Why a card index', body: 'One fact per card, **filed** by the UDC.' }));
});

after(async () => {
  await browser?.close();
  const code = await app?.stop();
  await site?.close();
  await tmp?.cleanup();
  assert.equal(code, 0, `mundaneum serve exited with ${code}:\n${app?.output()}`);
});

function input(p) {
  return { title: '', url: '', notes: '', body: '', tags: [], purpose: '', createOnly: false, order: '', image: '', view: '', author: '', email: '', password: '', ...p };
}

async function shot(name) {
  await page.screenshot({ path: path.join(shotDir, name) });
}

async function clean() {
  assert.deepEqual(await domOffences(page), []);
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.errors, []);
}

/** Opens the library at path through the sidebar and the rows. */
async function openLibrary(...titles) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Library/ }).click();
  await page.getByRole('heading', { name: 'Library', level: 2 }).waitFor();
  for (const t of titles) {
    await page.getByRole('list', { name: 'Libraries' }).getByRole('link', { name: t, exact: true }).click();
    await page.getByRole('heading', { name: t, level: 2 }).waitFor();
  }
}

function row(title) {
  return page.locator('li.row').filter({ has: page.getByRole('link', { name: title, exact: true }) });
}

async function pageOf(id) {
  return api.call('LibraryPage', id, '', 0, 100);
}

test('the library opens from the sidebar, with breadcrumbs, header and counts', async () => {
  await page.goto(app.url);
  await openLibrary('Computing');
  await assert.doesNotReject(page.getByText('Languages, systems and the web').waitFor());
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
  assert.equal(await crumbs.getByRole('link', { name: 'Library' }).count(), 1);
  assert.match(await row('Go').textContent(), /3 postings/);
  assert.equal(await page.locator('img.picture').count(), 1);
  // The row's buttons are at full strength without a hover: dimmed, they read as disabled.
  await page.mouse.move(0, 0);
  assert.equal(await row('Go').locator('.actions').evaluate((el) => getComputedStyle(el).opacity), '1');
  await clean();
});

test('hostile titles and URLs show as text', async () => {
  await openLibrary('Computing');
  const r = row(hostile);
  await r.waitFor();
  assert.equal((await r.getByRole('link', { name: hostile }).textContent()).trim(), hostile);
  assert.match(await r.textContent(), /<script>alert\(2\)<\/script>/);
  // The imported bookmarks' hostile title, at the top.
  await openLibrary();
  await row('<img src=x onerror=alert(1)>').waitFor();
  await openLibrary('日本語のフォルダ');
  await row('検索エンジン').waitFor();
  await clean();
});

test('a pointer shows what the crawler knows of its page, once fetched from the library', async () => {
  await openLibrary('The Mundaneum');
  const card = row(`${site.url}cards/otlet.html`);
  assert.match(await card.textContent(), /not in the workspace/);
  await card.getByRole('button', { name: 'Fetch' }).click();
  const fetched = row('Paul Otlet');
  await fetched.waitFor({ timeout: 30000 });
  assert.match(await fetched.textContent(), /fetched 200 · just now · offline copy/);
  await row(`${site.url}cards/udc.html`).getByRole('button', { name: 'Fetch' }).click();
  await row('Universal Decimal Classification').waitFor({ timeout: 30000 });
  // The hostile page, fetched: its title (with markup in it) is what the crawler knows, as text.
  await row('A page to be careful with').getByRole('button', { name: 'Fetch' }).click();
  await until(async () => /fetched 200/.test(await row('A page to be careful with').textContent()), { timeout: 30000, what: 'the hostile page fetched' });
  await openLibrary('The Mundaneum');
  await row('Paul Otlet').waitFor();
  await shot('library.png');
  await fetched.getByRole('link', { name: 'offline copy' }).click();
  await page.locator('iframe[sandbox="allow-same-origin"]').waitFor();
  await page.goBack();
  await row('A page to be careful with').getByRole('link', { name: 'A page to be careful with' }).click();
  await page.getByRole('heading', { name: 'A page to be careful with' }).waitFor();
  assert.match(await page.getByText('Its title').locator('xpath=following-sibling::dd[1]').textContent(), /<script>|onerror/);
  await clean();
});

test('drag and drop moves a pointer into a library, and reorders postings', async () => {
  await openLibrary('Computing', 'Go');
  const go = await pageOf(Number(new URL(page.url()).hash.split('/')[2]));
  // Reorder: Go by Example before The Go Programming Language (the order becomes manual).
  await row('Go by Example').locator('.grip').dragTo(row('The Go Programming Language'), { targetPosition: { x: 40, y: 3 } });
  await until(async () => (await pageOf(go.library.id)).order === 'manual', { what: 'the manual order' });
  const titles = (await pageOf(go.library.id)).postings.map((p) => p.title);
  assert.deepEqual(titles, ['Effective Go', 'Go by Example', 'The Go Programming Language']);
  await page.getByText('Arranged by hand.').waitFor();

  // Into a library: drag Effective Go onto the breadcrumb of Computing.
  await row('Effective Go').locator('.grip').dragTo(page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'Computing' }));
  await until(async () => (await pageOf(go.library.id)).postings.length === 2, { what: 'the pointer to leave Go' });
  const computing = await pageOf(go.library.parentId);
  assert.ok(computing.postings.some((p) => p.title === 'Effective Go'));
  // ... and onto a sub-library row.
  await openLibrary('Computing');
  await row('Effective Go').locator('.grip').dragTo(row('Databases'));
  await until(async () => !(await pageOf(go.library.parentId)).postings.some((p) => p.title === 'Effective Go'), { what: 'the move into Databases' });
  await until(async () => /1 posting/.test(await row('Databases').textContent()), { what: 'Databases to count its posting' });
  await clean();
});

test('a delete shows what goes, and undo puts it back', async () => {
  await openLibrary('Computing');
  await row('Go').getByRole('button', { name: 'Delete Go' }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.waitFor();
  assert.match(await dialog.textContent(), /“Go” and everything in it: 1 library, 2 pointers/);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await page.getByText('Deleted. Undo puts it back.').waitFor();
  await until(async () => (await row('Go').count()) === 0, { what: 'Go to go' });
  const undo = page.getByRole('button', { name: /^Undo: deleted "Go" and 2 below/ });
  await undo.click();
  await page.getByText(/^Undone: deleted "Go"/).waitFor();
  await row('Go').waitFor();
  assert.match(await row('Go').textContent(), /2 postings/);
  // Redo deletes it again, and Ctrl+Z (outside a text field) puts it back once more.
  await page.getByRole('button', { name: /^Redo: deleted "Go" and 2 below/ }).click();
  await page.getByText(/^Redone: deleted "Go"/).waitFor();
  await until(async () => (await row('Go').count()) === 0, { what: 'Go to go again' });
  await page.getByRole('heading', { name: 'Computing', level: 2 }).click();
  await page.keyboard.press('Control+z');
  await page.getByText(/^Undone: deleted "Go"/).waitFor();
  await row('Go').waitFor();
  assert.match(await row('Go').textContent(), /2 postings/);
  await page.getByRole('button', { name: /^Redo: deleted "Go"/ }).waitFor();
  await clean();
});

test('a report: written with a preview, shown in a sandboxed frame, edited', async () => {
  await openLibrary('Computing');
  await page.getByRole('button', { name: 'Write report' }).click();
  const form = page.getByRole('form', { name: 'New report' });
  await form.getByLabel('Title').fill(`Report ${hostile}`);
  await form.getByLabel('Text (Markdown)').fill(
    '# Why Go\n\nSee **Effective Go** at https://go.dev/doc/effective_go\n\n<script>window.parent.__pwned = 1; alert(3)</script>\n\n<img src=x onerror="alert(4)">\n\n[click](javascript:alert(5))',
  );
  await form.getByRole('button', { name: 'Preview' }).click();
  const preview = form.locator('iframe');
  await preview.waitFor();
  assert.equal(await preview.getAttribute('sandbox'), 'allow-same-origin');
  await form.getByRole('button', { name: 'Post' }).click();
  await page.getByText(/^Posted the report/).waitFor();
  await page.getByRole('link', { name: `Report ${hostile}`, exact: true }).click();
  await page.getByRole('heading', { name: `Report ${hostile}` }).waitFor();
  const frame = page.frameLocator('iframe[title^="Report:"]');
  await frame.getByRole('heading', { name: 'Why Go' }).waitFor();
  assert.equal(await frame.locator('script, img').count(), 0);
  assert.equal(await frame.locator('a[href^="javascript"]').count(), 0);
  await page.getByRole('list').getByRole('link', { name: 'https://go.dev/doc/effective_go' }).waitFor();
  await shot('library-report.png');

  await page.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('form', { name: 'Edit report' });
  await edit.getByLabel('Text (Markdown)').fill('# Why Go, revised\n\nShorter.');
  await edit.getByRole('button', { name: 'Save' }).click();
  await page.frameLocator('iframe[title^="Report:"]').getByRole('heading', { name: 'Why Go, revised' }).waitFor();
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  await clean();
});

test('a protected library asks for its password, and refuses a wrong one', async () => {
  await openLibrary();
  await row('Locked').getByRole('button', { name: 'Delete Locked' }).click();
  const dialog = page.getByRole('alertdialog');
  assert.match(await dialog.textContent(), /Password of “Locked”/);
  await dialog.getByLabel(/Password/).fill('wrong');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await dialog.getByRole('alert').filter({ hasText: 'not the password' }).waitFor();
  assert.equal(await row('Locked').count(), 1);
  await dialog.getByLabel(/Password/).fill('s3cret');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await page.getByText('Deleted. Undo puts it back.').waitFor();
  await until(async () => (await row('Locked').count()) === 0, { what: 'Locked to go' });
  // Undoing it needs the password again.
  await page.getByRole('button', { name: /^Undo: deleted "Locked"/ }).click();
  const ask = page.getByRole('form', { name: 'Password needed' });
  await ask.getByLabel('Password').fill('s3cret');
  await ask.getByRole('button', { name: 'Go on' }).click();
  await row('Locked').waitFor();
  await clean();
});

test("what's new lists everything below, newest first; the searches find postings", async () => {
  await openLibrary('Computing');
  await page.getByRole('tab', { name: 'What’s new' }).click();
  const items = page.locator('ol.recent li');
  await items.first().waitFor();
  assert.match(await items.first().textContent(), /Report/);

  await page.getByRole('searchbox', { name: 'Search this library' }).fill('tutorial');
  await page.getByRole('searchbox', { name: 'Search this library' }).press('Enter');
  await page.getByRole('list', { name: 'Postings found' }).getByRole('link', { name: 'Go by Example' }).waitFor();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /search/i }).click();
  const box = page.getByRole('searchbox').first();
  await box.fill('effective');
  await box.press('Enter');
  const hits = page.getByRole('list', { name: 'Library postings found' });
  await hits.getByRole('link', { name: 'Effective Go' }).first().waitFor();
  assert.match(await hits.textContent(), /\/Computing\/Databases\/Effective Go/);
  assert.match(await hits.textContent(), /\/Research\/Effective Go/);
  await clean();
});

test('paste links into a library: what is left out is reported by line', async () => {
  await openLibrary('Computing', 'Databases');
  await page.getByRole('button', { name: 'Paste or import links' }).click();
  const form = page.getByRole('form', { name: 'Import links' });
  await form.getByRole('textbox').fill('https://www.sqlite.org/ SQLite\n[PostgreSQL](https://www.postgresql.org/)\nftp://old.example/db\n');
  await form.getByRole('button', { name: 'Import' }).click();
  await form.getByRole('status').filter({ hasText: 'Imported 2' }).waitFor();
  assert.match(await form.getByRole('status').textContent(), /line 3: .*not an http or https address/);
  await row('SQLite').waitFor();
  await clean();
});

test("the link checks' health shows on pointers; is:broken finds the dead; a permanent redirect is accepted with one click, and undone", async () => {
  // Dead after two failing checks (however close together here); the checks run as the
  // Maintenance view's "Check links" runs them.
  const settings = await api.call('CheckSettings');
  await api.call('SaveCheckSettings', { ...settings, deadChecks: 2, deadDays: 0 });
  const health = await api.call('LibraryCreate', 1, input({ title: 'Link health' }));
  const moved = `${site.url}moved/otlet.html`;
  const gone = `${site.url}gone/traite.html`;
  const away = `${site.url}away/udc.html`;
  await api.call('LibraryPoint', health.id, input({ title: 'Moved card', url: moved }));
  await api.call('LibraryPoint', health.id, input({ title: 'Gone card', url: gone }));
  await api.call('LibraryPoint', health.id, input({ title: 'Away card', url: away }));
  for (let i = 0; i < 2; i++) {
    await until(async () => (await api.call('CheckState')).state === 'idle', { timeout: 30000, what: 'no check under way' });
    await api.call('CheckLinks', [moved, gone, away]);
    await until(async () => (await api.call('CheckState')).state === 'idle', { timeout: 30000, what: `check ${i + 1} done` });
  }
  await until(async () => (await pageOf(health.id)).postings.every((p) => p.health), { timeout: 30000, what: 'the checks recorded' });

  await openLibrary('Link health');
  const line = (title) => row(title).getByLabel('Link check');
  assert.match(await line('Gone card').textContent(), /broken\s*404\s*dead/);
  assert.match(await line('Away card').textContent(), /redirected to .*\/cards\/udc\.html/);
  assert.equal(await line('Away card').getByRole('button', { name: 'Accept new address' }).count(), 0, 'a temporary redirect is not offered');
  assert.match(await line('Moved card').textContent(), /redirected permanently to .*\/cards\/otlet\.html/);
  await shot('library-health.png');

  // is:broken: the dead pointer only.
  const box = page.getByRole('searchbox', { name: 'Search this library' });
  await box.fill('is:broken');
  await box.press('Enter');
  const found = page.getByRole('list', { name: 'Postings found' });
  await found.getByRole('link', { name: 'Gone card' }).waitFor();
  assert.equal(await found.getByRole('link').filter({ hasText: 'card' }).count(), 1);

  // Accept: the pointer moves to the final URL, the old one stays as an alias.
  await openLibrary('Link health');
  await line('Moved card').getByRole('button', { name: 'Accept new address' }).click();
  await page.getByText('the old address is kept as an alias').waitFor();
  const after = row('Moved card');
  await until(async () => (await after.textContent()).includes(`was ${moved}`), { what: 'the alias shown' });
  assert.match(await after.textContent(), /cards\/otlet\.html/);
  const p = (await pageOf(health.id)).postings.find((x) => x.title === 'Moved card');
  assert.equal(p.url, `${site.url}cards/otlet.html`);
  assert.deepEqual(p.aliases, [moved]);
  // The old address still finds it, in a search and when added again.
  const byOld = await api.call('LibrarySearch', moved, 0, 0, 10);
  assert.deepEqual(byOld.hits.map((h) => h.title), ['Moved card']);
  await assert.rejects(api.call('LibraryPoint', health.id, input({ url: moved })), /already/);
  // The posting's own view lists the alias.
  await after.getByRole('link', { name: 'Moved card' }).click();
  await page.getByRole('heading', { name: 'Moved card' }).waitFor();
  assert.match(await page.getByText('Formerly').locator('xpath=following-sibling::dd[1]').textContent(), /moved\/otlet\.html/);
  await page.goBack();

  // Undo puts the old address back.
  await page.getByRole('heading', { name: 'Link health', level: 2 }).waitFor();
  await page.getByRole('button', { name: /^Undo/ }).click();
  await page.getByText(/Undone: accepted the redirect/).waitFor();
  const undone = (await pageOf(health.id)).postings.find((x) => x.title === 'Moved card');
  assert.equal(undone.url, moved);
  assert.deepEqual(undone.aliases, []);
  await clean();
});

test('no CSP violation or error in the library pages', async () => {
  assert.deepEqual(seen.csp, []);
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  assert.deepEqual(seen.errors, []);
});

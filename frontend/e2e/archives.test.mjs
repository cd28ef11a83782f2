// End to end in a real browser over `mundaneum serve`: a WARC file is uploaded and imported
// as a job whose progress shows and moves forward only; Cancel stops it, keeping the pages it
// committed; a small file then imports to the end, and the workspace downloads as a WARC.
// `make e2e SCREENSHOTS=1` writes docs/screenshots/archives.png.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { apiClient, domOffences, launchBrowser, shotDir, startApp, tempDir, until, watch } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const wget = path.join(here, '../../backend/archive/testdata/wget.warc.gz');

let tmp, app, api, browser, page, seen, big;

/** Writes a WARC of n HTML responses, a gzip member each, with words to search for. */
async function writeWARC(file, n) {
  const words = 'otlet fontaine repertory classification drawer card index question answer bibliography'.split(' ');
  const parts = [];
  for (let i = 0; i < n; i++) {
    const text = Array.from({ length: 300 }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(' ');
    const body = `<title>Card ${i}</title><p>card${i} ${text}</p><a href="/c${i + 1}">next</a>`;
    const block = `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const head = [
      'WARC/1.1', 'WARC-Type: response', `WARC-Record-ID: <urn:uuid:${randomUUID()}>`,
      `WARC-Date: ${new Date(Date.UTC(2025, 0, 1, 0, 0, i % 3600)).toISOString().replace(/\.\d+Z$/, 'Z')}`,
      `WARC-Target-URI: http://cards.example/c${i}`, 'Content-Type: application/http; msgtype=response',
      `Content-Length: ${Buffer.byteLength(block)}`,
    ].join('\r\n');
    parts.push(gzipSync(`${head}\r\n\r\n${block}\r\n\r\n`));
  }
  await writeFile(file, Buffer.concat(parts));
}

before(async () => {
  tmp = await tempDir('mundaneum-e2e-archives-');
  big = path.join(tmp.dir, 'cards.warc.gz');
  await writeWARC(big, 8000);
  app = await startApp(tmp.dir);
  api = await apiClient(app);
  browser = await launchBrowser(tmp.dir);
  page = await browser.context.newPage();
  page.setDefaultTimeout(15000);
  seen = await watch(page);
  await mkdir(shotDir, { recursive: true });
});

after(async () => {
  await browser?.close();
  const code = await app?.stop();
  await tmp?.cleanup();
  assert.equal(code, 0, `mundaneum serve exited with ${code}:\n${app?.output()}`);
});

test('an uploaded WARC imports as a job with progress, and Cancel keeps what it committed', async () => {
  await page.goto(`${app.url}#/crawls`);
  const panel = page.getByRole('region', { name: 'Archives' });
  await panel.getByLabel('Archive to import').setInputFiles(big);
  const jobs = panel.getByRole('list', { name: 'Imports and exports' });
  const row = jobs.getByRole('listitem').filter({ hasText: 'cards.warc.gz' });
  // Progress moves forward, never back.
  let last = -1;
  const pagesShown = async () => Number(((await row.locator('.meter').textContent()) ?? '').match(/([\d,]+) pages ·/)?.[1].replace(/,/g, '') ?? -1);
  await until(async () => {
    const n = await pagesShown();
    assert.ok(n >= last, `the page count went back from ${last} to ${n}`);
    last = n;
    return n >= 20;
  }, { timeout: 120000, what: 'the import to bring pages in' });
  assert.ok(await row.locator('progress').count() === 1, 'a progress bar');
  await panel.screenshot({ path: path.join(shotDir, 'archives.png') });
  await row.getByRole('button', { name: 'Cancel' }).click();
  await until(async () => /cancelled/.test((await row.textContent()) ?? ''), { timeout: 60000, what: 'the cancel' });
  assert.equal(await row.getByRole('button', { name: 'Cancel' }).count(), 0);
  const kept = Number(((await row.textContent()) ?? '').match(/Kept as crawl \d+: ([\d,]+) pages/)?.[1].replace(/,/g, '') ?? 0);
  assert.ok(kept >= 20 && kept < 8000, `kept ${kept} pages`);
  const [j] = await api.call('ArchiveJobs');
  assert.equal(j.state, 'cancelled');
  assert.equal(j.pages, kept);
  const crawls = await api.call('Crawls');
  assert.equal(crawls.find((c) => c.id === j.crawlId)?.state, 'cancelled');
});

test('a small WARC imports to the end, and the workspace downloads as a WARC', async () => {
  const panel = page.getByRole('region', { name: 'Archives' });
  await panel.getByLabel('Archive to import').setInputFiles(wget);
  const row = panel.getByRole('listitem').filter({ hasText: 'wget.warc.gz' });
  await until(async () => /Imported as crawl \d+: \d+ pages/.test((await row.textContent()) ?? ''), { timeout: 60000, what: 'the import' });
  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download' }).click()]);
  assert.match(download.suggestedFilename(), /^mundaneum-workspace-\d{8}\.warc\.gz$/);
  const file = path.join(tmp.dir, 'out.warc.gz');
  await download.saveAs(file);
  assert.equal(await download.failure(), null);
  const exp = panel.getByRole('listitem').filter({ hasText: /^Export/ });
  await until(async () => /Exported [\d,]+ records/.test((await exp.first().textContent()) ?? ''), { timeout: 60000, what: 'the export job' });
  assert.deepEqual(await domOffences(page), []);
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.errors, []);
});

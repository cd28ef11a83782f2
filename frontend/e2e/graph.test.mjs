// End to end in a real browser: the webbot's rules in the crawl form (highlighting, the
// error's line and column, the test box marking the atom that decided), a crawl steered by
// them, and the Graph view of it (sigma.js in WebGL): pick two pages, read the shortest
// path and its counts, switch to the force-directed layout coloured by status (its settled
// picture the worker's raster, the path over it, a page chosen by a click on it). Crawled
// titles (the site's hostile page among them) stay text. `make e2e SCREENSHOTS=1` writes
// docs/screenshots/rules.png, graph.png and graph-force.png.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { apiClient, domOffences, launchBrowser, shotDir, startApp, tempDir, until, watch } from './harness.mjs';
import { startSite } from './site.mjs';

let tmp, site, app, api, browser, page, seen, crawlId;

before(async () => {
  tmp = await tempDir('mundaneum-e2e-graph-');
  site = await startSite();
  app = await startApp(tmp.dir);
  site.setAppURL(app.url);
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
  await site?.close();
  await tmp?.cleanup();
  assert.equal(code, 0, `mundaneum serve exited with ${code}:\n${app?.output()}`);
});

const rules = `# the catalogue, Otlet first, never the microfilm card
*path:/cards/otlet.html
+url:${site?.url ?? ''}*
-path:/cards/microfilm.html`;

test('the rule editor highlights, points at errors and tests a URL', async () => {
  await page.goto(`${app.url}#/crawls`);
  const editor = page.locator('#rules-text');
  await editor.fill('{AND +url:*.mit.edu/* {OR -body:');
  const status = page.locator('#rules-status');
  await until(async () => /Line 1, column 33/.test(await status.textContent()), { what: 'the error position' });
  assert.equal(await editor.getAttribute('aria-invalid'), 'true');
  assert.ok((await page.locator('.highlight .tok-error').count()) > 0, 'the error is marked');

  const text = rules.replace('+url:*', `+url:${site.url}*`);
  await editor.fill(text);
  await until(async () => /Rules read/.test(await status.textContent()), { what: 'the rules to read' });
  assert.equal(await page.locator('.highlight').textContent(), `${text}\n`, 'the highlighting is the text itself');
  assert.ok((await page.locator('.highlight .tok-category').count()) === 3);
  assert.ok((await page.locator('.highlight .tok-comment').count()) === 1);

  await page.locator('#rules-test-url').fill(`${site.url}cards/microfilm.html`);
  await page.getByRole('button', { name: 'Test', exact: true }).click();
  const result = page.getByTestId('rules-test-result');
  await until(async () => /REJECTED/i.test((await result.textContent()) ?? ''), { what: 'the test result' });
  assert.match(await result.textContent(), /-path:\/cards\/microfilm\.html matched.*line 4, column 1/);
  assert.equal((await page.locator('.highlight .decided').allTextContents()).join(''), '-path:/cards/microfilm.html');
  // The editor alone: the whole form is taller than the window and would come out cut.
  await page.locator('.rule-editor').screenshot({ path: path.join(shotDir, 'rules.png') });
});

test('a crawl follows the rules', async () => {
  await page.getByRole('textbox', { name: /seeds/i }).fill(site.url);
  await page.getByRole('button', { name: /start crawl/i }).click();
  const done = await until(
    async () => {
      const cs = await api.call('Crawls');
      return cs.length === 1 && cs[0].state === 'done' ? cs[0] : null;
    },
    { timeout: 40000, what: 'the crawl to finish' },
  );
  crawlId = done.id;
  assert.equal(done.rules.trim(), rules.replace('+url:*', `+url:${site.url}*`).trim());
  assert.equal(done.fetched, site.expectedPages - 1, JSON.stringify(done));
  const skipped = await api.call('CrawlPages', crawlId, 'skipped', 0, 100);
  const micro = skipped.pages.find((p) => p.url.endsWith('/cards/microfilm.html'));
  assert.equal(micro?.reason, 'rule', JSON.stringify(skipped.pages));
});

test('the rule test box honours LOCAL blocks, for a crawled page and for a URL no crawl reached', async () => {
  await page.goto(`${app.url}#/crawls`);
  const editor = page.locator('#rules-text');
  const status = page.locator('#rules-status');
  const text = `+url:${site.url}*\n{LOCAL url:${site.url}* -path:/cards/otlet.html}`;
  await editor.fill(text);
  await until(async () => /Rules read/.test(await status.textContent()), { what: 'the rules to read' });
  const result = page.getByTestId('rules-test-result');
  const locals = page.getByTestId('rules-test-locals');
  // Otlet's card was reached through the seed, which the block selects: the block rejects it.
  await page.locator('#rules-test-url').fill(`${site.url}cards/otlet.html`);
  await page.getByRole('button', { name: 'Test', exact: true }).click();
  await until(async () => /otlet\.html matched/.test((await result.textContent().catch(() => '')) ?? ''), { what: 'the crawled page rejected by the block' });
  assert.match(await result.textContent(), /rejected.*-path:\/cards\/otlet\.html matched.*line 2/i);
  await until(async () => /Tested as element/.test((await locals.textContent().catch(() => '')) ?? ''), { what: 'the path tested' });
  assert.match(await locals.textContent(), /Tested as element 01(\.\d\d)+ of crawl/);
  assert.match(await locals.textContent(), new RegExp(`applies: reached through ${site.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  assert.equal((await page.locator('.highlight .decided').allTextContents()).join(''), '-path:/cards/otlet.html');
  // A URL no crawl reached: the global rules decide, and the box says what the block could do.
  await page.locator('#rules-test-url').fill('http://elsewhere.example/cards/otlet.html');
  await page.getByRole('button', { name: 'Test', exact: true }).click();
  await until(async () => /could apply/.test((await locals.textContent().catch(() => '')) ?? ''), { what: 'the blocks that could apply' });
  assert.match(await locals.textContent(), /No crawl reached this URL/);
  assert.match(await locals.textContent(), /could apply: through a page it selects, this would be rejected \(-path:\/cards\/otlet\.html matched\)/);
});

test('the graph view draws the crawl and the shortest path between two pages', async () => {
  await page.goto(`${app.url}#/search`);
  await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
  await page.keyboard.press('g');
  await page.keyboard.press('g');
  await until(() => page.evaluate(() => location.hash.startsWith('#/graph')), { what: 'g g to open the graph' });
  const counts = page.getByTestId('graph-counts');
  await until(async () => /pages/.test((await counts.textContent().catch(() => '')) ?? ''), { what: 'the graph' });
  assert.match(await counts.textContent(), new RegExp(`^\\s*${site.expectedPages - 1} pages`));
  // sigma draws into WebGL canvases.
  await until(() => page.locator('.graph-canvas canvas').count(), { what: 'the canvases' });

  const side = page.getByRole('complementary', { name: 'Paths' });
  await side.getByRole('searchbox', { name: 'From' }).fill('mons');
  await side.getByRole('list', { name: /matching for From/ }).getByRole('button').first().click();
  const pathBox = side.getByRole('region', { name: 'Shortest path' });
  const heading = async () => ((await pathBox.getByRole('heading').textContent().catch(() => '')) ?? '').trim();
  await side.getByRole('searchbox', { name: 'To' }).fill('udc');
  await side.getByRole('list', { name: /matching for To/ }).getByRole('button').first().click();
  await until(async () => /links?$/.test(await heading()), { what: 'the path to the UDC card' });
  await page.waitForTimeout(500); // the highlight's frame
  await page.screenshot({ path: path.join(shotDir, 'graph.png') });

  // Mons -> the catalogue (home) -> the hostile page: two links, one shortest path.
  await side.getByRole('button', { name: 'Clear To' }).click();
  await side.getByRole('searchbox', { name: 'To' }).fill('hostile');
  await side.getByRole('list', { name: /matching for To/ }).getByRole('button').first().click();
  await until(async () => /hostile/.test((await pathBox.textContent().catch(() => '')) ?? ''), { what: 'the path to the hostile page' });
  assert.equal(await heading(), '2 links');
  assert.equal(await pathBox.getByRole('listitem').count(), 3);
  assert.match(await pathBox.textContent(), /“The catalogue”/);
  assert.match(await pathBox.textContent(), /1 shortest path/);
  // The hostile page's title is text in the panel, never markup.
  assert.match(await side.getByRole('region', { name: 'Chosen page' }).textContent(), /zebracorn/i);

  // Either way: degrees of separation.
  await side.getByRole('checkbox', { name: /either way/ }).check();
  await until(async () => /degrees? of separation/.test((await pathBox.getByRole('heading').textContent().catch(() => '')) ?? ''), { what: 'the separation' });

  await page.getByRole('radio', { name: 'Force-directed' }).check();
  await page.getByRole('combobox', { name: 'Colour by' }).selectOption('status');
  await until(() => page.evaluate(() => location.hash.includes('layout=force') && location.hash.includes('color=status')), { what: 'the route' });
  await until(async () => /settled/.test((await page.locator('.settle').textContent()) ?? ''), { timeout: 30000, what: 'the force layout' });
  assert.match(await page.getByRole('complementary', { name: 'Paths' }).textContent(), /2xx/);

  // The settled layout is the worker's raster (sigma's drawing layers hidden), with the path
  // drawn over it; a click on a page drawn there chooses it.
  await until(() => page.locator('.graph-layer.previewing').count(), { what: 'the raster' });
  await until(() => page.locator('.graph-layer').evaluate((layer) => {
    const c = layer.querySelector('canvas.graph-overlay');
    const d = c?.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? [];
    // The path's orange (#e0672b) is on the overlay.
    for (let i = 0; i < d.length; i += 4) if (d[i] === 0xe0 && d[i + 1] === 0x67 && d[i + 2] === 0x2b) return true;
    return false;
  }), { what: 'the path over the raster' });
  await page.locator('.graph-canvas').screenshot({ path: path.join(shotDir, 'graph-force.png') });
  const node = await page.locator('.graph-layer').evaluate((layer) => {
    // A page drawn in the 2xx colour (#2f8a5e), well inside its square.
    // (Its context may be a bitmap renderer: its picture is read through a 2D copy.)
    const shown = layer.querySelector('canvas.graph-preview');
    const c = document.createElement('canvas');
    c.width = shown.width;
    c.height = shown.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(shown, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const is = (x, y) => {
      const i = 4 * (y * c.width + x);
      return d[i] === 0x2f && d[i + 1] === 0x8a && d[i + 2] === 0x5e;
    };
    for (let y = 2; y < c.height - 2; y++) {
      for (let x = 2; x < c.width - 2; x++) if (is(x, y) && is(x + 2, y + 2)) return { x: (x + 1) / devicePixelRatio, y: (y + 1) / devicePixelRatio };
    }
    return null;
  });
  assert.ok(node, 'a page is drawn on the raster');
  await side.getByRole('button', { name: 'Clear To' }).click();
  await side.getByRole('button', { name: 'Clear From' }).click();
  await until(async () => (await side.getByRole('region', { name: 'Chosen page' }).count()) === 0, { what: 'no page chosen' });
  const layerBox = await page.locator('.graph-layer').boundingBox();
  await page.mouse.click(layerBox.x + node.x, layerBox.y + node.y);
  await until(async () => (await side.getByRole('region', { name: 'Chosen page' }).count()) === 1, { what: 'the page clicked on the raster' });
  assert.equal(await side.getByRole('button', { name: 'Clear From' }).count(), 1);

  // Dragging moves the drawn picture by a transform, and once the motion rests the camera
  // is set and the picture redrawn where it was dragged to: no transform left, a new picture,
  // and the drag picked no page.
  const stage = page.locator('.graph-canvas');
  const box = await stage.boundingBox();
  const before = await stage.screenshot();
  const chosen = await side.getByRole('region', { name: 'Chosen page' }).textContent();
  // Every transform the layer is given (under load the motion may rest, and be redrawn,
  // between two steps of the drag).
  await page.locator('.graph-layer').evaluate((layer) => {
    window.__transforms = [];
    new MutationObserver(() => window.__transforms.push(layer.style.transform)).observe(layer, { attributes: true, attributeFilter: ['style'] });
  });
  const transforms = () => page.evaluate(() => window.__transforms.join(' | '));
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 20, { steps: 5 });
  await page.mouse.up();
  assert.match(await transforms(), /translate\(\d+(\.\d+)?px, \d+(\.\d+)?px\) scale\(1\)/);
  await until(async () => (await page.locator('.graph-layer').evaluate((e) => e.style.transform)) === '', { what: 'the redraw at rest' });
  await page.waitForTimeout(200);
  assert.notDeepEqual(await stage.screenshot(), before);
  assert.equal(await side.getByRole('region', { name: 'Chosen page' }).textContent(), chosen);
  // The wheel zooms the same way.
  await page.mouse.wheel(0, -120);
  await until(async () => /scale\(1\.7\)/.test(await transforms()), { what: 'the zoom as a transform' });
  await until(async () => (await page.locator('.graph-layer').evaluate((e) => e.style.transform)) === '', { what: 'the redraw after zooming' });
});

test('nothing crawled ran or became markup', async () => {
  assert.deepEqual(await domOffences(page), []);
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.csp, []);
  assert.deepEqual(site.beacons, []);
});

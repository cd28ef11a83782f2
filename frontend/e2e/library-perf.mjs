// The library's figure in the window (issue 12): opening a library of 10,000 postings, to
// its first postings painted, in Debian's chromium driven by playwright-core against
// `mundaneum serve`. Not a test: `make e2e` does not run it (node --test only picks
// *.test.mjs); `make bench-library` writes the workspace and runs it.
//
//  open   in the running app, from a click on the library's link (the hash changes) to
//         its first postings painted (a MutationObserver sees them, then a frame, then a
//         task): what a user waits for when opening the library.
//  load   a fresh page load of the library's address, from navigation start to the same
//         paint (the app's code is loaded and started too).
//
//   node e2e/library-perf.mjs --db WORKSPACE [--path /Big] [--runs 20] [--loads 5] [--bin PATH]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { binary, launchBrowser, tempDir } from './harness.mjs';

const { values: opt } = parseArgs({
  options: {
    db: { type: 'string' },
    bin: { type: 'string', default: binary },
    path: { type: 'string', default: '/Big' },
    runs: { type: 'string', default: '20' },
    loads: { type: 'string', default: '5' },
  },
});
if (!opt.db || !existsSync(opt.db)) {
  console.error('usage: node e2e/library-perf.mjs --db WORKSPACE [--path /Big] [--runs 20] [--loads 5]');
  process.exit(2);
}

function quantile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
}

const f1 = (x) => x.toFixed(1);

async function serve(dir) {
  const env = { ...process.env, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir, XDG_CACHE_HOME: dir };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  const child = spawn(opt.bin, ['serve', '--db', opt.db], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  process.on('exit', () => child.kill());
  let out = '';
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL in 60 s:\n${out}`)), 60000);
    child.stdout.on('data', (b) => {
      out += b;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
    child.stderr.on('data', (b) => (out += b));
    exited.then((code) => reject(new Error(`serve exited (${code}):\n${out}`)));
  });
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** In the page: opens #/library/id by its link; resolves with the ms to its postings painted. */
function openOnce(id) {
  return new Promise((resolve, reject) => {
    const sel = `section.library[data-id="${id}"] ul.postings li.row`;
    const timer = setTimeout(() => reject(new Error('the postings were not painted in 30 s')), 30000);
    const obs = new MutationObserver(() => {
      if (!document.querySelector(sel)) return;
      obs.disconnect();
      clearTimeout(timer);
      const dom = performance.now() - t0;
      const calls = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/api/App.LibraryPage') && e.startTime >= t0);
      const request = calls.length ? calls[0].responseEnd - calls[0].startTime : NaN;
      performance.clearResourceTimings();
      requestAnimationFrame(() => setTimeout(() => resolve({ ms: performance.now() - t0, dom, request, rows: document.querySelectorAll(sel).length })));
    });
    obs.observe(document.body, { subtree: true, childList: true });
    const a = document.createElement('a');
    a.href = `#/library/${id}`;
    document.querySelector('main').append(a); // the shell routes a plain click on an in-app link
    const t0 = performance.now();
    a.click();
    a.remove();
  });
}

const tmp = await tempDir('mundaneum-libperf-');
const app = await serve(tmp.dir);
const browser = await launchBrowser(tmp.dir);
try {
  const page = await browser.context.newPage();
  await page.goto(app.url);
  const id = await page.evaluate(async (path) => window.go.app.App.LibraryResolve(path), opt.path);
  const lib = await page.evaluate(async (id) => window.go.app.App.LibraryPage(id, '', 0, 1), id);
  console.log(`library ${opt.path} (#${id}): ${lib.total} postings`);

  const opens = [];
  for (let i = 0; i < Number(opt.runs) + 2; i++) {
    await page.evaluate(() => (location.hash = '#/search'));
    await page.locator('section.search').waitFor();
    const r = await page.evaluate(openOnce, id);
    if (i >= 2) opens.push(r); // two warm-up runs
  }
  const ms = opens.map((r) => r.ms);
  const req = opens.map((r) => r.request);
  const dom = opens.map((r) => r.dom);
  console.log(
    `open (click to first postings painted, ${opens[0].rows} rows): p50 ${f1(quantile(ms, 0.5))} ms, p95 ${f1(quantile(ms, 0.95))} ms, max ${f1(Math.max(...ms))} ms (n=${ms.length}); of which the LibraryPage request p50 ${f1(quantile(req, 0.5))} ms, rows in the DOM at p50 ${f1(quantile(dom, 0.5))} ms`,
  );

  const loads = [];
  for (let i = 0; i < Number(opt.loads); i++) {
    const p = await browser.context.newPage();
    await p.goto('about:blank');
    await p.goto(`${app.url}#/library/${id}`);
    await p.locator(`section.library[data-id="${id}"] ul.postings li.row`).first().waitFor({ timeout: 30000 });
    const t = await p.evaluate(() => new Promise((res) => requestAnimationFrame(() => setTimeout(() => res(performance.now())))));
    loads.push(t);
    await p.close();
  }
  console.log(`load (page load to first postings painted): p50 ${f1(quantile(loads, 0.5))} ms, max ${f1(Math.max(...loads))} ms (n=${loads.length})`);
} finally {
  await browser.close();
  await app.stop();
  await tmp.cleanup();
}

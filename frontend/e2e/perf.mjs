// The interface's figures on a large workspace (issue 4), in Debian's chromium driven by
// playwright-core. Not a test: `make e2e` does not run it (node --test only picks *.test.mjs).
//
//  launch  from spawning `mundaneum serve --db DB` to an interactive page (the app is up:
//          its search box is there and takes keys), to the workspace's counts shown in the
//          status line (a separate, slower call), and to the first search's results painted.
//  key     one input event in the search box after a pause (a key, a paste) to its results
//          painted: performance.now() at the event, and after the frame that shows the
//          results (a MutationObserver sees them, then requestAnimationFrame, then a task).
//  burst   a query typed key by key (60 ms apart) from an empty box: last key to its results
//          painted. The box waits for a 120 ms pause in a burst, so this includes it.
//
// Queries: a seeded mix drawn from the vocab.tsv that scripts/benchsearch leaves next to its
// workspaces (single words rare to common, pairs, prefixes, a phrase), else --words FILE.
//
//   node e2e/perf.mjs --db PATH [--runs 5] [--queries 50] [--bursts 20] [--pause 1000] [--cold] [--bin PATH]
//
// --pause is the idle time before each measured key, in ms: the facet counts of the previous
// query (asked for 150 ms after its results) share the server with the next query when it
// is short.
//
// The server marks the workspace's crawls interrupted when it opens it: point it at a copy
// nobody else is using. --cold drops the workspace from the page cache before each launch
// (dd iflag=nocache), otherwise launches are warm.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { binary, launchBrowser, tempDir } from './harness.mjs';

const { values: opt } = parseArgs({
  options: {
    db: { type: 'string' },
    bin: { type: 'string', default: binary },
    runs: { type: 'string', default: '5' },
    queries: { type: 'string', default: '50' },
    bursts: { type: 'string', default: '20' },
    words: { type: 'string' },
    seed: { type: 'string', default: '4' },
    pause: { type: 'string', default: '1000' },
    cold: { type: 'boolean', default: false },
  },
});
if (!opt.db || !existsSync(opt.db)) {
  console.error('usage: node e2e/perf.mjs --db WORKSPACE [--runs N] [--queries N] [--bursts N] [--cold] [--words FILE]');
  process.exit(2);
}
const runs = Number(opt.runs);
const nQueries = Number(opt.queries);
const nBursts = Number(opt.bursts);

// --- queries ---------------------------------------------------------------------------

function prng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

function queryMix(n, seed) {
  const rnd = prng(seed);
  const pick = (a) => a[Math.floor(rnd() * a.length)];
  let words;
  const vocab = path.join(path.dirname(opt.db), 'vocab.tsv');
  if (opt.words) {
    words = readFileSync(opt.words, 'utf8').split(/\s+/).filter((w) => /^[a-z]{4,}$/.test(w)).map((w) => [w, 1]);
  } else if (existsSync(vocab)) {
    // term, column, pages: the body and title words of four letters or more, by frequency
    const seen = new Map();
    for (const line of readFileSync(vocab, 'utf8').split('\n')) {
      const [t, col, df] = line.split('\t');
      if ((col === 'body' || col === 'title') && /^[a-z]{4,}$/.test(t)) seen.set(t, Math.max(seen.get(t) ?? 0, Number(df)));
    }
    words = [...seen].filter(([, df]) => df >= 2).sort((a, b) => b[1] - a[1]);
  } else {
    throw new Error(`no ${vocab}: give --words FILE (words the workspace holds)`);
  }
  // Frequency bands: the first 1% (common), the next 20% (mid), the rest (rare).
  const common = words.slice(0, Math.max(1, Math.floor(words.length * 0.01))).map((w) => w[0]);
  const mid = words.slice(common.length, Math.floor(words.length * 0.21)).map((w) => w[0]);
  const rare = words.slice(common.length + mid.length).map((w) => w[0]);
  const classes = [
    ['rare', () => pick(rare)],
    ['mid', () => pick(mid)],
    ['common', () => pick(common)],
    ['two words', () => `${pick(mid)} ${pick(common)}`],
    ['prefix', () => `${pick(mid).slice(0, 4)}*`],
    ['phrase', () => `"${pick(common)} ${pick(common)}"`],
  ];
  const out = new Set();
  for (let i = 0; out.size < n && i < n * 20; i++) {
    const [cls, f] = classes[out.size % classes.length];
    const q = f();
    if (![...out].some((x) => x.q === q)) out.add({ cls, q });
  }
  return [...out];
}

// --- helpers ---------------------------------------------------------------------------

function quantile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
}

function summary(xs) {
  return { n: xs.length, p50: quantile(xs, 0.5), p95: quantile(xs, 0.95), max: Math.max(...xs), min: Math.min(...xs) };
}

const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '–');

function evict(file) {
  for (const f of [file, `${file}-wal`]) {
    if (existsSync(f)) spawnSync('dd', [`if=${f}`, 'iflag=nocache', 'count=0', 'status=none']);
  }
}

async function serve(dir) {
  const env = { ...process.env, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir, XDG_CACHE_HOME: dir };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  const t0 = performance.now();
  const child = spawn(opt.bin, ['serve', '--db', opt.db], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  process.on('exit', () => child.kill()); // also when a measurement fails
  let out = '';
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL in 60 s:\n${out}`)), 60000);
    const look = () => {
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    };
    child.stdout.on('data', (b) => {
      out += b;
      look();
    });
    child.stderr.on('data', (b) => (out += b));
    exited.then((code) => reject(new Error(`serve exited (${code}):\n${out}`)));
  });
  return {
    t0,
    url,
    listening: performance.now() - t0,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** In the page: sets the box to q with one input event; resolves with the ms to paint. */
function typeOnce(q) {
  return new Promise((resolve, reject) => {
    const box = document.querySelector('input[type=search]');
    const sel = `[data-for="${CSS.escape(q)}"]`;
    let t0 = 0;
    const timer = setTimeout(() => {
      obs.disconnect();
      const shown = document.querySelector('main')?.innerText.slice(0, 300) ?? '';
      reject(new Error(`no results for ${q} in 30 s; the page shows: ${shown}`));
    }, 30000);
    const obs = new MutationObserver(() => {
      if (!document.querySelector(sel)) return;
      obs.disconnect();
      clearTimeout(timer);
      const rendered = performance.now();
      requestAnimationFrame(() => {
        setTimeout(() => {
          const meta = document.getElementById('search-meta')?.textContent ?? '';
          const took = meta.match(/in ([\d.]+) (ms|s)/);
          // The request that answered: the last search call started after the event.
          const calls = performance
            .getEntriesByType('resource')
            .filter((e) => e.name.endsWith('/api/App.Search') && e.startTime >= t0 && e.responseEnd <= rendered);
          const call = calls[calls.length - 1];
          resolve({
            ms: performance.now() - t0,
            dom: rendered - t0,
            tookMs: took ? Number(took[1]) * (took[2] === 's' ? 1000 : 1) : NaN,
            request: call ? call.responseEnd - call.startTime : NaN,
            render: call ? rendered - call.responseEnd : NaN,
          });
          performance.clearResourceTimings();
        }, 0);
      });
    });
    obs.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-for'] });
    box.focus();
    box.value = q;
    t0 = performance.now();
    box.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** In the page: records when the box last changed to q, and resolves at q's results painted. */
function watchBurst(q) {
  return new Promise((resolve, reject) => {
    const box = document.querySelector('input[type=search]');
    const sel = `[data-for="${CSS.escape(q)}"]`;
    let last = 0;
    const oninput = () => {
      if (box.value === q) last = performance.now();
    };
    box.addEventListener('input', oninput);
    const timer = setTimeout(() => reject(new Error(`no results for ${q} in 30 s`)), 30000);
    const obs = new MutationObserver(() => {
      if (!last || !document.querySelector(sel)) return;
      obs.disconnect();
      clearTimeout(timer);
      box.removeEventListener('input', oninput);
      requestAnimationFrame(() => setTimeout(() => resolve({ ms: performance.now() - last }), 0));
    });
    obs.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-for'] });
    window.__burstReady = true;
  });
}

// --- main ------------------------------------------------------------------------------

const tmp = await tempDir('mundaneum-perf-');
const browser = await launchBrowser(tmp.dir);
const queries = queryMix(nQueries + 5, Number(opt.seed));
const launches = [];
let page;
let app;
try {
  for (let r = 0; r < runs; r++) {
    if (opt.cold) evict(opt.db);
    app = await serve(path.join(tmp.dir, `xdg${r}`));
    page = await browser.context.newPage();
    await page.goto(app.url, { waitUntil: 'commit' });
    await page.waitForFunction(
      () => {
        const box = document.querySelector('input[type=search]');
        return box && !box.disabled && document.activeElement === box;
      },
      null,
      { polling: 'raf', timeout: 60000 },
    );
    const interactive = performance.now() - app.t0;
    const nav = await page.evaluate(() => {
      const n = performance.getEntriesByType('navigation')[0];
      const r = (x) => Math.round(x);
      const mark = (name) => r(performance.getEntriesByName(name)[0]?.startTime ?? NaN);
      const bridge = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/_mundaneum/bridge.js'));
      return (
        `HTML ${r(n.responseEnd)}, bridge.js ${r(bridge?.startTime ?? NaN)}-${r(bridge?.responseEnd ?? NaN)}, ` +
        `app code ${mark('mundaneum:start')}, mounted ${mark('mundaneum:mounted')}, ` +
        `DOMContentLoaded ${r(n.domContentLoadedEventEnd)}, interactive ${r(performance.now())} ms after navigation start`
      );
    });
    const first = await page.evaluate(typeOnce, queries[0].q);
    const firstResults = performance.now() - app.t0;
    await page.waitForFunction(() => /\d[\d,]* pages/.test(document.querySelector('footer.status')?.textContent ?? ''), null, {
      polling: 'raf',
      timeout: 60000,
    });
    const counts = performance.now() - app.t0;
    launches.push({ listening: app.listening, interactive, firstResults, counts, firstSearch: first.ms });
    console.log(
      `launch ${r + 1}: listening ${f1(app.listening)} ms, interactive ${f1(interactive)} ms, ` +
        `first results ${f1(firstResults)} ms (search "${queries[0].q}" ${f1(first.ms)} ms), counts ${f1(counts)} ms; page: ${nav}`,
    );
    if (r < runs - 1) {
      await page.close();
      await app.stop();
    }
  }

  // Typing, on the last launch's page: warm up, then one input event per query after a pause.
  const keys = [];
  for (const [i, { cls, q }] of queries.slice(1).entries()) {
    await page.waitForTimeout(Number(opt.pause));
    const m = await page.evaluate(typeOnce, q);
    if (i >= 4) keys.push({ cls, q, ...m });
  }
  // Bursts: clear the box, then type a query key by key.
  const bursts = [];
  for (const { q } of queries.slice(1, 1 + nBursts)) {
    await page.getByRole('searchbox').fill('');
    await page.waitForTimeout(300);
    const done = page.evaluate(watchBurst, q);
    await page.waitForFunction(() => window.__burstReady === true);
    await page.evaluate(() => (window.__burstReady = false));
    await page.getByRole('searchbox').pressSequentially(q, { delay: 60 });
    bursts.push((await done).ms);
  }

  const l = (k) => summary(launches.map((x) => x[k]));
  const k = summary(keys.map((x) => x.ms));
  const kd = summary(keys.map((x) => x.dom));
  const kt = summary(keys.map((x) => x.tookMs));
  const kr = summary(keys.map((x) => x.request));
  const kx = summary(keys.map((x) => x.render));
  const b = summary(bursts);
  const fmt = (s) => `p50 ${f1(s.p50)}  p95 ${f1(s.p95)}  max ${f1(s.max)}  (n=${s.n})`;
  console.log(`\nworkspace ${opt.db} (${opt.cold ? 'cold' : 'warm'} page cache), ${runs} launches`);
  console.log(`launch → listening         ${fmt(l('listening'))} ms`);
  console.log(`launch → interactive page  ${fmt(l('interactive'))} ms`);
  console.log(`launch → first results     ${fmt(l('firstResults'))} ms`);
  console.log(`launch → counts shown      ${fmt(l('counts'))} ms`);
  console.log(`key → results painted      ${fmt(k)} ms`);
  console.log(`  of which in the DOM      ${fmt(kd)} ms`);
  console.log(`  the search request       ${fmt(kr)} ms`);
  console.log(`    of which the engine    ${fmt(kt)} ms (tookMs)`);
  console.log(`  answer → in the DOM      ${fmt(kx)} ms`);
  console.log(`burst, last key → painted  ${fmt(b)} ms (includes the 120 ms pause)`);
  const byClass = {};
  for (const x of keys) (byClass[x.cls] ??= []).push(x.ms);
  for (const [cls, xs] of Object.entries(byClass)) console.log(`  ${cls.padEnd(10)} ${fmt(summary(xs))} ms`);
  const slow = [...keys].sort((a, b2) => b2.ms - a.ms).slice(0, 5);
  console.log(`slowest: ${slow.map((x) => `${JSON.stringify(x.q)} ${f1(x.ms)} ms (search ${f1(x.tookMs)})`).join(', ')}`);
  console.log(
    JSON.stringify({ db: opt.db, cold: opt.cold, launch: { listening: l('listening'), interactive: l('interactive'), firstResults: l('firstResults'), counts: l('counts') }, key: k, keyRequest: kr, keyEngine: kt, keyRender: kx, burst: b }),
  );
} finally {
  await page?.close().catch(() => {});
  await app?.stop().catch(() => {});
  await browser.close();
  await tmp.cleanup();
}

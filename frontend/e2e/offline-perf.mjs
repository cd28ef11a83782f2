// Reading offline, timed (issue 27): a click on a link in an offline copy to the stored
// target shown, in `mundaneum serve` and Debian's chromium driven by playwright-core. Not a
// test: `make e2e` does not run it (node --test only picks *.test.mjs); `make bench-offline`
// runs it on Debian's PostgreSQL manual crawled with its requisites.
//
//   node e2e/offline-perf.mjs --db WORKSPACE --start URL [--clicks 200] [--pause 150] [--seed 27] [--bin PATH]
//
// From the page view of --start, a seeded random walk: each step clicks, inside the copy's
// frame, a link the copy marks as opening a page the workspace holds (another page than the
// one shown), and measures in the page, with performance.now(), from the click to the
// target's copy shown: the frame holds a new document, loaded, and a frame has been painted
// after it (requestAnimationFrame, then a task). A page whose copy has no such link sends
// the walk back to --start (that step is not timed). Beside the time, each click's cost: the
// OfflineCopy call as the page saw it (to its answer's headers), and the CPU time the server and the browser's
// processes used meanwhile (from /proc), which says what the click costs whatever else the
// machine is doing. Prints the distributions and a JSON line.
//
// The server marks the workspace's crawls interrupted when it opens it: point it at a copy
// nobody else uses.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { apiClient, binary, launchBrowser, tempDir } from './harness.mjs';

const { values: opt } = parseArgs({
  options: {
    db: { type: 'string' },
    start: { type: 'string' },
    bin: { type: 'string', default: binary },
    clicks: { type: 'string', default: '200' },
    pause: { type: 'string', default: '150' },
    seed: { type: 'string', default: '27' },
  },
});
if (!opt.db || !existsSync(opt.db) || !opt.start) {
  console.error('usage: node e2e/offline-perf.mjs --db WORKSPACE --start URL [--clicks N] [--pause MS] [--seed N]');
  process.exit(2);
}
const clicks = Number(opt.clicks);
const pause = Number(opt.pause);

function prng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}
const rand = prng(Number(opt.seed));

async function serve(tmp) {
  const env = { ...process.env, XDG_DATA_HOME: `${tmp}/data`, XDG_CONFIG_HOME: `${tmp}/config`, XDG_CACHE_HOME: `${tmp}/cache` };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  const child = spawn(opt.bin, ['serve', '--db', opt.db], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (b) => (out += b));
  child.stderr.on('data', (b) => (out += b));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL in 60 s:\n${out}`)), 60000);
    const look = () => {
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    };
    child.stdout.on('data', look);
    child.on('exit', (code) => reject(new Error(`serve exited (${code}):\n${out}`)));
  });
  return { url, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

// CPU time (ms) used so far by the server and by the browser's processes (those whose
// command line names the test's profile directory): the work a click costs, whatever else
// the machine is doing (at the 10 ms resolution of /proc's clock ticks).
function cpuMs(serverPid, marker) {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (Number(pid) !== serverPid && !readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(marker)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]); // utime, stime
    } catch {
      // gone meanwhile
    }
  }
  return ticks * 10;
}

function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

const tmp = await tempDir('mundaneum-offline-perf-');
const app = await serve(tmp.dir);
const api = await apiClient(app);
const browser = await launchBrowser(tmp.dir);
const page = await browser.context.newPage();
page.setDefaultTimeout(30000);
const errors = [];
page.on('pageerror', (e) => errors.push(String(e)));

try {
  const start = await api.call('LinkTarget', opt.start);
  if (!start.page) throw new Error(`${opt.start} is not held in ${opt.db}: ${JSON.stringify(start)}`);
  const startHash = `#/page/${start.page}?copy=page`;

  /** Shows --start's copy (untimed) and waits until its frame has loaded. */
  async function home() {
    await page.evaluate((h) => (location.hash = h), startHash);
    await page.waitForFunction(() => {
      const f = document.querySelector('iframe');
      return f?.contentDocument?.readyState === 'complete' && f.contentDocument.querySelector('a[data-mundaneum-page]');
    });
  }

  await page.goto(`${app.url}${startHash}`);
  await home();
  const times = [];
  const cpus = [];
  const calls = [];
  const sizes = [];
  const walk = [];
  let restarts = 0;
  for (let step = 0; times.length < clicks && step < clicks * 3; step++) {
    // Pick a held link of another page (the page's own fragments and itself excluded).
    const pick = rand();
    const c0 = cpuMs(app.pid, tmp.dir);
    const r = await page.evaluate(
      async ({ pick, shown }) => {
        const f = document.querySelector('iframe');
        const d = f?.contentDocument;
        if (!d) return { none: true };
        const here = /#\/page\/(\d+)/.exec(location.hash)?.[1];
        const links = [...d.querySelectorAll('a[data-mundaneum-page]')].filter((a) => a.getAttribute('data-mundaneum-page') !== here);
        if (links.length === 0) return { none: true };
        const a = links[Math.floor(pick * links.length)];
        const target = a.getAttribute('data-mundaneum-page');
        const old = d;
        // A build whose frame counts the documents it shows (data-shown: the next copy swapped
        // into the frame's document) is done when the count moves; an older one, whose frame
        // loads each copy as a new document, when that document has loaded.
        const shown0 = f.dataset.shown;
        // The copy's API call, timed as the page sees it: from the request to the answer's
        // headers (the server makes the whole answer before it sends them).
        const api = {};
        const fetch0 = window.fetch;
        window.fetch = async (...args) => {
          const name = String(args[0]).split('/').pop();
          const s = performance.now();
          const res = await fetch0(...args);
          api[name] = performance.now() - s;
          // The copy's size, as the answer's length (read after the click is timed).
          if (name === 'App.OfflineCopy') api.answer = res.clone();
          return res;
        };
        const t0 = performance.now();
        a.click();
        // The target's copy: a new document in the frame, loaded, then painted.
        await new Promise((resolve, reject) => {
          const deadline = t0 + 20000;
          const poll = () => {
            const nf = document.querySelector('iframe');
            const nd = nf?.contentDocument;
            // (A new frame holds about:blank before its srcdoc document.)
            const swapped = shown0 !== undefined && nf?.dataset.shown !== shown0 && nd?.readyState === 'complete';
            const loaded = nd && nd !== old && nd.URL === 'about:srcdoc' && nd.readyState === 'complete';
            if ((swapped || loaded) && location.hash.includes(`/page/${target}?`)) {
              requestAnimationFrame(() => setTimeout(resolve, 0));
              return;
            }
            if (performance.now() > deadline) {
              reject(new Error(`no copy of page ${target} after 20 s: at ${location.hash}, frame ${nd ? `${nd.URL} ${nd.readyState} “${nd.title}”` : 'none'}, ` +
                `${document.querySelectorAll('iframe').length} frames, text: ${document.querySelector('article')?.textContent?.slice(0, 300)}`));
            } else requestAnimationFrame(poll);
          };
          poll();
        });
        const t1 = performance.now();
        window.fetch = fetch0;
        if (api.answer) api.size = (await api.answer.text()).length;
        return { ms: t1 - t0, copyCall: api['App.OfflineCopy'] ?? 0, target, size: api.size ?? 0, shown };
      },
      { pick, shown: times.length },
    );
    if (r.none) {
      restarts++;
      await home();
      continue;
    }
    cpus.push(cpuMs(app.pid, tmp.dir) - c0);
    times.push(r.ms);
    calls.push(r.copyCall);
    sizes.push(r.size);
    walk.push({ page: Number(r.target), ms: +r.ms.toFixed(1), kb: Math.round(r.size / 1024) });
    if (pause > 0) await new Promise((res) => setTimeout(res, pause));
  }
  const sorted = [...times].sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const kb = [...sizes].sort((a, b) => a - b);
  const cs = [...calls].sort((a, b) => a - b);
  const cp = [...cpus].sort((a, b) => a - b);
  const res = {
    clicks: times.length,
    restarts,
    p50: +quantile(sorted, 0.5).toFixed(1),
    p95: +quantile(sorted, 0.95).toFixed(1),
    p99: +quantile(sorted, 0.99).toFixed(1),
    max: +sorted[sorted.length - 1].toFixed(1),
    mean: +mean.toFixed(1),
    docKB: { p50: Math.round(quantile(kb, 0.5) / 1024), max: Math.round(kb[kb.length - 1] / 1024) },
    copyCall: { p50: +quantile(cs, 0.5).toFixed(1), p95: +quantile(cs, 0.95).toFixed(1) },
    cpuMs: { p50: quantile(cp, 0.5), p95: quantile(cp, 0.95) },
    // Where the tail goes: the slowest tenth of the clicks, with their answers' sizes.
    slowest: [...walk].sort((a, b) => b.ms - a.ms).slice(0, Math.ceil(walk.length / 10)),
    errors,
  };
  console.log(
    `offline click to stored copy shown: ${res.clicks} clicks (${restarts} walks restarted): p50 ${res.p50} ms, p95 ${res.p95} ms, ` +
      `p99 ${res.p99} ms, max ${res.max} ms; answers (the copy with its text) p50 ${res.docKB.p50} KB, max ${res.docKB.max} KB; ` +
      `the OfflineCopy call in it p50 ${res.copyCall.p50} ms, p95 ${res.copyCall.p95} ms; ` +
      `CPU per click (server and browser) p50 ${res.cpuMs.p50} ms, p95 ${res.cpuMs.p95} ms`,
  );
  console.log(JSON.stringify(res));
  if (errors.length) process.exitCode = 1;
} finally {
  await browser.close();
  app.stop();
  await tmp.cleanup();
}

// The process held back by its own background threads, timed: a crawl of a loopback site
// in `mundaneum serve`, a Status call every 20 ms beside it, and --busy busy loops on the
// machine's cores, for --seconds. Not a test (node --test only picks *.test.mjs); `make
// bench-stall` runs it. A call that waits long waited for the process, not for its work
// (Status reads a few counters): the index's stage at nice 19 made every garbage collection
// wait for a thread the OS kept off the cores (backend/priority).
//
//   node e2e/stall-perf.mjs [--busy 12] [--seconds 40] [--pages 3000] [--bin PATH]
//
// Prints the calls' p50, p99 and max, and the pages the crawl fetched meanwhile.
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { apiClient, binary, startApp, tempDir } from './harness.mjs';
import { linkedSite } from './site.mjs';

const { values: opt } = parseArgs({
  options: {
    bin: { type: 'string', default: binary },
    busy: { type: 'string', default: '12' },
    seconds: { type: 'string', default: '40' },
    pages: { type: 'string', default: '3000' },
  },
});
process.env.MUNDANEUM_BIN = opt.bin;

const tmp = await tempDir('mundaneum-stall-');
const s = await linkedSite(Number(opt.pages), {
  page: (i) => `<title>Page ${i}</title><p>${'words of some length for the index '.repeat(40)} ${i}</p>`,
});
const app = await startApp(tmp.dir);
const api = await apiClient(app);
const busy = [];
for (let i = 0; i < Number(opt.busy); i++) busy.push(spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
try {
  await api.call('StartCrawl', { seeds: [s.url], scope: 'site', delayMs: 0 });
  const lat = [];
  const t0 = Date.now();
  while (Date.now() - t0 < Number(opt.seconds) * 1000) {
    const a = Date.now();
    await api.call('Status');
    lat.push(Date.now() - a);
    await new Promise((r) => setTimeout(r, 20));
  }
  lat.sort((a, b) => a - b);
  const c = (await api.call('Crawls'))[0];
  const q = (f) => lat[Math.min(lat.length - 1, Math.floor(lat.length * f))];
  console.log(`stall: ${lat.length} calls, p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${lat[lat.length - 1]} ms; the crawl ${c.state}, ${c.fetched} pages fetched (${opt.busy} busy loops beside)`);
  console.log(JSON.stringify({ calls: lat.length, p50: q(0.5), p99: q(0.99), max: lat[lat.length - 1], fetched: c.fetched, busy: Number(opt.busy) }));
} finally {
  for (const b of busy) b.kill();
  await app.stop();
  s.close();
  await tmp.cleanup();
}
process.exit(0);

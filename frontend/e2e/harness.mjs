// Shared set-up for the end-to-end tests: a `mundaneum serve` process on a fresh workspace,
// Debian's chromium driven by playwright-core with a fresh profile, and helpers that watch
// a page for anything a hostile page could make it do.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '../..');

/** The binary under test (make e2e builds it). */
export const binary = process.env.MUNDANEUM_BIN || path.join(repo, 'build/bin/mundaneum');

/** Where screenshots go: docs/screenshots with SCREENSHOTS=1, else build/e2e. */
export const shotDir = process.env.E2E_SCREENSHOTS || path.join(repo, 'build/e2e');

/** A host name chromium resolves to 127.0.0.1, as a DNS-rebinding attacker's would. */
export const reboundHost = 'rebound.example';

const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--host-resolver-rules=MAP ${reboundHost} 127.0.0.1`,
];

/** Makes a temporary directory removed by the returned cleanup. */
export async function tempDir(prefix) {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Starts `mundaneum serve --db <dir>/e2e.mundaneum` and waits for the URL it prints.
 * Returns { url, origin, port, stop(), output() }; stop() sends SIGTERM and resolves with
 * the exit code.
 */
export async function startApp(dir, extraArgs = []) {
  const db = path.join(dir, 'e2e.mundaneum');
  const env = {
    ...process.env,
    XDG_DATA_HOME: path.join(dir, 'data'),
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    XDG_CACHE_HOME: path.join(dir, 'cache'),
  };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  const child = spawn(binary, ['serve', '--db', db, ...extraArgs], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (b) => (out += b));
  child.stderr.on('data', (b) => (out += b));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mundaneum serve printed no URL in 15 s:\n${out}`)), 15000);
    const look = () => {
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    };
    child.stdout.on('data', look);
    child.on('error', (err) => reject(new Error(`cannot start ${binary}: ${err.message} (run: make build)`)));
    exited.then((code) => reject(new Error(`mundaneum serve exited (${code}) before listening:\n${out}`)));
  });
  const u = new URL(url);
  return {
    url,
    origin: u.origin,
    port: Number(u.port),
    db,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      let timer;
      const timeout = new Promise((resolve) => (timer = setTimeout(() => resolve('timeout'), 10000)));
      const code = await Promise.race([exited, timeout]);
      clearTimeout(timer);
      if (code === 'timeout') child.kill('SIGKILL');
      return code;
    },
  };
}

/**
 * An API client for the test's own checks, as a page of the app would call it: it reads
 * the token from the served index.html.
 */
export async function apiClient(app) {
  const html = await (await fetch(app.url)).text();
  const m = html.match(/<meta name="mundaneum-token" content="([0-9a-f]{64})"/);
  if (!m) throw new Error('no token in the served index.html');
  const token = m[1];
  return {
    token,
    async call(method, ...args) {
      const res = await fetch(`${app.url}api/App.${method}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Mundaneum-Token': token },
        body: JSON.stringify(args),
      });
      const body = await res.json();
      if (!res.ok) throw new Error(`App.${method}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    },
  };
}

/** Launches chromium headless with a fresh profile; returns { context, close }. */
export async function launchBrowser(dir, options = {}) {
  const profile = path.join(dir, 'chromium-profile');
  await mkdir(profile, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: chromiumArgs,
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    ...options,
  });
  return { context, close: () => context.close() };
}

/**
 * Watches a page for what hostile content could do: dialogs (dismissed and recorded),
 * uncaught errors, console messages, and CSP violations (console errors and
 * securitypolicyviolation events). Install it before the page loads.
 */
export async function watch(page) {
  const seen = { dialogs: [], errors: [], console: [], csp: [] };
  page.on('dialog', (d) => {
    seen.dialogs.push(`${d.type()}: ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  page.on('pageerror', (e) => seen.errors.push(String(e)));
  page.on('console', (m) => {
    const text = m.text();
    seen.console.push(`${m.type()}: ${text}`);
    if (/Content Security Policy|Refused to (execute|load|apply|connect|frame)/i.test(text)) seen.csp.push(text);
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return seen;
}

/**
 * Inspects the app's DOM for anything crawled text could have become: a script not served
 * by the app, an element with an inline event handler, an image, frame, object or SVG
 * nobody put there, a javascript: link. Returns a list of offences.
 */
export function domOffences(page) {
  return page.evaluate(() => {
    const bad = [];
    for (const el of document.querySelectorAll('*')) {
      // A library's picture: a raster image the backend sniffed, as a data: URL.
      const picture = (a) => el.localName === 'img' && a.name === 'src' && /^data:image\/(png|gif|jpeg|webp);base64,[A-Za-z0-9+/=]+$/.test(a.value);
      // Settings' bookmarklet (serve only): exactly the app's own code, opening this origin's add form.
      const bookmarklet = (a) =>
        el.localName === 'a' && el.hasAttribute('data-bookmarklet') && a.name === 'href' &&
        a.value === `javascript:(()=>{const s=String(getSelection()).slice(0,2000);open(${JSON.stringify(location.origin + '/#/add?')}+new URLSearchParams({url:location.href,title:document.title,notes:s}),'_blank','noopener')})()`;
      for (const a of el.attributes) {
        if (/^on/i.test(a.name)) bad.push(`<${el.localName} ${a.name}>`);
        if ((a.name === 'href' || a.name === 'src' || a.name === 'action') && /^\s*(javascript|data|vbscript):/i.test(a.value) && !picture(a) && !bookmarklet(a)) {
          bad.push(`<${el.localName} ${a.name}="${a.value.slice(0, 60)}">`);
        }
      }
      if (el.localName === 'script') {
        const src = el.getAttribute('src') || '';
        if (!/^\/(assets\/|_mundaneum\/bridge\.js$)/.test(src)) bad.push(`<script src="${src}">`);
      }
      const tag = el.localName;
      if (['frame', 'object', 'embed', 'video', 'audio', 'base'].includes(tag)) bad.push(`<${tag}>`);
      // A frame for an offline copy must be sandboxed without scripts: nothing but
      // allow-same-origin (which lets the app take its link clicks) may be allowed.
      if (tag === 'iframe' && !/^(allow-same-origin)?$/.test(el.getAttribute('sandbox') ?? 'allow-scripts')) {
        bad.push(`<iframe sandbox="${el.getAttribute('sandbox')}">`);
      }
      // The app's own pictures come from its own files.
      if (tag === 'img' && !/^(\/[\w./-]+|data:image\/(png|gif|jpeg|webp);base64,[A-Za-z0-9+/=]+)$/.test(el.getAttribute('src') || '')) bad.push(`<img src="${(el.getAttribute('src') || '').slice(0, 60)}">`);
      if (tag === 'svg' && el.querySelector('script, foreignObject')) bad.push('<svg> with script');
      if (tag === 'form' && el.hasAttribute('action')) bad.push(`<form action="${el.getAttribute('action')}">`);
    }
    if (window.__pwned !== undefined) bad.push(`window.__pwned = ${String(window.__pwned)}`);
    return bad;
  });
}

/** Polls f until it returns a truthy value or the time runs out; returns the last value. */
export async function until(f, { timeout = 20000, interval = 100, what = 'condition' } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, interval));
  }
}

// Builds the extension for each browser: build/extension/<browser>/ (unpacked, to load in
// a browser or test) and build/mundaneum-capture-<browser>.zip (to install or publish),
// then checks Firefox's with Mozilla's linter (web-ext lint) and both manifests against
// what each browser requires.
//
//   node build.mjs             build both, zip, lint
//   node build.mjs --no-lint   build and zip only
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, readdir, rm, writeFile, copyFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zip } from './zip.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(here, '../build');
const pkg = JSON.parse(await readFile(path.join(here, 'package.json'), 'utf8'));
const lint = !process.argv.includes('--no-lint');

// The manifest and its check are TypeScript: bundled for node to call.
const { outputFiles } = await build({ entryPoints: [path.join(here, 'src/node.ts')], bundle: true, format: 'esm', platform: 'node', write: false });
const { manifest, checkManifest } = await import('data:text/javascript;base64,' + Buffer.from(outputFiles[0].text).toString('base64'));

const targets = { chromium: ['chrome120'], firefox: ['firefox140'] };

async function files(dir, prefix = '') {
  const list = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix + e.name;
    if (e.isDirectory()) list.push(...(await files(path.join(dir, e.name), rel + '/')));
    else list.push(rel);
  }
  return list;
}

for (const browser of ['chromium', 'firefox']) {
  const dir = path.join(out, 'extension', browser);
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'icons'), { recursive: true });
  await build({
    entryPoints: ['background', 'popup', 'options'].map((n) => path.join(here, 'src', `${n}.ts`)),
    outdir: dir,
    bundle: true,
    format: 'iife',
    target: targets[browser],
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'warning',
  });
  for (const f of await readdir(path.join(here, 'static'))) await copyFile(path.join(here, 'static', f), path.join(dir, f));
  for (const f of await readdir(path.join(here, 'icons'))) await copyFile(path.join(here, 'icons', f), path.join(dir, 'icons', f));
  const m = manifest(browser, pkg.version);
  const problems = checkManifest(browser, m, await files(dir));
  if (problems.length) throw new Error(`${browser} manifest:\n  ${problems.join('\n  ')}`);
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(m, null, 2) + '\n');
  const entries = [];
  for (const name of await files(dir)) entries.push({ name, data: await readFile(path.join(dir, name)) });
  const zipPath = path.join(out, `mundaneum-capture-${browser}.zip`);
  await writeFile(zipPath, zip(entries));
  console.log(`extension: ${path.relative(process.cwd(), zipPath)} (${entries.length} files, Manifest V${m.manifest_version})`);
}

if (lint) {
  // Mozilla's add-ons linter, as addons.mozilla.org runs it: errors fail the build.
  const bin = path.join(here, 'node_modules/.bin/web-ext');
  let report;
  try {
    report = execFileSync(bin, ['lint', '--source-dir', path.join(out, 'extension/firefox'), '--output', 'json', '--no-config-discovery'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  } catch (err) {
    // It exits 1 when it found errors; its report is on stdout all the same.
    if (typeof err.stdout !== 'string' || !err.stdout.includes('{')) throw err;
    report = err.stdout;
  }
  const r = JSON.parse(report.slice(report.indexOf('{')).trim());
  for (const w of r.warnings) console.log(`extension: web-ext lint warning ${w.code}: ${w.message} (${w.file ?? ''})`);
  if (r.errors.length) {
    for (const e of r.errors) console.error(`extension: web-ext lint error ${e.code}: ${e.message} (${e.file ?? ''})`);
    process.exit(1);
  }
  console.log(`extension: web-ext lint: ${r.errors.length} errors, ${r.warnings.length} warnings, ${r.notices.length} notices`);
}

// The options page: pair this browser with Mundaneum (its address and a one-time code from
// its Settings), check or forget the pairing, and turn the badge on or off.
import { normaliseAddress, originPattern } from './address';
import { Mundaneum } from './client';
import { browserName } from './browser';
import { advice, CaptureError } from './errors';
import { defaults, load, save } from './settings';

function el<T extends HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`options.html lacks #${id}`);
  return e as T;
}

const address = el<HTMLInputElement>('address');
const code = el<HTMLInputElement>('code');
const pairMsg = el<HTMLSpanElement>('pair-msg');
const state = el<HTMLParagraphElement>('state');
const badge = el<HTMLInputElement>('badge');
const errorBox = el<HTMLParagraphElement>('error');

/** The origins the browser lets the extension reach, as read when the page opened. */
const granted = new Set<string>();
void chrome.permissions.getAll().then((p) => p.origins?.forEach((o) => granted.add(o)));

function fail(text: string) {
  errorBox.textContent = text;
  errorBox.hidden = false;
}

async function showState() {
  const s = await load();
  address.value = s.address;
  badge.checked = s.badge;
  if (!s.token) {
    state.textContent = 'Not paired.';
    return;
  }
  state.textContent = `Paired with ${s.workspace || 'a workspace'} (${s.door === 'window' ? 'the desktop window' : 'mundaneum serve'}) at ${s.address}.`;
}

el<HTMLFormElement>('pairing').addEventListener('submit', (e) => {
  e.preventDefault();
  errorBox.hidden = true;
  pairMsg.className = '';
  let base: string;
  try {
    base = normaliseAddress(address.value);
  } catch (err) {
    fail((err as Error).message);
    return;
  }
  // A browser that did not grant the loopback origins at install (Firefox may leave them to
  // the user) asks now: only in the click itself, so before anything is awaited.
  const pattern = originPattern(base);
  const asked = granted.has(pattern) ? Promise.resolve(true) : chrome.permissions.request({ origins: [pattern] }).catch(() => false);
  void (async () => {
    if (!(await asked)) {
      fail(`The browser did not allow the extension to reach ${base}.`);
      return;
    }
    pairMsg.textContent = 'Pairing…';
    try {
      const uad = (navigator as { userAgentData?: { brands: { brand: string; version: string }[]; platform: string } }).userAgentData;
      const p = await new Mundaneum(base, '').pair(code.value, browserName(navigator.userAgent, uad?.brands, uad?.platform));
      await save({ address: base, token: p.token, workspace: p.workspace, door: p.door });
      code.value = '';
      pairMsg.className = 'ok';
      pairMsg.textContent = `Paired with ${p.workspace}.`;
      await showState();
    } catch (err) {
      pairMsg.textContent = '';
      fail(err instanceof CaptureError ? advice(err, base) : String(err));
    }
  })();
});

el('check').addEventListener('click', async () => {
  errorBox.hidden = true;
  const s = await load();
  if (!s.token) {
    state.textContent = 'Not paired.';
    return;
  }
  try {
    const h = await new Mundaneum(s.address, s.token).hello();
    await save({ workspace: h.workspace, door: h.door });
    await showState();
    state.textContent += ' It answers.';
  } catch (err) {
    fail(err instanceof CaptureError ? advice(err, s.address) : String(err));
  }
});

el('forget').addEventListener('click', async () => {
  await save({ token: '', workspace: '', door: '', recent: defaults.recent });
  await showState();
});

badge.addEventListener('change', () => void save({ badge: badge.checked }));

void chrome.commands?.getAll?.().then((cs) => {
  const c = cs.find((x) => x.name === '_execute_action');
  if (c?.shortcut) el('shortcut').textContent = c.shortcut;
});

void showState();

// Where Mundaneum listens. The extension talks to Mundaneum on this machine only: an
// address is accepted when it is http on a loopback host (127.0.0.1 or localhost).

/** The window's door for browsers, unless its Settings moved it. */
export const defaultAddress = 'http://127.0.0.1:7343/';

/**
 * Returns the address as the base of the capture calls ("http://127.0.0.1:7343/"), or
 * throws an Error saying what is wrong with it. A bare port ("7343") or host:port is taken
 * as loopback http.
 */
export function normaliseAddress(raw: string): string {
  let s = raw.trim();
  if (s === '') throw new Error('Give the address Mundaneum shows in its Settings.');
  if (/^\d{1,5}$/.test(s)) s = `127.0.0.1:${s}`;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) s = `http://${s}`;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new Error(`“${raw.trim()}” is not an address.`);
  }
  if (u.protocol !== 'http:') throw new Error('Mundaneum on this machine is reached over http (http://127.0.0.1:PORT/).');
  if (!['127.0.0.1', 'localhost'].includes(u.hostname)) {
    throw new Error('The extension talks only to Mundaneum on this machine: 127.0.0.1 or localhost.');
  }
  if (u.username || u.password) throw new Error('An address without a user name or password.');
  if (u.pathname !== '/' || u.search !== '') throw new Error('Give the address alone, http://127.0.0.1:PORT/, without a path.');
  return `${u.protocol}//${u.host}/`;
}

/** The origin pattern the browser must allow for an address (permissions.request). */
export function originPattern(base: string): string {
  const u = new URL(base);
  return `${u.protocol}//${u.hostname}/*`;
}

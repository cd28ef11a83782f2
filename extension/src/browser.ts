// The name a browser gives itself when it pairs, for Mundaneum's list of paired browsers.

/** What the browser calls itself, for Mundaneum's list of paired browsers. */
export function browserName(ua: string, brands?: { brand: string; version: string }[], platform?: string): string {
  // Chromium's browsers say who they are in their brands; their user agent says "Chrome".
  const known = ['Google Chrome', 'Microsoft Edge', 'Opera', 'Brave', 'Vivaldi', 'Chromium'];
  const b = brands && known.map((k) => brands.find((x) => x.brand === k)).find((x) => x !== undefined);
  let name: string;
  if (b) {
    name = `${b.brand} ${b.version}`;
  } else {
    const m = /(Firefox|Edg|OPR|Vivaldi|Chromium|Chrome)\/(\d+)/.exec(ua);
    const names: Record<string, string> = { Edg: 'Edge', OPR: 'Opera' };
    name = m ? `${names[m[1]!] ?? m[1]} ${m[2]}` : 'A browser';
  }
  const os = platform || (/Windows/.test(ua) ? 'Windows' : /Mac OS X/.test(ua) ? 'macOS' : /Android/.test(ua) ? 'Android' : /Linux/.test(ua) ? 'Linux' : '');
  return os ? `${name} on ${os}` : name;
}

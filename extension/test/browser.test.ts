import { describe, expect, it } from 'vitest';
import { browserName } from '../src/browser';

describe('browserName', () => {
  it("takes Chromium's brands over its user agent", () => {
    const ua = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36';
    const brands = [{ brand: 'Not.A/Brand', version: '99' }, { brand: 'Chromium', version: '156' }];
    expect(browserName(ua, brands, 'Linux')).toBe('Chromium 156 on Linux');
    expect(browserName(ua, [...brands, { brand: 'Google Chrome', version: '156' }], 'Windows')).toBe('Google Chrome 156 on Windows');
  });
  it("reads Firefox's user agent", () => {
    expect(browserName('Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0')).toBe('Firefox 153 on Linux');
    expect(browserName('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Edg/130.0')).toBe('Edge 130 on Windows');
    expect(browserName('')).toBe('A browser');
  });
});

import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkManifest } from '../src/checkManifest';
import { geckoId, manifest, mundaneumOrigins, type Browser } from '../src/manifest';

const here = path.dirname(new URL(import.meta.url).pathname);
// The files a build holds: the bundled scripts, the static pages, the icons.
const built = ['background.js', 'popup.js', 'options.js', ...readdirSync(path.join(here, '../static')), ...readdirSync(path.join(here, '../icons')).map((f) => `icons/${f}`)];

describe('manifest', () => {
  for (const b of ['chromium', 'firefox'] as Browser[]) {
    it(`${b}: Manifest V3 that its browser accepts`, () => {
      const m = manifest(b, '1.2.3');
      expect(m.manifest_version).toBe(3);
      expect(checkManifest(b, m as unknown as Record<string, unknown>, built)).toEqual([]);
      expect(m.host_permissions).toEqual(mundaneumOrigins);
      expect(m.permissions).not.toContain('<all_urls>');
      expect(m.commands._execute_action?.suggested_key.default).toBe('Alt+Shift+M');
    });
  }

  it('chromium runs a service worker, firefox an event page with its add-on id', () => {
    expect(manifest('chromium', '1.0').background).toEqual({ service_worker: 'background.js' });
    const f = manifest('firefox', '1.0');
    expect(f.background).toEqual({ scripts: ['background.js'] });
    expect(f.browser_specific_settings?.gecko.id).toBe(geckoId);
    expect(manifest('chromium', '1.0').browser_specific_settings).toBeUndefined();
  });

  it('refuses a version a browser would not take', () => {
    expect(() => manifest('chromium', '1.0-beta')).toThrow();
  });

  it('the check finds what a browser would refuse', () => {
    const bad = (b: Browser, change: (m: Record<string, unknown>) => void) => {
      const m = JSON.parse(JSON.stringify(manifest(b, '1.0'))) as Record<string, unknown>;
      change(m);
      return checkManifest(b, m, built);
    };
    expect(bad('chromium', (m) => (m.manifest_version = 2))).toContain('manifest_version must be 3');
    expect(bad('chromium', (m) => ((m.action as Record<string, unknown>).default_popup = 'nowhere.html')).join()).toMatch(/nowhere.html/);
    expect(bad('firefox', (m) => ((m.browser_specific_settings as { gecko: { id: string } }).gecko.id = 'not an id')).join()).toMatch(/gecko.id/);
    expect(bad('firefox', (m) => delete m.browser_specific_settings).join()).toMatch(/gecko.id/);
    expect(bad('chromium', (m) => (m.background = { scripts: ['background.js'] })).join()).toMatch(/service worker/);
    expect(bad('chromium', (m) => (m.host_permissions = ['<all_urls>'])).join()).toMatch(/loopback/);
    expect(bad('chromium', (m) => ((m.permissions as string[]).push('cookies'))).join()).toMatch(/cookies/);
    expect(
      bad('chromium', (m) => ((m.content_security_policy as { extension_pages: string }).extension_pages = "script-src 'self' 'unsafe-eval'")).join(),
    ).toMatch(/script-src/);
    expect(bad('chromium', (m) => (m.unknown = 1)).join()).toMatch(/unexpected key unknown/);
  });
});

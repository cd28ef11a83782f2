// Checks a built manifest against what each browser requires of a Manifest V3 extension
// (the rules of Chromium's manifest parser and of Mozilla's add-ons linter that this
// extension can break), and that every file it names is in the build.
import { mundaneumOrigins, type Browser } from './manifest';

const topKeys: Record<Browser, string[]> = {
  chromium: ['manifest_version', 'name', 'short_name', 'version', 'description', 'icons', 'action', 'background', 'options_ui',
    'permissions', 'host_permissions', 'commands', 'content_security_policy', 'minimum_chrome_version'],
  firefox: ['manifest_version', 'name', 'short_name', 'version', 'description', 'icons', 'action', 'background', 'options_ui',
    'permissions', 'host_permissions', 'commands', 'content_security_policy', 'browser_specific_settings'],
};

/** Permissions both browsers know in Manifest V3 (the ones an extension like this may ask). */
const knownPermissions = ['activeTab', 'scripting', 'tabs', 'contextMenus', 'storage', 'notifications', 'alarms'];

/** Returns what is wrong with manifest m of browser, whose build holds files. */
export function checkManifest(browser: Browser, m: Record<string, unknown>, files: string[]): string[] {
  const bad: string[] = [];
  const has = (f: unknown) => typeof f === 'string' && files.includes(f);
  const need = (f: unknown, what: string) => {
    if (!has(f)) bad.push(`${what}: ${String(f)} is not in the build`);
  };
  for (const k of Object.keys(m)) if (!topKeys[browser].includes(k)) bad.push(`unexpected key ${k}`);
  if (m.manifest_version !== 3) bad.push('manifest_version must be 3');
  if (typeof m.name !== 'string' || m.name.length === 0 || m.name.length > 75) bad.push('name: 1 to 75 characters');
  if (typeof m.short_name === 'string' && m.short_name.length > 12) bad.push('short_name: at most 12 characters');
  if (typeof m.description !== 'string' || m.description.length > 132) bad.push('description: at most 132 characters');
  if (typeof m.version !== 'string' || !/^(0|[1-9]\d{0,8})(\.(0|[1-9]\d{0,8})){0,3}$/.test(m.version)) bad.push('version: 1 to 4 dot-separated integers');
  for (const [size, f] of Object.entries((m.icons ?? {}) as Record<string, string>)) need(f, `icons.${size}`);
  const action = (m.action ?? {}) as Record<string, unknown>;
  need(action.default_popup, 'action.default_popup');
  for (const [size, f] of Object.entries((action.default_icon ?? {}) as Record<string, string>)) need(f, `action.default_icon.${size}`);
  need(((m.options_ui ?? {}) as Record<string, unknown>).page, 'options_ui.page');
  const bg = (m.background ?? {}) as Record<string, unknown>;
  if (browser === 'chromium') {
    need(bg.service_worker, 'background.service_worker');
    if ('scripts' in bg) bad.push('background.scripts: Chromium runs a service worker');
  } else {
    const scripts = bg.scripts;
    if (!Array.isArray(scripts) || scripts.length === 0) bad.push('background.scripts: Firefox runs an event page');
    else for (const s of scripts) need(s, 'background.scripts');
    if ('service_worker' in bg) bad.push('background.service_worker: not in Firefox');
    const gecko = ((m.browser_specific_settings ?? {}) as { gecko?: { id?: unknown; strict_min_version?: unknown } }).gecko;
    const id = gecko?.id;
    if (typeof id !== 'string' || !(/^[a-zA-Z0-9-._]*@[a-zA-Z0-9-._]+$/.test(id) || /^\{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\}$/.test(id)) || id.length > 80) {
      bad.push('browser_specific_settings.gecko.id: an e-mail-like id or a {GUID}');
    }
    if (typeof gecko?.strict_min_version !== 'string') bad.push('browser_specific_settings.gecko.strict_min_version: the Firefox MV3 needs');
  }
  const perms = m.permissions;
  if (!Array.isArray(perms)) bad.push('permissions: a list');
  else for (const p of perms) if (!knownPermissions.includes(p)) bad.push(`permissions: ${String(p)} is not one this extension needs`);
  const hosts = m.host_permissions;
  if (!Array.isArray(hosts) || hosts.some((h) => !mundaneumOrigins.includes(h))) bad.push('host_permissions: Mundaneum on loopback only');
  for (const [name, c] of Object.entries((m.commands ?? {}) as Record<string, { suggested_key?: { default?: unknown } }>)) {
    const key = c.suggested_key?.default;
    if (typeof key !== 'string' || !/^(Ctrl|Alt|Command|MacCtrl)\+(Shift\+)?([A-Z0-9]|Comma|Period|Home|End|PageUp|PageDown|Space|Insert|Delete|Up|Down|Left|Right)$/.test(key)) {
      bad.push(`commands.${name}: a shortcut both browsers accept`);
    }
  }
  const csp = ((m.content_security_policy ?? {}) as { extension_pages?: unknown }).extension_pages;
  if (typeof csp !== 'string' || !/script-src 'self'(;|$)/.test(csp) || /unsafe-(eval|inline)|https?:\/\/[^ ;]*\s*[^;]*script/.test(csp)) {
    bad.push("content_security_policy.extension_pages: scripts from the extension only (script-src 'self')");
  }
  return bad;
}

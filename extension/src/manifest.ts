// The extension's manifest (Manifest V3) for each browser it is built for. Chromium runs
// the background as a service worker; Firefox as an event page (background.scripts), and
// needs an add-on id of its own (browser_specific_settings.gecko.id) to keep its storage
// and to be signed.

export type Browser = 'chromium' | 'firefox';

/** Firefox's id of the add-on. */
export const geckoId = 'capture@mundaneum.invalid';

/** The origins the extension may talk to: Mundaneum on loopback, and nothing else. */
export const mundaneumOrigins = ['http://127.0.0.1/*', 'http://localhost/*'];

/** The keyboard shortcut that opens the popup on the current page. */
export const shortcut = 'Alt+Shift+M';

export interface Manifest {
  manifest_version: 3;
  name: string;
  short_name: string;
  version: string;
  description: string;
  icons: Record<string, string>;
  action: { default_title: string; default_popup: string; default_icon: Record<string, string> };
  background: { service_worker: string } | { scripts: string[] };
  options_ui: { page: string; open_in_tab: boolean };
  permissions: string[];
  host_permissions: string[];
  commands: Record<string, { suggested_key: { default: string }; description: string }>;
  content_security_policy: { extension_pages: string };
  minimum_chrome_version?: string;
  browser_specific_settings?: {
    gecko: { id: string; strict_min_version: string; data_collection_permissions: { required: string[] } };
    gecko_android: { strict_min_version: string };
  };
}

const icons = { '16': 'icons/icon-16.png', '32': 'icons/icon-32.png', '48': 'icons/icon-48.png', '96': 'icons/icon-96.png', '128': 'icons/icon-128.png' };

/** The manifest of the extension built for browser, at version (x.y.z). */
export function manifest(browser: Browser, version: string): Manifest {
  if (!/^\d+(\.\d+){0,3}$/.test(version)) throw new Error(`not a manifest version: ${version}`);
  const m: Manifest = {
    manifest_version: 3,
    name: 'Mundaneum',
    short_name: 'Mundaneum',
    version,
    description: 'Add the page you are reading to your Mundaneum library, with the text you selected, and keep it as you see it.',
    icons,
    action: { default_title: 'Add to Mundaneum', default_popup: 'popup.html', default_icon: { '16': icons['16'], '32': icons['32'] } },
    background: browser === 'chromium' ? { service_worker: 'background.js' } : { scripts: ['background.js'] },
    options_ui: { page: 'options.html', open_in_tab: true },
    // activeTab + scripting: read the selection and the page as shown, only in the tab
    // the user acted on; tabs: the current tab's address, for the badge; contextMenus:
    // "Add link to Mundaneum"; storage: the pairing and the recent libraries.
    permissions: ['activeTab', 'scripting', 'tabs', 'contextMenus', 'storage'],
    host_permissions: mundaneumOrigins,
    commands: { _execute_action: { suggested_key: { default: shortcut }, description: 'Add this page to Mundaneum' } },
    // Only the extension's own scripts run in its pages, and they talk only to Mundaneum on
    // loopback.
    content_security_policy: {
      extension_pages: "default-src 'self'; script-src 'self'; object-src 'none'; img-src 'self' data:; connect-src http://127.0.0.1:* http://localhost:*; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    },
  };
  if (browser === 'chromium') {
    m.minimum_chrome_version = '120';
  } else {
    m.browser_specific_settings = {
      // It collects nothing: it talks only to Mundaneum on this machine.
      gecko: { id: geckoId, strict_min_version: '140.0', data_collection_permissions: { required: ['none'] } },
      gecko_android: { strict_min_version: '142.0' },
    };
  }
  return m;
}

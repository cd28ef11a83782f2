// The colour theme: "system" follows the system's preference, "light" and "dark" force one.
// Applied as data-theme on <html> (app.css), remembered in localStorage so that the next
// start paints in the right colours before the workspace's settings arrive.
import { setWindowBackground } from '../api';

export const themes = ['system', 'light', 'dark'] as const;
export type Theme = (typeof themes)[number];

const storageKey = 'mundaneum.theme';

/** Returns t if it is a theme, else "system". */
export function asTheme(t: unknown): Theme {
  return (themes as readonly unknown[]).includes(t) ? (t as Theme) : 'system';
}

function systemDark(): MediaQueryList | null {
  return typeof window !== 'undefined' && window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
}

/** Reports whether theme t shows dark colours now. */
export function isDark(t: Theme): boolean {
  return t === 'dark' || (t === 'system' && !!systemDark()?.matches);
}

let current: Theme = 'system';
let unfollow: (() => void) | null = null;

/** Applies a theme to the document and the native window, and remembers it. */
export function applyTheme(t: Theme, root: HTMLElement = document.documentElement) {
  current = asTheme(t);
  if (current === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', current);
  setWindowBackground(isDark(current));
  try {
    localStorage.setItem(storageKey, current);
  } catch {
    // storage may be unavailable: the setting still applies
  }
  unfollow?.();
  unfollow = null;
  const mq = systemDark();
  if (current === 'system' && mq) {
    const sync = () => setWindowBackground(mq.matches);
    mq.addEventListener('change', sync);
    unfollow = () => mq.removeEventListener('change', sync);
  }
}

/** The theme in force. */
export function currentTheme(): Theme {
  return current;
}

/** The theme remembered from the last run ("system" if none). */
export function rememberedTheme(): Theme {
  try {
    return asTheme(localStorage.getItem(storageKey));
  } catch {
    return 'system';
  }
}

// The Wails runtime: events, the system browser and the native window.
// Part of src/api, the only code that touches the generated bindings.
import * as runtime from '../../wailsjs/runtime/runtime';
import type { Events } from './types';

function hasRuntime(): boolean {
  return !!(globalThis as { runtime?: unknown }).runtime;
}

/**
 * Subscribes to a backend event and returns the unsubscribe function. Without the Wails
 * runtime (unit tests, a plain browser) it subscribes to nothing.
 */
export function onEvent<K extends keyof Events>(name: K, cb: (payload: Events[K]) => void): () => void {
  if (!hasRuntime()) return () => {};
  return runtime.EventsOn(name, (payload: Events[K]) => {
    if (payload && typeof payload === 'object') cb(payload);
  });
}

const maxURLLength = 8192;

/**
 * Returns the canonical form of raw if it is an absolute http(s) URL that may be handed to
 * the system browser, or null for anything else (javascript:, file:, data:, relative...).
 */
export function safeExternalURL(raw: string): string | null {
  if (typeof raw !== 'string' || raw.length > maxURLLength) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(raw)) return null;
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (!u.hostname) return null;
  return u.href;
}

/**
 * Opens url in the system browser if it is http(s); returns whether it did. Nothing ever
 * navigates the app's own window to crawled content.
 */
export function openExternal(url: string): boolean {
  const safe = safeExternalURL(url);
  if (safe === null || !hasRuntime()) return false;
  runtime.BrowserOpenURL(safe);
  return true;
}

/** Sets the native window's background to match the page's colour scheme. */
export function setWindowBackground(dark: boolean): void {
  if (!hasRuntime()) return;
  if (dark) runtime.WindowSetBackgroundColour(28, 28, 30, 255);
  else runtime.WindowSetBackgroundColour(250, 249, 246, 255);
}

/**
 * Tells the window's start trace (app/starttrace.go, MUNDANEUM_TRACE_START) when the page
 * reached each of steps, as [step, milliseconds since the Unix epoch] pairs. Without the
 * Wails runtime (a browser, the tests) it tells no one.
 */
export function reportStartSteps(steps: [string, number][]): void {
  if (!hasRuntime() || steps.length === 0) return;
  runtime.EventsEmit('start:trace', steps);
}

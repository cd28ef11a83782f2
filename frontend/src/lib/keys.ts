// Keyboard handling as pure functions: the global shortcuts (with "g x" chords) and the
// movement of a highlight through a list.

/** What a global shortcut asks for. */
export type Action =
  | 'focus-search'
  | 'go-search'
  | 'go-library'
  | 'go-crawls'
  | 'go-maintenance'
  | 'go-graph'
  | 'go-settings'
  | 'back'
  | 'help';

/** The shortcut list the help dialog shows. */
export const shortcuts: { keys: string[]; what: string }[] = [
  { keys: ['/'], what: 'Focus the search box' },
  { keys: ['g s', 'Ctrl+1'], what: 'Search' },
  { keys: ['g l', 'Ctrl+5'], what: 'Library' },
  { keys: ['g c', 'Ctrl+2'], what: 'Crawls' },
  { keys: ['g ,', 'Ctrl+3'], what: 'Settings' },
  { keys: ['g g', 'Ctrl+4'], what: 'Graph of a crawl' },
  { keys: ['g m', 'Ctrl+6'], what: 'Maintenance (link checks and reports)' },
  { keys: ['j', 'k'], what: 'Next and previous result' },
  { keys: ['↓', '↑'], what: 'Next and previous result (↓ from the search box too)' },
  { keys: ['Enter'], what: 'Open the highlighted result’s page view' },
  { keys: ['o'], what: 'Open the highlighted result’s offline copy' },
  { keys: ['Ctrl+Enter'], what: 'Open the highlighted result in the system browser' },
  { keys: ['Esc'], what: 'Leave the search box (then the keys above work); elsewhere, back' },
  { keys: ['Ctrl+Z'], what: 'Library: undo the last change (yours, under serve --public)' },
  { keys: ['Ctrl+Shift+Z', 'Ctrl+Y'], what: 'Library: redo what was undone' },
  { keys: ['?'], what: 'This list' },
];

/** Reports whether keys typed at t are text for a field rather than shortcuts. */
export function editable(t: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(t instanceof HTMLElement)) return false;
  if (t.isContentEditable) return true;
  if (t.tagName === 'TEXTAREA' || t.tagName === 'SELECT') return true;
  if (t.tagName === 'INPUT') {
    const type = (t as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(type);
  }
  return false;
}

/** The parts of a KeyboardEvent the shortcut logic looks at. */
export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}

/** How long the second key of a "g x" chord may wait, in ms. */
export const chordTimeout = 1200;

/**
 * Maps a key press to a global action. chordAt is when a "g" was pressed (0 if not);
 * the returned chordAt is the new one. Keys typed into fields are never shortcuts, except
 * Ctrl+digit.
 */
export function globalShortcut(e: KeyLike, chordAt: number, now: number): { action: Action | null; chordAt: number } {
  const mod = e.ctrlKey || e.metaKey;
  if (mod && !e.altKey) {
    const byDigit: Record<string, Action> = {
      '1': 'go-search',
      '2': 'go-crawls',
      '3': 'go-settings',
      '4': 'go-graph',
      '5': 'go-library',
      '6': 'go-maintenance',
      ',': 'go-settings',
    };
    return { action: byDigit[e.key] ?? null, chordAt: 0 };
  }
  if (mod || e.altKey || editable(e.target)) return { action: null, chordAt: 0 };
  if (chordAt > 0 && now - chordAt <= chordTimeout) {
    const byChord: Record<string, Action> = {
      s: 'go-search',
      l: 'go-library',
      c: 'go-crawls',
      g: 'go-graph',
      m: 'go-maintenance',
      ',': 'go-settings',
    };
    return { action: byChord[e.key] ?? null, chordAt: 0 };
  }
  switch (e.key) {
    case 'g':
      return { action: null, chordAt: now };
    case '/':
      return { action: 'focus-search', chordAt: 0 };
    case '?':
      return { action: 'help', chordAt: 0 };
    case 'Escape':
      return { action: 'back', chordAt: 0 };
  }
  return { action: null, chordAt: 0 };
}

/**
 * Moves a highlight in a list of n items for a key; -1 means no highlight (the search box).
 * Returns null for keys that do not move it.
 */
export function moveHighlight(i: number, key: string, n: number): number | null {
  if (n <= 0) return key === 'ArrowDown' || key === 'ArrowUp' ? -1 : null;
  switch (key) {
    case 'ArrowDown':
    case 'j':
      return Math.min(i + 1, n - 1);
    case 'ArrowUp':
    case 'k':
      return Math.max(i - 1, -1);
    case 'Home':
      return 0;
    case 'End':
      return n - 1;
    case 'PageDown':
      return Math.min(Math.max(i, 0) + 5, n - 1);
    case 'PageUp':
      return Math.max(i - 5, 0);
  }
  return null;
}

/** What a key does to the highlighted result. */
export type ResultAction = 'open' | 'copy' | 'external' | null;

/** Maps a key on a highlighted result to what it does. */
export function resultAction(e: Pick<KeyLike, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>): ResultAction {
  if (e.key === 'Enter') return e.ctrlKey || e.metaKey ? 'external' : e.altKey ? null : 'open';
  if (e.key === 'o' && !e.ctrlKey && !e.metaKey && !e.altKey) return 'copy';
  return null;
}

/** What a key typed in the search box does, besides typing. */
export type BoxAction = 'leave' | 'results' | 'external' | null;

/**
 * Maps a key in the search box: Esc leaves the box (as in Gmail or GitHub: the query stays,
 * and j, k, o and the g chords are shortcuts again), ↓ or Page Down goes to the results,
 * Ctrl+Enter opens the highlighted result in the system browser.
 */
export function searchBoxKey(e: Pick<KeyLike, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>): BoxAction {
  if (e.key === 'Escape' && !e.ctrlKey && !e.metaKey && !e.altKey) return 'leave';
  if ((e.key === 'ArrowDown' || e.key === 'PageDown') && !e.altKey && !e.ctrlKey && !e.metaKey) return 'results';
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) return 'external';
  return null;
}

/**
 * Reports whether a key typed outside the search box and the results goes to the results:
 * j (or ↓) takes the highlight into them, as it does from one result to the next.
 */
export function intoResults(e: KeyLike): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey || editable(e.target)) return false;
  return e.key === 'j' || e.key === 'ArrowDown';
}

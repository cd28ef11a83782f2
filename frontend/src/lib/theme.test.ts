import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../wailsjs/runtime/runtime', () => ({ WindowSetBackgroundColour: vi.fn() }));

import * as runtime from '../../wailsjs/runtime/runtime';
import { applyTheme, asTheme, currentTheme, isDark, rememberedTheme } from './theme';

type G = { runtime?: unknown };

afterEach(() => {
  delete (globalThis as G).runtime;
  vi.clearAllMocks();
  applyTheme('system');
});

describe('theme', () => {
  it('sets data-theme for light and dark, none for system, and remembers it', () => {
    const root = document.documentElement;
    applyTheme('dark');
    expect(root.getAttribute('data-theme')).toBe('dark');
    expect(rememberedTheme()).toBe('dark');
    expect(currentTheme()).toBe('dark');
    applyTheme('light');
    expect(root.getAttribute('data-theme')).toBe('light');
    applyTheme('system');
    expect(root.hasAttribute('data-theme')).toBe(false);
    expect(rememberedTheme()).toBe('system');
  });

  it('tells the native window its background', () => {
    (globalThis as G).runtime = {};
    applyTheme('dark');
    expect(runtime.WindowSetBackgroundColour).toHaveBeenLastCalledWith(28, 28, 30, 255);
    applyTheme('light');
    expect(runtime.WindowSetBackgroundColour).toHaveBeenLastCalledWith(250, 249, 246, 255);
  });

  it('reads unknown values as system', () => {
    expect(asTheme('purple')).toBe('system');
    expect(asTheme(undefined)).toBe('system');
    expect(isDark('dark')).toBe(true);
    expect(isDark('light')).toBe(false);
  });
});

import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../wailsjs/runtime/runtime', () => ({ WindowSetBackgroundColour: vi.fn() }));
vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return {
    ...orig,
    settings: vi.fn(),
    saveSettings: vi.fn(),
    workspace: vi.fn(),
    openWorkspace: vi.fn(),
    chooseWorkspace: vi.fn(),
    indexStatus: vi.fn(),
    rebuildIndex: vi.fn(),
    retention: vi.fn(async () => ({ crawlId: 0, keep: 'all', last: 10, own: false, versions: 3, bodies: 1, bytes: 2048, prunedVersions: 0, prunedBytes: 0 })),
    exchangeTokens: vi.fn(async () => []),
    sources: vi.fn(async () => []),
    sharing: vi.fn(async () => ({ ownerPasswordSet: false, guests: 'none' })),
    captureInfo: vi.fn(async () => ({ door: 'window', address: 'http://127.0.0.1:7343/', port: 7343, listening: true, error: '', clients: [] })),
  };
});

import { indexStatus, openWorkspace, rebuildIndex, saveSettings, settings, workspace, type IndexStatus, type Settings } from '../api';
import { applyTheme } from '../lib/theme';
import SettingsView from './SettingsView.svelte';

const stored: Settings = {
  userAgentSuffix: '', from: '', delayMs: 1000, perHost: 2, agents: 16, theme: 'system',
  maxPerHost: 100000, maxQueryVariants: 200, maxBody: 10485760, render: 'auto',
};

const current: IndexStatus = {
  searchable: 1200, searchablePages: 1196, searchableFiles: 4, waiting: 0, updating: 0, current: true, rebuilding: false, reason: '',
  phraseIndex: -1, phraseBehind: 0, error: '', summary: '1,200 of 1,200 pages searchable',
};

beforeEach(() => {
  vi.mocked(indexStatus).mockResolvedValue({ ...current });
  vi.mocked(rebuildIndex).mockResolvedValue();
  vi.mocked(settings).mockResolvedValue({ ...stored });
  vi.mocked(saveSettings).mockImplementation(async (s: Settings) => ({ ...s }));
  vi.mocked(workspace).mockResolvedValue({ path: '/data/research.mundaneum', bytes: 3 * 1024 * 1024, canChoose: false });
});
afterEach(() => {
  vi.clearAllMocks();
  applyTheme('system');
});

describe('SettingsView', () => {
  it('saves identity and politeness', async () => {
    render(SettingsView);
    const ua = await screen.findByRole('textbox', { name: /user-agent suffix/i });
    await fireEvent.input(ua, { target: { value: '+https://me.example/bot' } });
    await fireEvent.input(screen.getByRole('textbox', { name: /^from/i }), { target: { value: 'me@example.org' } });
    await fireEvent.input(screen.getByRole('spinbutton', { name: /delay/i }), { target: { value: '250' } });
    await fireEvent.change(screen.getByRole('combobox', { name: /pages built by scripts/i }), { target: { value: 'never' } });
    expect(screen.getByText(/personal research crawler; \+https:\/\/me\.example\/bot/)).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saveSettings).toHaveBeenCalled());
    expect(vi.mocked(saveSettings).mock.calls[0][0]).toEqual({
      userAgentSuffix: '+https://me.example/bot', from: 'me@example.org', delayMs: 250, perHost: 2, agents: 16, theme: 'system',
      maxPerHost: 100000, maxQueryVariants: 200, maxBody: 10485760, render: 'never',
    });
    await screen.findByText('Saved.');
  });

  it('shows an invalid setting’s message inline', async () => {
    vi.mocked(saveSettings).mockRejectedValueOnce('{"code":"invalid","message":"From must be an e-mail address"}');
    render(SettingsView);
    await screen.findByRole('textbox', { name: /^from/i });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('From must be an e-mail address');
  });

  it('applies the theme at once and saves it', async () => {
    render(SettingsView);
    const dark = await screen.findByRole('radio', { name: 'Dark' });
    await waitFor(() => expect((dark as HTMLInputElement).disabled).toBe(false));
    await fireEvent.click(dark);
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    await waitFor(() => expect(saveSettings).toHaveBeenCalledWith({ ...stored, theme: 'dark' }));
  });

  it('opens another workspace by path where there are no file dialogs', async () => {
    vi.mocked(openWorkspace).mockRejectedValueOnce('{"code":"not-found","message":"no workspace at /x"}');
    render(SettingsView);
    await screen.findByText('/data/research.mundaneum');
    expect(screen.getByText('3 MiB')).toBeTruthy();
    await fireEvent.input(screen.getByRole('textbox', { name: /another workspace/i }), { target: { value: '/x' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect((await screen.findByRole('alert')).textContent).toBe('There is no workspace at /x.');
    expect(openWorkspace).toHaveBeenCalledWith('/x', false);
  });

  it('shows the search index and rebuilds it', async () => {
    render(SettingsView);
    await screen.findByText(/1,200 of 1,200 pages searchable/);
    expect(screen.getByText(/not needed yet/)).toBeTruthy();
    // The index's rows are not all pages: those of files known from links are named apart.
    expect(screen.getByText(/1,196 pages and 4\s+files known from links/)).toBeTruthy();
    vi.mocked(indexStatus).mockResolvedValue({
      ...current, current: false, rebuilding: true, searchable: 300, waiting: 900, reason: 'rebuild asked for',
      summary: 'rebuilding the search index: 300 pages indexed, 900 to go (rebuild asked for)',
    });
    await fireEvent.click(screen.getByRole('button', { name: 'Rebuild the index' }));
    await waitFor(() => expect(rebuildIndex).toHaveBeenCalled());
    await screen.findByText(/300 pages indexed, 900 to go/);
    expect((screen.getByRole('button', { name: 'Rebuild the index' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return {
    ...orig,
    captureInfo: vi.fn(),
    capturePairingCode: vi.fn(),
    captureCancelPairing: vi.fn(),
    captureUnpair: vi.fn(),
    setCapturePort: vi.fn(),
    inBrowser: vi.fn(() => false),
  };
});

import { captureInfo, capturePairingCode, captureUnpair, setCapturePort, type CaptureInfo } from '../api';
import CapturePanel from './CapturePanel.svelte';

const base: CaptureInfo = { door: 'window', address: 'http://127.0.0.1:7343/', port: 7343, listening: true, error: '', clients: [] };

afterEach(() => vi.clearAllMocks());

describe('CapturePanel', () => {
  it('pairs a browser: shows the code, then the browser that used it', async () => {
    const code = { code: 'ABCD-EFGH', expires: new Date(Date.now() + 600_000).toISOString() };
    vi.mocked(captureInfo).mockResolvedValueOnce({ ...base }).mockResolvedValueOnce({ ...base, code });
    vi.mocked(capturePairingCode).mockResolvedValue(code);
    render(CapturePanel);
    expect((await screen.findByTestId('capture-address')).textContent).toBe('http://127.0.0.1:7343/');
    await fireEvent.click(screen.getByRole('button', { name: 'Pair a browser' }));
    expect((await screen.findByTestId('pairing-code')).textContent).toBe('ABCD-EFGH');
    expect(capturePairingCode).toHaveBeenCalledOnce();
  });

  it('lists paired browsers as text and unpairs them', async () => {
    const client = { id: 4, origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop', browser: '<b>Chromium</b> 156', paired: '2026-11-20T10:00:00Z', lastUsed: '', captures: 3 };
    vi.mocked(captureInfo).mockResolvedValueOnce({ ...base, clients: [client] }).mockResolvedValueOnce({ ...base });
    vi.mocked(captureUnpair).mockResolvedValue();
    const { container } = render(CapturePanel);
    await screen.findByText('<b>Chromium</b> 156');
    expect(container.querySelector('b')).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Unpair' }));
    await waitFor(() => expect(captureUnpair).toHaveBeenCalledWith(4));
    await screen.findByText('No browser is paired.');
  });

  it("moves the window's port, and says why it does not listen", async () => {
    vi.mocked(captureInfo).mockResolvedValue({ ...base, listening: false, address: '', error: 'listen: address already in use' });
    vi.mocked(setCapturePort).mockResolvedValue({ ...base, port: 7400, address: 'http://127.0.0.1:7400/' });
    render(CapturePanel);
    await screen.findByText(/Not listening: listen: address already in use/);
    expect((screen.getByRole('button', { name: 'Pair a browser' }) as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.input(screen.getByRole('spinbutton', { name: /port/i }), { target: { value: '7400' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Use this port' }));
    await waitFor(() => expect(setCapturePort).toHaveBeenCalledWith(7400));
    await screen.findByText(/Listening on port 7400/);
  });

  it('offers the bookmarklet only in serve', async () => {
    vi.mocked(captureInfo).mockResolvedValue({ ...base });
    const { container } = render(CapturePanel);
    await screen.findByTestId('capture-address');
    expect(container.querySelector('a[data-bookmarklet]')).toBeNull();
    expect(screen.getByText(/get it from the Settings of serve/)).toBeTruthy();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { doorSession, signIn } from './door';

afterEach(() => {
  document.head.innerHTML = '';
  vi.unstubAllGlobals();
});

function served(token = 'a'.repeat(64)) {
  const m = document.createElement('meta');
  m.name = 'mundaneum-token';
  m.content = token;
  document.head.append(m);
}

describe('the door of serve --public', () => {
  it('is the one user, its owner, in the window (no served token)', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    expect(await doorSession()).toEqual({ public: false, role: 'owner', name: '', guests: 'none', ownerSet: false });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('asks the server who the page is, with the page’s token', async () => {
    served();
    const fetch = vi.fn(async () => new Response(JSON.stringify({ public: true, role: 'guest', name: 'guest 3f2a', guests: 'read', ownerSet: true })));
    vi.stubGlobal('fetch', fetch);
    expect(await doorSession()).toEqual({ public: true, role: 'guest', name: 'guest 3f2a', guests: 'read', ownerSet: true });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/_mundaneum/auth/session');
    expect((init.headers as Record<string, string>)['X-Mundaneum-Token']).toBe('a'.repeat(64));
  });

  it('shows the sign-in for a role it does not know', async () => {
    served();
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ public: true, role: 'admin' }))));
    const s = await doorSession();
    expect(s.public).toBe(true);
    expect(s.role).toBe('none');
  });

  it('says why a sign-in was refused', async () => {
    served();
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ code: 'rate-limited', message: 'try again in 8 s' }), { status: 429 })));
    await expect(signIn('x')).rejects.toThrow('try again in 8 s');
  });
});

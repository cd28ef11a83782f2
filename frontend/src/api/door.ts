// The door of `mundaneum serve --public` (app/web/auth.go): who the page is signed in as,
// and signing in and out. These are not bound methods but the server's own requests, so
// they exist only in a browser; the desktop window has one user, its owner.

/** Who the page comes in as. */
export interface DoorSession {
  /** serve --public: the workspace has an owner who signs in, and guests. */
  public: boolean;
  role: 'owner' | 'guest' | 'none';
  /** A guest's name ("guest 3f2a"). */
  name: string;
  /** What guests may do: 'none' or 'read'. */
  guests: 'none' | 'read';
  /** An owner's password is set: one can sign in. */
  ownerSet: boolean;
}

const oneUser: DoorSession = { public: false, role: 'owner', name: '', guests: 'none', ownerSet: false };

/** The token of the browser front door ('' in the window). */
export function doorToken(): string {
  return document.querySelector('meta[name="mundaneum-token"]')?.getAttribute('content') ?? '';
}

async function door(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
  return fetch(`/_mundaneum/auth/${path}`, {
    method,
    headers: { 'X-Mundaneum-Token': doorToken(), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    cache: 'no-store',
    redirect: 'error',
  });
}

/** Says who the page comes in as: in the window (no server), the one user, its owner. */
export async function doorSession(): Promise<DoorSession> {
  if (!doorToken()) return oneUser;
  try {
    const res = await door('GET', 'session');
    if (!res.ok) return oneUser;
    const s = (await res.json()) as Partial<DoorSession>;
    return {
      public: !!s.public,
      // A role this page does not know shows the sign-in (the server decides what is allowed).
      role: s.role === 'guest' || s.role === 'owner' ? s.role : s.public ? 'none' : 'owner',
      name: typeof s.name === 'string' ? s.name : '',
      guests: s.guests === 'read' ? 'read' : 'none',
      ownerSet: !!s.ownerSet,
    };
  } catch {
    return oneUser;
  }
}

/** Signs in as the owner; rejects with the server's message (a wrong password, too many). */
export async function signIn(password: string): Promise<void> {
  const res = await door('POST', 'sign-in', { password });
  if (res.ok) return;
  let message = `sign-in failed (HTTP ${res.status})`;
  try {
    const b = (await res.json()) as { message?: unknown };
    if (typeof b.message === 'string') message = b.message;
  } catch {
    // not JSON: keep the status
  }
  throw new Error(message);
}

/** Signs out (the page then reloads as a guest, or to the sign-in). */
export async function signOut(): Promise<void> {
  await door('POST', 'sign-out', {});
}

// Who this page comes in as (the door of serve --public): the owner, a guest, or no one
// yet (the sign-in). In the desktop window, and a loopback serve, the one user is the owner.
import { doorSession, doorToken, type DoorSession } from '../api';

class Door {
  /** Known: at once in the window (no server: one user), after asking in a browser. */
  loaded = $state(!doorToken());
  session = $state<DoorSession>({ public: false, role: 'owner', name: '', guests: 'none', ownerSet: false });
  /** The sign-in view was asked for (a guest who is the owner). */
  signingIn = $state(false);

  /** A guest of serve --public: reads, and posts where the owner opened the library. */
  get guest(): boolean {
    return this.session.public && this.session.role === 'guest';
  }

  /** The sign-in is all this page may show. */
  get locked(): boolean {
    return this.session.public && this.session.role === 'none';
  }

  async refresh(): Promise<void> {
    this.session = await doorSession();
    this.loaded = true;
  }
}

export const door = new Door();

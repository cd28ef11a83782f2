// The workspace: its settings, sharing (serve --public), and opening another.
// Part of src/api, the only code that touches the generated bindings.
import * as App from '../../wailsjs/go/app/App';
import { call } from './call';
import type { Settings, Sharing, WorkspaceInfo, WorkspaceState } from './types';

/** The workspace's settings. */
export function settings(): Promise<Settings> {
  return call(() => App.Settings());
}

/** Checks and stores the workspace's settings. */
export function saveSettings(s: Settings): Promise<Settings> {
  return call(() => App.SaveSettings(s));
}

/** What serve --public lets in: whether the owner's password is set, what guests may do. */
export function sharing(): Promise<Sharing> {
  return call(() => App.Sharing());
}

/** Sets the owner's password of serve --public (changing one needs the current one). */
export function setOwnerPassword(current: string, next: string): Promise<void> {
  return call(() => App.SetOwnerPassword(current, next));
}

/** Sets what the guests of serve --public may do: 'none' or 'read'. */
export function setGuestAccess(level: 'none' | 'read'): Promise<Sharing> {
  return call(() => App.SetGuestAccess(level));
}

/**
 * Whether the window's workspace is open, and if not who holds it or why it could not be
 * opened. The app asks it first; it answers once the backend's first attempt ended.
 */
export function workspaceState(): Promise<WorkspaceState> {
  return call(() => App.WorkspaceState());
}

/** Describes the open workspace. */
export function workspace(): Promise<WorkspaceInfo> {
  return call(() => App.Workspace());
}

/** Asks for a workspace file with the native dialog ("" when cancelled; desktop only). */
export function chooseWorkspace(create: boolean): Promise<string> {
  return call(() => App.ChooseWorkspace(create));
}

/** Switches to another workspace (create: a new one); emits "workspace:changed". */
export function openWorkspace(path: string, create: boolean): Promise<WorkspaceInfo> {
  return call(() => App.OpenWorkspace(path, create));
}

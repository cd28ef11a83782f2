// Capture from the browser over the bound API: Settings' pairing of browser extensions and
// the window's port, and the library choices of the add form. Part of src/api: the only
// code that touches the generated bindings.
import * as App from '../../wailsjs/go/app/App';
import { call } from './call';
import type { CaptureInfo, LibChoice, PairingCode } from './types';

function infoOf(i: CaptureInfo): CaptureInfo {
  return { ...i, code: i.code ?? undefined } as CaptureInfo;
}

/** Where browsers reach Mundaneum, who is paired, the pairing code in force. */
export async function captureInfo(): Promise<CaptureInfo> {
  return infoOf(await call(() => App.CaptureInfo()));
}

/** A new one-time pairing code (it ends any earlier one). */
export function capturePairingCode(): Promise<PairingCode> {
  return call(() => App.CapturePairingCode());
}

/** Ends the pairing code in force. */
export function captureCancelPairing(): Promise<void> {
  return call(() => App.CaptureCancelPairing());
}

/** Forgets a paired browser: its calls are refused from now on. */
export function captureUnpair(id: number): Promise<void> {
  return call(() => App.CaptureUnpair(id));
}

/** Moves the window's door for browsers to port ("unavailable" in serve). */
export async function setCapturePort(port: number): Promise<CaptureInfo> {
  return infoOf(await call(() => App.SetCapturePort(port)));
}

/** The libraries a pointer may be added to whose path matches query, recent ones first. */
export async function libraryChoices(query: string, limit = 20): Promise<LibChoice[]> {
  return call(() => App.LibraryChoices(query, limit));
}

// Exchange between instances: the tokens this one issues and the sources it pulls from.
// Part of src/api, the only code that touches the generated bindings.
import * as App from '../../wailsjs/go/app/App';
import { call } from './call';
import type { ExchangeToken, Source } from './types';

/** The read-only tokens issued to other instances (never their secrets). */
export async function exchangeTokens(): Promise<ExchangeToken[]> {
  return call(() => App.ExchangeTokens());
}

/** Issues a token for name: its secret is in the answer, and only there. */
export function issueExchangeToken(name: string): Promise<ExchangeToken> {
  return call(() => App.IssueExchangeToken(name));
}

/** Revokes a token: pulls with it are refused from now on. */
export function revokeExchangeToken(id: number): Promise<void> {
  return call(() => App.RevokeExchangeToken(id));
}

/** The instances and SOIF files summaries came from. */
export async function sources(): Promise<Source[]> {
  return call(() => App.Sources());
}

/** Adds another instance (the address its serve prints) with the token it issued. */
export function addSource(url: string, token: string): Promise<Source> {
  return call(() => App.AddSource(url, token));
}

/** Forgets a source; its pages stay, no longer marked. */
export function removeSource(id: number): Promise<void> {
  return call(() => App.RemoveSource(id));
}

/** Starts a pull; progress comes as 'source:progress', the outcome as 'source:done'. */
export function pullSource(id: number): Promise<void> {
  return call(() => App.PullSource(id));
}

/** Stops a pull under way (nothing unchecked is applied; the cursor stays). */
export function cancelPull(id: number): Promise<void> {
  return call(() => App.CancelPull(id));
}

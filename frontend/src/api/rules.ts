// The rule language: checking rule text and trying it on a URL.
// Part of src/api, the only code that touches the generated bindings.
import * as App from '../../wailsjs/go/app/App';
import { call } from './call';
import type { RulesCheck, RulesTest } from './types';

/** Parses rule text: its highlighting, and its canonical form or its error (line, column). */
export async function checkRules(text: string): Promise<RulesCheck> {
  return call(() => App.CheckRules(text));
}

/** What rules make of a URL (a crawled page with its stored fields), and which atom decided. */
export function testRules(text: string, url: string): Promise<RulesTest> {
  return call(() => App.TestRules(text, url));
}

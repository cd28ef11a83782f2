import { describe, expect, it } from 'vitest';
import { facetTitle, facetValueText, kindText, problemText, reasonText, stateText } from './wording';

describe('reasonText', () => {
  it.each([
    ['robots', 0, 'Disallowed by robots.txt'],
    ['scope', 0, 'Outside the crawl’s scope'],
    ['type', 0, 'Not a web page: recorded from links, not downloaded'],
    ['nofollow', 0, 'The citing page or link says nofollow'],
    ['trap:repeated-segment', 0, 'Looks like a spider trap: a path segment keeps repeating'],
    ['trap:too-many-params', 0, 'Looks like a spider trap: too many query parameters'],
    ['trap:something-new', 0, 'Looks like a spider trap: something-new'],
    ['not-found', 404, 'Not found (HTTP 404)'],
    ['forbidden', 403, 'Access denied (HTTP 403)'],
    ['server-error', 503, 'Server error (HTTP 503)'],
    ['rate-limited', 429, 'Rate-limited by the server (blocked, not dead) (HTTP 429)'],
    ['too-large', 0, 'Too large to download'],
    ['timeout', 0, 'Timed out'],
    ['dns', 0, 'Host name not found (DNS)'],
    ['refused', 0, 'Connection refused'],
    ['host-limit', 0, 'The per-host page limit was reached'],
    ['depth', 0, 'Beyond the depth limit'],
    ['a-new-code', 0, 'a-new-code'],
    ['', 0, ''],
  ])('%s (%i)', (reason, status, want) => {
    expect(reasonText(reason, status)).toBe(want);
  });
});

describe('other wording', () => {
  it('names problems, kinds, states and facets', () => {
    expect(problemText('no-title')).toBe('No <title> element');
    expect(problemText('unclosed-quote')).toBe('An attribute’s quote is never closed');
    expect(problemText('future-problem')).toBe('future-problem');
    expect(kindText('a')).toBe('link');
    expect(kindText('img')).toBe('image');
    expect(kindText('link', 'stylesheet')).toBe('link element (stylesheet)');
    expect(kindText('weird')).toBe('weird');
    expect(stateText('skipped')).toBe('skipped');
    expect(facetTitle('host')).toBe('Site');
    expect(facetValueText('crawl', '3')).toBe('crawl 3');
    expect(facetValueText('status', 'resource')).toBe('resource (not downloaded)');
    expect(facetValueText('status', '404')).toBe('404');
    expect(facetTitle('render')).toBe('Read as');
    expect(facetValueText('render', 'rendered')).toBe('rendered (built by scripts)');
    expect(facetValueText('render', 'shell-no-browser')).toBe('shell, not rendered: no browser');
    expect(facetValueText('render', 'shell-odd')).toBe('shell, not rendered: odd');
  });
});

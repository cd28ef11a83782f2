// Human wording for the backend's closed sets of codes: why a page failed or was skipped
// (backend/crawl/visit.go, backend/fetch/errors.go, backend/urlnorm/trap.go), problems
// found in a page's HTML (backend/extract/problems.go), link kinds and page states.
// Unknown codes are shown as they are: the backend may learn new ones first.

const reasons: Record<string, string> = {
  robots: 'Disallowed by robots.txt',
  unreachable: 'The host did not answer, not even for robots.txt',
  scope: 'Outside the crawl’s scope',
  depth: 'Beyond the depth limit',
  type: 'Not a web page: recorded from links, not downloaded',
  nofollow: 'The citing page or link says nofollow',
  trap: 'Looks like a spider trap',
  'host-limit': 'The per-host page limit was reached',
  'query-variants': 'The path’s budget of query variants was used up',
  'not-sitemap': 'Queued as a sitemap, but it is none',
  'too-large': 'Too large to download',
  redirect: 'Redirects elsewhere',
  'too-many-redirects': 'Too many redirects',
  'not-found': 'Not found',
  forbidden: 'Access denied',
  'server-error': 'Server error',
  'rate-limited': 'Rate-limited by the server (blocked, not dead)',
  http: 'Unusable HTTP answer',
  // fetch failures
  timeout: 'Timed out',
  dns: 'Host name not found (DNS)',
  refused: 'Connection refused',
  reset: 'Connection closed by the server',
  tls: 'Secure connection failed (TLS)',
  bomb: 'Body too large once decompressed',
  'bad-encoding': 'Unreadable content encoding',
  scheme: 'Not an http or https URL',
  canceled: 'Stopped when the crawl was paused or cancelled',
  network: 'Network error',
  other: 'Failed',
};

const traps: Record<string, string> = {
  'url-too-long': 'the URL is very long',
  'repeated-segment': 'a path segment keeps repeating',
  'too-deep': 'the path is very deep',
  'too-many-params': 'too many query parameters',
  calendar: 'a date far in the past or future (a calendar)',
};

/** Words for why a page failed or was skipped; status is its HTTP status (0 if none). */
export function reasonText(reason: string, status = 0): string {
  const r = (reason ?? '').trim();
  if (r === '') return '';
  if (r.startsWith('trap:')) {
    const sub = r.slice(5);
    return `${reasons.trap}: ${traps[sub] ?? sub}`;
  }
  const words = reasons[r] ?? r;
  return status > 0 && ['not-found', 'forbidden', 'server-error', 'rate-limited', 'http', 'redirect'].includes(r)
    ? `${words} (HTTP ${status})`
    : words;
}

const problems: Record<string, string> = {
  'no-title': 'No <title> element',
  'empty-title': 'The title is empty',
  'multiple-titles': 'More than one <title>',
  'unclosed-quote': 'An attribute’s quote is never closed',
  'unclosed-comment': 'A comment runs to the end of the document',
  'unclosed-element': 'An element is never closed (or a link inside a link)',
  'unclosed-tag': 'A tag is missing its closing >',
  'bad-base': 'The <base> URL is unusable',
  'bad-link': 'A link target does not parse as a URL',
  truncated: 'Longer than the body limit: only its beginning is kept and indexed',
  unreadable: 'The file is broken: its text could not be read',
  encrypted: 'The file is encrypted with a password',
  bomb: 'Its content inflates beyond the decompression budget',
  'too-deep': 'Archives nested too deep: the inner ones are not read',
  'too-many': 'More archive members than are read: the rest are listed only',
  timeout: 'Reading it took longer than its time budget',
  'tool-missing': 'The program that reads this type is not installed',
  incomplete: 'The file stops before its end (cut off): what came is read',
};

/** Words for a problem found in a page: in its HTML, or in a file of another type. */
export function problemText(code: string): string {
  return problems[code] ?? code;
}

const kinds: Record<string, string> = {
  a: 'link',
  area: 'image-map link',
  img: 'image',
  frame: 'frame',
  iframe: 'inline frame',
  link: 'link element',
  refresh: 'meta refresh',
  script: 'script',
  embed: 'embed',
  object: 'object',
  media: 'audio or video',
  form: 'form target',
  text: 'URL in text',
  redirect: 'redirect',
  seed: 'seed',
  sitemap: 'listed in a sitemap',
};

/** Words for how a page links to another; rel is shown for link elements (stylesheet...). */
export function kindText(kind: string, rel = ''): string {
  const k = kinds[kind] ?? kind;
  return kind === 'link' && rel.trim() !== '' ? `${k} (${rel.trim()})` : k;
}

const states: Record<string, string> = {
  queued: 'queued',
  fetched: 'fetched',
  redirected: 'redirected',
  failed: 'failed',
  skipped: 'skipped',
};

/** Words for a page's state. */
export function stateText(state: string): string {
  return states[state] ?? state;
}

const facetNames: Record<string, string> = { host: 'Site', type: 'Type', crawl: 'Crawl', status: 'Status', render: 'Read as' };

/** The order and titles of the facets. */
export const facetOrder = ['host', 'type', 'status', 'render', 'crawl'];

/** The title of a facet. */
export function facetTitle(name: string): string {
  return facetNames[name] ?? name;
}

const statusWords: Record<string, string> = {
  resource: 'resource (not downloaded)',
  redirect: 'redirect',
  failed: 'failed',
  queued: 'not fetched yet',
};

/** Why a shell was not rendered (a page's render.why; the render facet's shell-WHY). */
const notRenderedWords: Record<string, string> = {
  never: 'the crawl renders no page',
  'no-browser': 'no browser',
  timeout: 'out of time',
  crashed: 'its tab crashed',
  memory: 'over the memory cap',
  'browser-died': 'the browser died',
  navigation: 'the browser could not load it',
  error: 'the browser failed',
};

/** Words for a value of the render facet (rendered, static, shell-WHY). */
export function renderValueText(value: string): string {
  if (value === 'rendered') return 'rendered (built by scripts)';
  if (value === 'static') return 'static HTML';
  if (value.startsWith('shell-')) {
    const why = value.slice('shell-'.length);
    return `shell, not rendered: ${notRenderedWords[why] ?? why}`;
  }
  return value;
}

/** Words for a facet value. */
export function facetValueText(facet: string, value: string): string {
  if (facet === 'crawl') return `crawl ${value}`;
  if (facet === 'status') return statusWords[value] ?? value;
  if (facet === 'render') return renderValueText(value);
  return value;
}

/** What a version's flag says of a page whose 200 answer was not the page. */
export const flagText: Record<string, string> = {
  'soft-404': 'looks dead: the site’s error page behind a 200',
  parked: 'looks dead: a domain-parking page',
};

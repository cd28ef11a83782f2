export namespace app {
	
	export interface Crawl {
	    id: number;
	    seeds: string[];
	    scope: string;
	    state: string;
	    fetched: number;
	    failed: number;
	    skipped: number;
	    redirected: number;
	    queued: number;
	    toVisit: number;
	    visited: number;
	    notDue: number;
	    bytes: number;
	    pagesPerSec: number;
	    elapsedSeconds: number;
	    done: number;
	    etaSeconds: number;
	    current: string;
	    maxPages: number;
	    maxSeconds: number;
	    startedAt: string;
	    finishedAt: string;
	    note: string;
	    error: string;
	    rules: string;
	    searchable: number;
	}
	export interface CrawlPage {
	    id: number;
	    url: string;
	    title: string;
	    state: string;
	    reason: string;
	    detail: string;
	    status: number;
	    depth: number;
	}
	export interface CrawlPages {
	    total: number;
	    pages: CrawlPage[];
	}
	export interface CrawlRequest {
	    seeds: string[];
	    scope: string;
	    maxDepth: number;
	    maxPages: number;
	    maxSeconds: number;
	    maxPerHost: number;
	    maxQueryVariants: number;
	    sitemaps: boolean;
	    agents: number;
	    perHost: number;
	    delayMs: number;
	    refresh: boolean;
	    rules: string;
	}
	export interface FacetCount {
	    value: string;
	    count: number;
	    refine: string;
	}
	export interface IndexStatus {
	    searchable: number;
	    waiting: number;
	    updating: number;
	    current: boolean;
	    rebuilding: boolean;
	    reason: string;
	    phraseIndex: number;
	    error: string;
	    summary: string;
	}
	export interface LinkRef {
	    pageId: number;
	    url: string;
	    title: string;
	    state: string;
	    status: number;
	    kind: string;
	    anchor: string;
	    rel: string;
	}
	export interface OfflineCopy {
	    pageId: number;
	    url: string;
	    title: string;
	    contentType: string;
	    fetchedAt: string;
	    document: string;
	    text: string;
	}
	export interface Page {
	    id: number;
	    url: string;
	    host: string;
	    state: string;
	    reason: string;
	    reasonText: string;
	    detail: string;
	    status: number;
	    finalUrl: string;
	    contentType: string;
	    charset: string;
	    lang: string;
	    title: string;
	    description: string;
	    keywords: string;
	    author: string;
	    owner: string;
	    canonical: string;
	    alternates: number;
	    size: number;
	    duplicateOf: number;
	    duplicateUrl: string;
	    etag: string;
	    lastModified: string;
	    expires: string;
	    depth: number;
	    parentUrl: string;
	    crawlId: number;
	    problems: string[];
	    noindex: boolean;
	    nofollow: boolean;
	    cached: boolean;
	    discoveredAt: string;
	    fetchedAt: string;
	    changedAt: string;
	    confirmedAt: string;
	    refreshAt: string;
	    inlinks: number;
	    outlinks: number;
	    linksOut: LinkRef[];
	    linksIn: LinkRef[];
	}
	export interface PageRelations {
	    links: graph.Links;
	    elements: graph.Element[];
	    clickDepth: graph.Depth;
	}
	export interface Result {
	    pageId: number;
	    url: string;
	    title: string;
	    host: string;
	    type: string;
	    state: string;
	    status: number;
	    score: number;
	    snippet: string[];
	    copies: number;
	    alternates: number;
	    reason: string;
	    fetchedAt: string;
	    new: boolean;
	}
	export interface RuleError {
	    line: number;
	    column: number;
	    message: string;
	}
	export interface RuleSpan {
	    kind: string;
	    from: number;
	    to: number;
	}
	export interface RulesCheck {
	    ok: boolean;
	    canonical: string;
	    needsPage: boolean;
	    error?: RuleError;
	    spans: RuleSpan[];
	}
	export interface RulesTest {
	    url: string;
	    pageId: number;
	    stored: boolean;
	    value: string;
	    potential: string;
	    reason: string;
	    atom: string;
	    line: number;
	    column: number;
	    from: number;
	    to: number;
	}
	export interface SearchRequest {
	    query: string;
	    limit: number;
	    offset: number;
	    facets: boolean;
	}
	export interface SearchResults {
	    query: string;
	    total: number;
	    totalApprox: boolean;
	    totalAtLeast: boolean;
	    window: number;
	    tookMs: number;
	    results: Result[];
	    facets: Record<string, Array<FacetCount>>;
	    facetsApprox: boolean;
	    note: string;
	    didYouMean: string;
	    corrected: boolean;
	}
	export interface Settings {
	    userAgentSuffix: string;
	    from: string;
	    delayMs: number;
	    perHost: number;
	    agents: number;
	    theme: string;
	    maxPerHost: number;
	    maxQueryVariants: number;
	    maxBody: number;
	}
	export interface Status {
	    path: string;
	    fetched: number;
	    queued: number;
	    failed: number;
	    skipped: number;
	    hosts: number;
	    links: number;
	    index: IndexStatus;
	}
	export interface View {
	    id: number;
	    name: string;
	    query: string;
	    createdAt: string;
	    openedAt: string;
	    lastTotal: number;
	}
	export interface ViewResults {
	    view: View;
	    results: SearchResults;
	    new: number;
	    since: string;
	}
	export interface WorkspaceInfo {
	    path: string;
	    bytes: number;
	    canChoose: boolean;
	}

}

export namespace graph {
	
	export interface Page {
	    id: number;
	    url: string;
	    title?: string;
	    host: string;
	    state: string;
	    status?: number;
	}
	export interface Hop {
	    page: Page;
	    kind?: string;
	    anchor?: string;
	    backward?: boolean;
	}
	export interface Depth {
	    depth: number;
	    path: Hop[];
	}
	export interface Element {
	    crawlId: number;
	    family: string;
	    page: Page;
	    value: string;
	    followed: boolean;
	    visited: boolean;
	    parent?: number;
	}
	
	export interface Link {
	    page: Page;
	    kind: string;
	    anchor?: string;
	    rel?: string;
	    pos?: number;
	}
	export interface Links {
	    page: Page;
	    out: Link[];
	    in: Link[];
	    outTotal: number;
	    inTotal: number;
	}
	export interface Orphans {
	    total: number;
	    pages: Page[];
	}
	
	export interface PathResult {
	    from: Page;
	    to: Page;
	    undirected: boolean;
	    found: boolean;
	    length: number;
	    path: Hop[];
	    shortest: number;
	    shortestAtLeast?: boolean;
	    paths: number;
	    pathsAtLeast?: boolean;
	    pathsMaxLength: number;
	    reached: number;
	    linksRead: number;
	}
	export interface Tree {
	    elements: Element[];
	    truncated: boolean;
	}
	export interface ViewNode {
	    id: number;
	    url: string;
	    title?: string;
	    host: string;
	    state: string;
	    status?: number;
	    family: string;
	    value: string;
	    followed: boolean;
	    parent: number;
	}
	export interface View {
	    crawlId: number;
	    nodes: ViewNode[];
	    edges: number[][];
	    truncated: boolean;
	    moreEdges: boolean;
	}

}


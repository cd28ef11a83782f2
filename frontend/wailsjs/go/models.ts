export namespace app {
	
	export interface Crawl {
	    id: number;
	    seeds: string[];
	    scope: string;
	    state: string;
	    fetched: number;
	    queued: number;
	    failed: number;
	    skipped: number;
	    bytes: number;
	    pagesPerSec: number;
	    startedAt: string;
	    finishedAt: string;
	    error: string;
	}
	export interface CrawlRequest {
	    seeds: string[];
	    scope: string;
	    maxDepth: number;
	    maxPages: number;
	    maxSeconds: number;
	    agents: number;
	    perHost: number;
	    delayMs: number;
	    refresh: boolean;
	}
	export interface Result {
	    pageId: number;
	    url: string;
	    title: string;
	    score: number;
	    snippet: string[];
	}
	export interface SearchResults {
	    query: string;
	    total: number;
	    tookMs: number;
	    results: Result[];
	}
	export interface Status {
	    path: string;
	    fetched: number;
	    queued: number;
	    failed: number;
	    skipped: number;
	    hosts: number;
	    links: number;
	}

}


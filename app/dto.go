package app

// DTOs crossing the Wails bridge (and the HTTP front door): camelCase JSON, times as RFC 3339
// strings, never time.Time.

// CrawlRequest is what the crawl form submits.
type CrawlRequest struct {
	Seeds      []string `json:"seeds"`
	Scope      string   `json:"scope"` // site | tree | domain | list
	MaxDepth   int      `json:"maxDepth"`
	MaxPages   int      `json:"maxPages"`
	MaxSeconds int      `json:"maxSeconds"`
	Agents     int      `json:"agents"`
	PerHost    int      `json:"perHost"`
	DelayMs    int      `json:"delayMs"` // -1 means the default delay
	Refresh    bool     `json:"refresh"`
}

// Crawl is one crawl job and its counters.
type Crawl struct {
	ID          int64    `json:"id"`
	Seeds       []string `json:"seeds"`
	Scope       string   `json:"scope"`
	State       string   `json:"state"` // running | paused | done | cancelled | failed
	Fetched     int64    `json:"fetched"`
	Queued      int64    `json:"queued"`
	Failed      int64    `json:"failed"`
	Skipped     int64    `json:"skipped"`
	Bytes       int64    `json:"bytes"`
	PagesPerSec float64  `json:"pagesPerSec"`
	StartedAt   string   `json:"startedAt"`
	FinishedAt  string   `json:"finishedAt"`
	Error       string   `json:"error"`
}

// SearchResults is one page of results.
type SearchResults struct {
	Query   string   `json:"query"`
	Total   int      `json:"total"`
	TookMs  float64  `json:"tookMs"`
	Results []Result `json:"results"`
}

// Result is one search hit. Snippet is a list of text fragments; odd-indexed fragments are
// matches. The UI renders every fragment as text, so nothing crawled becomes markup.
type Result struct {
	PageID  int64    `json:"pageId"`
	URL     string   `json:"url"`
	Title   string   `json:"title"`
	Score   int      `json:"score"` // normalised to 1000 for the best hit
	Snippet []string `json:"snippet"`
}

// Status is the workspace's counts.
type Status struct {
	Path    string `json:"path"`
	Fetched int64  `json:"fetched"`
	Queued  int64  `json:"queued"`
	Failed  int64  `json:"failed"`
	Skipped int64  `json:"skipped"`
	Hosts   int64  `json:"hosts"`
	Links   int64  `json:"links"`
}

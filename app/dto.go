package app

// DTOs crossing the Wails bridge (and the HTTP front door): camelCase JSON, times as RFC 3339
// strings, never time.Time.

// CrawlRequest is what the crawl form submits. Limits are 0 for none; the guards (per host,
// query variants, agents, per-host parallelism) are 0 for the workspace's setting, the delay
// -1. CrawlDefaults gives the values a new form starts from, the CLI's own defaults.
type CrawlRequest struct {
	Seeds            []string `json:"seeds"`
	Scope            string   `json:"scope"` // site | tree | domain | list
	MaxDepth         int      `json:"maxDepth"`
	MaxPages         int      `json:"maxPages"`
	MaxSeconds       int      `json:"maxSeconds"`
	MaxPerHost       int      `json:"maxPerHost"`
	MaxQueryVariants int      `json:"maxQueryVariants"`
	Sitemaps         bool     `json:"sitemaps"`
	Agents           int      `json:"agents"`
	PerHost          int      `json:"perHost"`
	DelayMs          int      `json:"delayMs"` // -1 means the default delay
	Refresh          bool     `json:"refresh"`
	Rules            string   `json:"rules"` // the webbot's rules (CheckRules); "" for the scope alone
	// Toward makes the crawl query-directed (best links for this query first); "" for none.
	Toward string `json:"toward"`
	// Types are the document types downloaded (DocumentTypes lists them); empty: the defaults.
	Types []string `json:"types,omitempty"`
	// Keep is the crawl's own retention of page versions: all, last (KeepLast of them) or
	// none; default follows the workspace's setting again; "" leaves it as it is (a new crawl
	// follows the workspace's).
	Keep     string `json:"keep,omitempty"`
	KeepLast int    `json:"keepLast,omitempty"`
	// Requisites stores the fetched pages' style sheets, images and fonts, for reading
	// offline (wget's -p).
	Requisites bool `json:"requisites,omitempty"`
	// Render chooses the pages read in a browser after their scripts ran: auto (those
	// whose HTML is a shell), always or never; "" is the workspace's setting.
	// RenderExternal lets rendered pages load from hosts outside the crawl's;
	// RenderFullPage adds a screenshot of the whole page.
	Render         string `json:"render"`
	RenderExternal bool   `json:"renderExternal"`
	RenderFullPage bool   `json:"renderFullPage"`
}

// Crawl is one crawl job: its pages, counted by state the one way the page list, status and
// crawl: in search count them, and its current run.
type Crawl struct {
	ID         int64    `json:"id"`
	Seeds      []string `json:"seeds"`
	Scope      string   `json:"scope"`
	State      string   `json:"state"` // running | paused | done | cancelled | failed
	Fetched    int64    `json:"fetched"`
	Failed     int64    `json:"failed"`
	Skipped    int64    `json:"skipped"`  // pages left out (robots.txt, depth, caps, traps)
	Recorded   int64    `json:"recorded"` // links recorded, not pages (store.Recorded)
	Redirected int64    `json:"redirected"`
	Queued     int64    `json:"queued"`  // pages found and not visited yet
	ToVisit    int64    `json:"toVisit"` // left in the current run's queue
	Visited    int64    `json:"visited"` // this run's visits
	NotDue     int64    `json:"notDue"`  // of which from the store: not due for a re-check
	Bytes      int64    `json:"bytes"`   // downloaded by this run
	// PagesPerSec is the live rate of a running crawl (0 otherwise).
	PagesPerSec    float64 `json:"pagesPerSec"`
	ElapsedSeconds float64 `json:"elapsedSeconds"` // of the run, while it runs
	// Done is the share of the run done when a limit (max pages, time) gives one, else -1;
	// it never moves back. EtaSeconds is the time left then (0 when unknown).
	Done       float64 `json:"done"`
	EtaSeconds float64 `json:"etaSeconds"`
	Current    string  `json:"current"` // a URL being fetched
	MaxPages   int     `json:"maxPages"`
	MaxSeconds int     `json:"maxSeconds"`
	StartedAt  string  `json:"startedAt"`
	FinishedAt string  `json:"finishedAt"`
	Note       string  `json:"note"`   // what the run is doing, or what cut it short
	Error      string  `json:"error"`  // why it failed (an unreachable seed: which, and why)
	Rules      string  `json:"rules"`  // the webbot's rules the crawl runs under
	Toward     string  `json:"toward"` // the query a query-directed crawl goes toward
	// Searchable counts the pages searchable so far while the crawl runs (0 otherwise).
	Searchable int64 `json:"searchable"`
}

// SearchRequest is a query with its page and options.
type SearchRequest struct {
	Query  string `json:"query"`
	Limit  int    `json:"limit"`
	Offset int    `json:"offset"`
	Facets bool   `json:"facets"`
}

// SearchResults is one page of results.
type SearchResults struct {
	Query        string `json:"query"`
	Total        int    `json:"total"`
	TotalApprox  bool   `json:"totalApprox"`
	TotalAtLeast bool   `json:"totalAtLeast"` // total is a lower bound
	// Window, when not 0, is how far paging reaches: only the best Window matches are ranked.
	Window       int                     `json:"window"`
	TookMs       float64                 `json:"tookMs"`
	Results      []Result                `json:"results"`
	Facets       map[string][]FacetCount `json:"facets"`
	FacetsApprox bool                    `json:"facetsApprox"`
	Note         string                  `json:"note"`
	DidYouMean   string                  `json:"didYouMean"`
	Corrected    bool                    `json:"corrected"` // the results are for DidYouMean
	// Library holds the library's postings that match (with the first page only).
	Library LibSearchResults `json:"library"`
}

// FacetResults is the facet counts of a query's matches, asked apart from its results
// (the window asks once the results are shown).
type FacetResults struct {
	Query  string                  `json:"query"`
	Facets map[string][]FacetCount `json:"facets"`
	// Approx: the counts are estimated from a sample of the matches (there are many).
	Approx     bool    `json:"approx"`
	DidYouMean string  `json:"didYouMean"`
	Corrected  bool    `json:"corrected"` // the counts are for DidYouMean (the query matched nothing)
	TookMs     float64 `json:"tookMs"`
}

// FacetCount is one value of a facet ("host", "type", "crawl", "status", "render") and the query
// term that narrows the search to it.
type FacetCount struct {
	Value  string `json:"value"`
	Count  int    `json:"count"`
	Refine string `json:"refine"`
}

// Result is one search hit. Snippet is a list of text fragments; odd-indexed fragments are
// matches. The UI renders every fragment as text, so nothing crawled becomes markup.
type Result struct {
	PageID  int64    `json:"pageId"`
	URL     string   `json:"url"`
	Title   string   `json:"title"`
	Host    string   `json:"host"`
	Type    string   `json:"type"`
	State   string   `json:"state"`
	Status  int      `json:"status"`
	Score   int      `json:"score"` // normalised to 1000 for the best hit
	Snippet []string `json:"snippet"`
	Copies  int      `json:"copies"` // identical pages collapsed into this one
	// Alternates is the pages that name this one as their canonical URL, collapsed into it.
	Alternates int    `json:"alternates"`
	Reason     string `json:"reason"` // why it failed, was skipped or redirected
	FetchedAt  string `json:"fetchedAt"`
	New        bool   `json:"new"`       // (an opened view) new or changed since it was last opened
	ChangedAt  string `json:"changedAt"` // when its content last changed (or it was found)
	Versions   int    `json:"versions"`  // contents kept of it: more than one means it changed
	// Flag says its current content is not the page: soft-404 (the site's error page behind
	// a 200) or parked (a domain-parking page); "" for none.
	Flag string `json:"flag,omitempty"`
	// From the page's summary: the author, a document's page count (0: none), the summariser.
	Author     string `json:"author,omitempty"`
	Pages      int    `json:"pages,omitempty"`
	Summariser string `json:"summariser,omitempty"`
	// Source names the instance or SOIF file the page's summary came from ("": crawled here).
	Source string `json:"source,omitempty"`
	// Explain says how the score was made, when it was asked (the command line's --explain).
	Explain string `json:"explain,omitempty"`
}

// Status is the workspace's counts (store.Counts says what each counts).
type Status struct {
	Path    string `json:"path"`
	Fetched int64  `json:"fetched"` // pages fetched and stored
	Queued  int64  `json:"queued"`
	Failed  int64  `json:"failed"`
	Skipped int64  `json:"skipped"` // pages left out (robots.txt, depth, caps, traps)
	// Recorded are the links recorded, not pages: other sites, style sheets, scripts,
	// images and files that links name and no crawl meant to fetch.
	Recorded   int64 `json:"recorded"`
	Redirected int64 `json:"redirected"`
	Hosts      int64 `json:"hosts"`
	Links      int64 `json:"links"`
	// Index is how far behind the search index is.
	Index IndexStatus `json:"index"`
}

// Page is everything known about one page.
type Page struct {
	ID           int64     `json:"id"`
	URL          string    `json:"url"`
	Host         string    `json:"host"`
	State        string    `json:"state"`
	Reason       string    `json:"reason"`
	ReasonText   string    `json:"reasonText"` // the reason in words
	Detail       string    `json:"detail"`
	Status       int       `json:"status"`
	FinalURL     string    `json:"finalUrl"`
	ContentType  string    `json:"contentType"`
	Charset      string    `json:"charset"`
	Lang         string    `json:"lang"`
	Title        string    `json:"title"`
	Description  string    `json:"description"`
	Keywords     string    `json:"keywords"`
	Author       string    `json:"author"`
	Owner        string    `json:"owner"`
	Canonical    string    `json:"canonical"`  // the canonical URL the page names (rel=canonical), if not itself
	Alternates   int       `json:"alternates"` // pages naming this one as their canonical URL
	Size         int64     `json:"size"`
	DuplicateOf  int64     `json:"duplicateOf"`
	DuplicateURL string    `json:"duplicateUrl"`
	ETag         string    `json:"etag"`
	LastModified string    `json:"lastModified"`
	Expires      string    `json:"expires"`
	Depth        int       `json:"depth"`
	ParentURL    string    `json:"parentUrl"`
	CrawlID      int64     `json:"crawlId"`
	Problems     []string  `json:"problems"`
	NoIndex      bool      `json:"noindex"`
	NoFollow     bool      `json:"nofollow"`
	Cached       bool      `json:"cached"` // an offline copy exists
	DiscoveredAt string    `json:"discoveredAt"`
	FetchedAt    string    `json:"fetchedAt"`
	ChangedAt    string    `json:"changedAt"`
	ConfirmedAt  string    `json:"confirmedAt"` // the server last confirmed the stored copy (304)
	RefreshAt    string    `json:"refreshAt"`
	Inlinks      int       `json:"inlinks"`  // distinct citing pages
	Outlinks     int       `json:"outlinks"` // links on the page
	LinksOut     []LinkRef `json:"linksOut"` // the first outgoing links
	LinksIn      []LinkRef `json:"linksIn"`  // the first citing links
	// Render is how its HTML was read (nil: not HTML, or fetched before rendering was
	// recorded); Screenshots are those of its newest rendered version.
	Render      *PageRender      `json:"render,omitempty"`
	Screenshots []ScreenshotInfo `json:"screenshots"`
}

// LinkRef is a link seen from one end: the page at the other end and how it links.
type LinkRef struct {
	PageID int64  `json:"pageId"`
	URL    string `json:"url"`
	Title  string `json:"title"`
	State  string `json:"state"`
	Status int    `json:"status"`
	Kind   string `json:"kind"`
	Anchor string `json:"anchor"`
	Rel    string `json:"rel"`
}

// CrawlPages is one page of a crawl's pages.
type CrawlPages struct {
	Total int         `json:"total"`
	Pages []CrawlPage `json:"pages"`
}

// CrawlPage is a page as a crawl saw it, with why it failed or was skipped.
type CrawlPage struct {
	ID         int64  `json:"id"`
	URL        string `json:"url"`
	Title      string `json:"title"`
	State      string `json:"state"`
	Reason     string `json:"reason"`     // a closed code
	ReasonText string `json:"reasonText"` // the code in words, as Page's
	Detail     string `json:"detail"`
	Status     int    `json:"status"`
	Depth      int    `json:"depth"`
}

// OfflineCopy is a page's cached copy, in two safe forms: Document is a standalone HTML
// document with everything active removed and a CSP that loads nothing, for a frame with
// the sandbox attribute (no scripts, no same origin); Text is the extracted text.
type OfflineCopy struct {
	PageID      int64  `json:"pageId"`
	URL         string `json:"url"`
	Title       string `json:"title"`
	ContentType string `json:"contentType"`
	FetchedAt   string `json:"fetchedAt"`
	Document    string `json:"document"`
	Text        string `json:"text"`
	// Summariser read the page (html, pdf, feed...; "" before they were recorded); Attrs
	// are its type's attributes (a PDF's author and pages). CanOpen: the copy is a PDF that
	// OpenDocument opens in the system's viewer.
	Summariser string        `json:"summariser,omitempty"`
	Attrs      []SummaryAttr `json:"attrs,omitempty"`
	CanOpen    bool          `json:"canOpen,omitempty"`
	// Blocks are the text as a reader sees it (the Text tab); AsPage says the copy reads
	// best as a page (its Page tab opens first); Assets what it shows of its stored style
	// sheets and images. The document's links carry what the workspace holds of their
	// targets (sanitize.Attr*), which the app opens in place.
	Blocks []TextBlock `json:"blocks"`
	AsPage bool        `json:"asPage"`
	Assets CopyAssets  `json:"assets"`
	// VersionID is the version shown (0: the current content); Replay says its links open
	// the versions of their targets nearest in time to it (an old version's copy).
	VersionID int64 `json:"versionId"`
	Replay    bool  `json:"replay"`
}

// SummaryAttr is one attribute of a page's automatic summary.
type SummaryAttr struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// WorkspaceInfo describes the open workspace.
type WorkspaceInfo struct {
	Path      string `json:"path"`
	Bytes     int64  `json:"bytes"`     // the file and its WAL
	CanChoose bool   `json:"canChoose"` // ChooseWorkspace has native dialogs here
}

// Settings are the workspace's preferences (they travel with the workspace file).
type Settings struct {
	UserAgentSuffix string `json:"userAgentSuffix"` // appended to the User-Agent: a contact address or URL
	From            string `json:"from"`            // e-mail address sent in the From header
	DelayMs         int    `json:"delayMs"`         // default gap between requests to one host
	PerHost         int    `json:"perHost"`         // default parallel requests per host
	Agents          int    `json:"agents"`          // default parallel fetches
	Theme           string `json:"theme"`           // system | light | dark
	MaxPerHost      int    `json:"maxPerHost"`      // pages a crawl run fetches per host at most
	// MaxQueryVariants caps the URLs of one path that differ only in their query.
	MaxQueryVariants int   `json:"maxQueryVariants"`
	MaxBody          int64 `json:"maxBody"` // bytes of a document kept: a longer one is cut
	// Render is the crawls' default choice of pages read in a browser: auto (those whose
	// HTML is a shell), always or never.
	Render string `json:"render"`
}

// View is a saved query (Harvest's standing queries).
type View struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Query     string `json:"query"`
	CreatedAt string `json:"createdAt"`
	OpenedAt  string `json:"openedAt"`
	LastTotal int    `json:"lastTotal"` // results when last opened
}

// ViewResults is an opened view: its results now and how many are new since Since.
type ViewResults struct {
	View    View          `json:"view"`
	Results SearchResults `json:"results"`
	New     int           `json:"new"`
	Since   string        `json:"since"`
}

package crawl

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"mundaneum/backend/render"
	"mundaneum/backend/store"
	"mundaneum/backend/summary"
	"mundaneum/backend/urlnorm"
)

// Version is reported in the User-Agent.
var Version = "0.1"

// UserAgent is the honest product token the crawler sends, with the workspace owner's
// suffix (a contact address or URL, from the settings) when there is one.
func UserAgent(suffix string) string {
	suffix = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '(' || r == ')' {
			return -1 // keep the header one well-formed line
		}
		return r
	}, strings.TrimSpace(suffix))
	if suffix == "" {
		return "Mundaneum/" + Version + " (personal research crawler)"
	}
	return "Mundaneum/" + Version + " (personal research crawler; " + suffix + ")"
}

// Defaults fills what the caller left unset from the workspace's settings: parallelism,
// the per-host delay (when negative), the per-host page cap, the query-variant budget, the
// body limit, the User-Agent suffix and the From address.
func (c *Config) Defaults(s store.Settings) {
	if c.Agents <= 0 {
		c.Agents = s.Agents
	}
	if c.PerHost <= 0 {
		c.PerHost = s.PerHost
	}
	if c.MaxPerHost <= 0 {
		c.MaxPerHost = s.MaxPerHost
	}
	if c.MaxQueryVariants <= 0 {
		c.MaxQueryVariants = s.MaxQueryVariants
	}
	if c.MaxBody <= 0 {
		c.MaxBody = s.MaxBody
	}
	if c.Delay < 0 && s.DelayMs >= 0 {
		c.Delay = time.Duration(s.DelayMs) * time.Millisecond
	}
	if c.UserAgent == "" {
		c.UserAgent = UserAgent(s.UserAgentSuffix)
	}
	if c.From == "" {
		c.From = s.From
	}
	if c.Render == "" {
		c.Render = s.Render
	}
}

// Config is one crawl's definition and the limits of a run. The zero value of a limit is
// "none" (MaxDepth, MaxPages, MaxTime, MaxBytes) or "the workspace's setting" (the rest);
// a negative limit is refused (Validate), except Delay, where it means the setting.
type Config struct {
	Seeds []string `json:"seeds"`
	Scope string   `json:"scope"` // site | tree | domain | list

	MaxDepth int           `json:"maxDepth"` // link depth from the seeds; 0: no limit
	MaxPages int           `json:"maxPages"` // pages visited in one run; 0: no limit
	MaxTime  time.Duration `json:"maxTime"`  // one run's wall time; 0: no limit
	MaxBytes int64         `json:"maxBytes"` // bytes downloaded in one run; 0: no limit
	// MaxPerHost caps the pages fetched from one host in a run (a spider-trap guard):
	// answers that are no page (404s, redirects) do not count.
	MaxPerHost int `json:"maxPerHost"`
	// MaxQueryVariants caps the URLs of one path that differ only in their query (faceted
	// navigation, calendars, sorting links) queued in a run.
	MaxQueryVariants int `json:"maxQueryVariants"`
	// Sitemaps seeds the crawl from each seed host's sitemaps too: those robots.txt names,
	// else /sitemap.xml.
	Sitemaps bool `json:"sitemaps"`

	Agents  int           `json:"agents"`  // parallel fetches (default 16)
	PerHost int           `json:"perHost"` // parallel fetches per host (default 2)
	Delay   time.Duration `json:"delay"`   // gap between requests to one host; negative: default
	Refresh bool          `json:"refresh"` // re-check every page (conditionally), not only those due

	// Rules is the webbot's constraint on what to follow (backend/rules), global to the
	// crawl with its LOCAL blocks; empty: the scope alone decides. An imperative rule
	// takes a page outside the scope; the categories order the queue.
	Rules string `json:"rules,omitempty"`
	// Toward makes the crawl query-directed (WebCrawler's real-time search): the links whose
	// anchor text, surrounding text and page best match this query (the search language)
	// are followed first. Part of the crawl's identity: the same seeds toward another query
	// are another crawl.
	Toward string `json:"toward,omitempty"`

	UserAgent string `json:"userAgent"`
	From      string `json:"from"`
	// MaxBody caps a page's body (and any document's text): a longer one is cut there,
	// indexed and marked with the problem "truncated". Documents (PDFs, archives) may be
	// DocumentBodyFactor times longer on the wire.
	MaxBody int64 `json:"maxBody"`
	// Types are the document types downloaded and summarised (backend/summary's type
	// names: html, txt, pdf, md, feed, gz, zip, tar); empty: summary.DefaultTypes. Links
	// to other types are recorded, not followed.
	Types []string `json:"types,omitempty"`
	// Requisites stores what the fetched pages need to look like themselves offline: their
	// style sheets, images and fonts (wget's -p; see requisites.go). Not part of the
	// crawl's identity: asked for later, a run gathers what the earlier ones did not.
	Requisites bool `json:"requisites,omitempty"`

	// Render chooses the pages read in Chromium after their scripts ran (backend/render):
	// auto (those whose HTML looks like a shell), always or never; "" is the workspace's
	// setting. RenderExternal lets a rendered page load from hosts outside the crawl's;
	// RenderTabs (0: 2) pages render at once, each within RenderBudget (0: 15 s);
	// RenderFullPage adds a screenshot of the whole page to the viewport's.
	Render         string        `json:"render,omitempty"`
	RenderExternal bool          `json:"renderExternal,omitempty"`
	RenderTabs     int           `json:"renderTabs,omitempty"`
	RenderBudget   time.Duration `json:"renderBudget,omitempty"`
	RenderFullPage bool          `json:"renderFullPage,omitempty"`
}

// DocumentBodyFactor is how many times MaxBody a document's body (a PDF, an archive) may
// be: papers and manuals run to tens of megabytes where pages are tens of kilobytes.
const DocumentBodyFactor = 4

// DefaultConfig is a crawl's configuration before the user changes anything, with the
// workspace's settings s: what the CLI's flags and the window's form start from.
func DefaultConfig(s store.Settings) Config {
	c := Config{Scope: ScopeSite, Delay: -1}
	c.Defaults(s)
	return c
}

// Validate refuses limits that cannot be meant: negative ones (which used to pass for "no
// limit"), and parallelism beyond what the crawler runs.
func (c *Config) Validate() error {
	for _, l := range []struct {
		name string
		v    int64
	}{
		{"depth", int64(c.MaxDepth)}, {"max-pages", int64(c.MaxPages)}, {"max-time", int64(c.MaxTime)},
		{"max-bytes", c.MaxBytes}, {"max-per-host", int64(c.MaxPerHost)},
		{"max-variants", int64(c.MaxQueryVariants)}, {"max-body", c.MaxBody},
		{"agents", int64(c.Agents)}, {"per-host", int64(c.PerHost)},
	} {
		if l.v < 0 {
			return fmt.Errorf("%w: %s must not be negative (0 means %s)", ErrConfig, l.name, zeroMeans(l.name))
		}
	}
	switch {
	case c.Agents > maxAgents:
		return fmt.Errorf("%w: agents must be at most %d", ErrConfig, maxAgents)
	case c.PerHost > maxPerHostConns:
		return fmt.Errorf("%w: per-host must be at most %d", ErrConfig, maxPerHostConns)
	case c.Delay > maxDelay:
		return fmt.Errorf("%w: the delay must be at most %s", ErrConfig, maxDelay)
	case c.MaxBody > 0 && c.MaxBody < minBody:
		return fmt.Errorf("%w: max-body must be at least %d bytes", ErrConfig, minBody)
	}
	if _, err := summary.ParseTypes(strings.Join(c.Types, ",")); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return c.validateRender()
}

// Bounds of Validate.
const (
	maxToward       = 500
	maxAgents       = 256
	maxPerHostConns = 64
	maxDelay        = 10 * time.Minute
	minBody         = 1 << 10
)

func zeroMeans(name string) string {
	switch name {
	case "depth", "max-pages", "max-time", "max-bytes":
		return "no limit"
	}
	return "the workspace's setting"
}

// Scope names.
const (
	ScopeSite   = "site"
	ScopeTree   = "tree"
	ScopeDomain = "domain"
	ScopeList   = "list"
)

// ErrConfig marks an invalid crawl definition.
var ErrConfig = errors.New("invalid crawl")

// normalize checks the config, fills defaults and canonicalises the seeds.
func (c *Config) normalize() error {
	if err := c.Validate(); err != nil {
		return err
	}
	if len(c.Seeds) == 0 {
		return fmt.Errorf("%w: no seed urls", ErrConfig)
	}
	if c.Scope == "" {
		c.Scope = ScopeSite
	}
	c.Toward = strings.Join(strings.Fields(c.Toward), " ")
	if len(c.Toward) > maxToward {
		return fmt.Errorf("%w: the --toward query is longer than %d bytes", ErrConfig, maxToward)
	}
	if !slices.Contains([]string{ScopeSite, ScopeTree, ScopeDomain, ScopeList}, c.Scope) {
		return fmt.Errorf("%w: unknown scope %q (site, tree, domain or list)", ErrConfig, c.Scope)
	}
	seeds := make([]string, 0, len(c.Seeds))
	for _, s := range c.Seeds {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if !strings.Contains(s, "://") {
			s = "http://" + s
		}
		n, err := urlnorm.Normalize(s)
		if err != nil {
			return fmt.Errorf("%w: seed %q: %w", ErrConfig, s, err)
		}
		if !slices.Contains(seeds, n) {
			seeds = append(seeds, n)
		}
	}
	if len(seeds) == 0 {
		return fmt.Errorf("%w: no seed urls", ErrConfig)
	}
	c.Seeds = seeds
	types, _ := summary.ParseTypes(strings.Join(c.Types, ","))
	c.Types = strings.Split(types.String(), ",")
	def := store.DefaultSettings()
	if c.Delay < 0 {
		c.Delay = time.Duration(def.DelayMs) * time.Millisecond
	}
	c.Defaults(def) // what the workspace's settings did not fill
	if c.UserAgent == "" {
		c.UserAgent = UserAgent("")
	}
	mode, _ := render.ParseMode(c.Render)
	c.Render = string(mode)
	return nil
}

// key identifies "the same crawl" across runs: its scope and seeds.
func (c *Config) key() string {
	s := slices.Clone(c.Seeds)
	slices.Sort(s)
	k := c.Scope + " " + strings.Join(s, " ")
	if c.Toward != "" {
		k += " toward " + c.Toward
	}
	return k
}

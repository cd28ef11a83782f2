package crawl

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"mundaneum/backend/store"
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
// the per-host delay (when negative), the User-Agent suffix and the From address.
func (c *Config) Defaults(s store.Settings) {
	if c.Agents <= 0 {
		c.Agents = s.Agents
	}
	if c.PerHost <= 0 {
		c.PerHost = s.PerHost
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
}

// Config is one crawl's definition and the limits of a run.
type Config struct {
	Seeds []string `json:"seeds"`
	Scope string   `json:"scope"` // site | tree | domain | list

	MaxDepth   int           `json:"maxDepth"`   // link depth from the seeds; 0: no limit
	MaxPages   int           `json:"maxPages"`   // pages visited in one run; 0: no limit
	MaxTime    time.Duration `json:"maxTime"`    // one run's wall time; 0: no limit
	MaxBytes   int64         `json:"maxBytes"`   // bytes downloaded in one run; 0: no limit
	MaxPerHost int           `json:"maxPerHost"` // pages queued per host (trap guard); 0: default

	Agents  int           `json:"agents"`  // parallel fetches (default 16)
	PerHost int           `json:"perHost"` // parallel fetches per host (default 2)
	Delay   time.Duration `json:"delay"`   // gap between requests to one host; negative: default
	Refresh bool          `json:"refresh"` // re-check every page (conditionally), not only those due

	// Rules is the webbot's constraint on what to follow (backend/rules), global to the
	// crawl with its LOCAL blocks; empty: the scope alone decides. An imperative rule
	// takes a page outside the scope; the categories order the queue.
	Rules string `json:"rules,omitempty"`

	UserAgent string `json:"userAgent"`
	From      string `json:"from"`
	MaxBody   int64  `json:"maxBody"`
}

// DefaultMaxPerHost caps the pages one crawl queues per host (a spider-trap guard); the
// other defaults are the workspace's settings (store.DefaultSettings).
const DefaultMaxPerHost = 100_000

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
	if len(c.Seeds) == 0 {
		return fmt.Errorf("%w: no seed urls", ErrConfig)
	}
	if c.Scope == "" {
		c.Scope = ScopeSite
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
	def := store.DefaultSettings()
	if c.Agents <= 0 {
		c.Agents = def.Agents
	}
	if c.Agents > 256 {
		c.Agents = 256
	}
	if c.PerHost <= 0 {
		c.PerHost = def.PerHost
	}
	if c.Delay < 0 {
		c.Delay = time.Duration(def.DelayMs) * time.Millisecond
	}
	if c.MaxDepth < 0 {
		c.MaxDepth = 0
	}
	if c.MaxPerHost <= 0 {
		c.MaxPerHost = DefaultMaxPerHost
	}
	if c.UserAgent == "" {
		c.UserAgent = UserAgent("")
	}
	return nil
}

// key identifies "the same crawl" across runs: its scope and seeds.
func (c *Config) key() string {
	s := slices.Clone(c.Seeds)
	slices.Sort(s)
	return c.Scope + " " + strings.Join(s, " ")
}

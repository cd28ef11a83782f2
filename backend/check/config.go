package check

import (
	"time"

	"mundaneum/backend/fetch"
	"mundaneum/backend/politeness"
	"mundaneum/backend/robots"
)

// Config says how a run makes its requests.
type Config struct {
	UserAgent     string
	From          string
	Agents        int           // parallel requests (default 16)
	PerHost       int           // parallel requests per host (default 2)
	Delay         time.Duration // gap between requests to one host
	Timeout       time.Duration // one request, body included (default 20 s)
	MaxBody       int64         // bytes of a document read (default 10 MiB)
	Retries       int           // further tries after a timeout, 429, 503 or 5xx (default 2)
	MaxRetryAfter time.Duration // the longest Retry-After a run waits for (default 2 min)
	RobotsTTL     time.Duration // how long a robots.txt holds (default 1 day)
	Dead          DeadPolicy
	// Probe tells whether this machine reaches the internet, asked when no host outside it
	// could be reached (default InternetProbe; offline.go).
	Probe Probe
}

func (c *Config) defaults() {
	if c.Agents <= 0 {
		c.Agents = 16
	}
	if c.PerHost <= 0 {
		c.PerHost = politeness.DefaultPerHost
	}
	if c.Timeout <= 0 {
		c.Timeout = 20 * time.Second
	}
	if c.MaxBody <= 0 {
		c.MaxBody = fetch.DefaultMaxBody
	}
	if c.Retries < 0 {
		c.Retries = 0
	} else if c.Retries == 0 {
		c.Retries = 2
	}
	if c.MaxRetryAfter <= 0 {
		c.MaxRetryAfter = 2 * time.Minute
	}
	if c.RobotsTTL <= 0 {
		c.RobotsTTL = robots.DefaultTTL
	}
	if c.Dead.Checks <= 0 {
		c.Dead = DefaultDeadPolicy
	}
}

// Store is everything a run needs of the workspace; *store.Store satisfies it.
type Store interface {
	CheckStore
	robots.Store
}

// Request is what one run checks: tasks, and links given one by one.
type Request struct {
	Tasks []Task
	URLs  []string
	// Library lists the pointers of library tasks; nil makes library tasks fail.
	Library LibrarySource
}

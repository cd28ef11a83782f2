package frontier

import "mundaneum/backend/rules"

// Strategy orders a crawl's queue: it gives each page entering the queue its priority.
// The queue hands out higher priorities first, and within a priority the shallower and
// then the earlier found (breadth-first); the in-memory frontier keeps that order across
// hosts as politeness allows.
type Strategy interface {
	Name() string
	Priority(l Link) int
}

// Link is what a strategy knows of a page entering the queue.
type Link struct {
	URL     string
	Anchor  string
	Depth   int
	Seed    bool
	NewHost bool        // the first page queued on its host in this crawl
	Value   rules.Value // what the crawl's rules made of it (Next without rules)
}

// ServerFirst is WebCrawler's server-first breadth-first order: the seeds, then the first
// page of every newly found host (so that every server is reached early and the load
// spreads), then everything else by depth.
type ServerFirst struct{}

// Name implements Strategy.
func (ServerFirst) Name() string { return "server-first" }

// Priority implements Strategy.
func (ServerFirst) Priority(l Link) int {
	switch {
	case l.Seed:
		return 2
	case l.NewHost:
		return 1
	}
	return 0
}

// Tiers is the webbot's order: the rule categories make tiers, imperative (first) before
// directional (next) before last resort (last), which is taken only when nothing of the
// tiers above is left; server-first breadth-first within a tier. Rejected pages never
// enter the queue.
type Tiers struct{}

// Name implements Strategy.
func (Tiers) Name() string { return "rule-tiers" }

// Priority implements Strategy.
func (Tiers) Priority(l Link) int {
	if l.Seed {
		return 8
	}
	rank := 2 // next, and untested pages wait in the tier they would get
	switch l.Value {
	case rules.First:
		rank = 3
	case rules.Last:
		rank = 1
	}
	p := rank * 2
	if l.NewHost {
		p++
	}
	return p
}

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
	// For the query-directed order (Toward): the text around the link on its page, and
	// how well that page itself matched the query (0 to 1).
	Context string
	Page    float64
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

// Toward is WebCrawler's real-time search: a best-first order in which a page is worth
// what the link to it promises for a query. Its anchor text counts most (WebCrawler
// followed "the anchor text most like the query"), then the text around the link, then how
// well the page the link is on matched the query (a page on the topic links to more of it).
// With rules (Tiers), their categories still come first and the query orders each tier.
// The queue is persisted with these priorities, so a resumed crawl keeps its order; and as
// the frontier hands out the best page of a host that politeness lets go now, the best link
// on a busy host does not hold the others back.
type Toward struct {
	Match func(text string) float64 // how well a text matches the query, 0 to 1
	Tiers bool                      // order by the rules' tiers first
}

// Weights of Toward's score, and the priority range it maps to.
const (
	towardAnchor  = 0.6
	towardContext = 0.25
	towardPage    = 0.15
	// TowardScale is the priority of a link that matches fully: scores map to 1..TowardScale+1.
	TowardScale = 1000
)

// Name implements Strategy.
func (Toward) Name() string { return "toward" }

// Priority implements Strategy.
func (t Toward) Priority(l Link) int {
	p := 1 + int(TowardScale*t.Score(l)+0.5)
	if t.Tiers {
		p += Tiers{}.Priority(l) * (TowardScale + 2)
	} else if l.Seed {
		p = TowardScale + 2
	}
	return p
}

// Score is how much a link promises for the query, 0 to 1.
func (t Toward) Score(l Link) float64 {
	if t.Match == nil {
		return 0
	}
	s := towardAnchor*t.Match(l.Anchor) + towardPage*min(max(l.Page, 0), 1)
	if l.Context != "" {
		s += towardContext * t.Match(l.Context)
	}
	return min(s, 1)
}

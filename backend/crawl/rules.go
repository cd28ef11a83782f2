package crawl

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"mundaneum/backend/frontier"
	"mundaneum/backend/highlight"
	"mundaneum/backend/rules"
	"mundaneum/backend/store"
)

// ReasonRule is the skip reason of pages the crawl's rules reject (or whose citing page
// they rejected after reading it).
const ReasonRule = "rule"

// strategyFor picks the order of a crawl's queue, here and nowhere else. Toward a query,
// WebCrawler's real-time search: best first by how well a link matches the query (within
// the rules' tiers when there are rules). With rules, the webbot's tiers: their categories
// are the order the user asked for (imperative pages first, last-resort pages only when
// nothing else is left). Otherwise WebCrawler's server-first breadth-first order, which
// reaches every server early and spreads the load.
func strategyFor(set *rules.Set, toward string) frontier.Strategy {
	if m := highlight.NewMatcher(toward); !m.Empty() {
		return frontier.Toward{Match: m.Score, Tiers: !set.Empty()}
	}
	if !set.Empty() {
		return frontier.Tiers{}
	}
	return frontier.ServerFirst{}
}

// parseRules reads the crawl's rule text; its errors say where (line:column).
func parseRules(text string) (*rules.Set, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	set, err := rules.Parse(text)
	if err != nil {
		return nil, fmt.Errorf("%w: rules: %w", ErrConfig, err)
	}
	return set, nil
}

// linkDecision applies the rules to a link before its page is fetched: the URL, the anchor
// text and the depth are known; rules on the page's fields leave the decision open
// (rules.Untested, with the tier it would get as Potential). Without rules every link in
// scope is next.
func (c *Crawler) linkDecision(it frontier.Item, u *url.URL, anchor string, depth int) (rules.Decision, uint64) {
	if c.rules.Empty() {
		return rules.Decision{Value: rules.Next, Potential: rules.Next}, 0
	}
	below := c.rules.Enter(&rules.Element{URL: it.URL, Depth: it.Depth}, it.Local)
	return c.rules.Decide(&rules.Element{URL: u.String(), Anchor: anchor, Depth: depth}, below), below
}

// pageDecision completes, once the page is read, a decision that waited for its fields;
// it returns the element's category. A page the rules reject keeps its record but its
// links are not followed.
func (c *Crawler) pageDecision(ctx context.Context, it frontier.Item, r *store.Result) rules.Value {
	v := rules.Value(it.Category)
	if v != rules.Untested || c.rules.Empty() {
		return v
	}
	e := &rules.Element{URL: it.URL, Anchor: it.Anchor, Depth: it.Depth, Fetched: true, Status: r.Status,
		Type: r.ContentType, Date: r.LastModified}
	if d := r.Doc; d != nil {
		e.Title, e.Body = d.Title, d.Text
		e.Head = rules.Head(d.Title, d.Description, d.Keywords, d.Author)
	} else if r.State == store.StateFetched {
		// Unchanged since the last visit: read what is stored.
		if p, err := c.st.Page(ctx, it.PageID); err == nil {
			e.Title, e.Type, e.Date = p.Title, p.ContentType, p.LastModified
			e.Head = rules.Head(p.Title, p.Description, p.Keywords, p.Author)
		}
		if t, err := c.st.Text(ctx, it.PageID); err == nil {
			e.Body = t.Body
		}
	}
	return c.rules.Decide(e, it.Local).Value
}

// element finishes a visit's result for the webbot's model: it numbers the page's document
// links (their family indexes), applies the page's own decision, and records the element.
func (c *Crawler) element(ctx context.Context, it frontier.Item, r *store.Result) {
	v := rules.Value(it.Category)
	if r.State == store.StateFetched || r.State == store.StateRedirected {
		v = c.pageDecision(ctx, it, r)
	}
	followed := (r.State == store.StateFetched || r.State == store.StateRedirected) && v.Followed() &&
		(r.Doc == nil || !r.Doc.NoFollow)
	if v == rules.Rejected {
		for i := range r.Links {
			if t := &r.Links[i]; t.Follow {
				t.Follow, t.Skip = false, ReasonRule
			}
		}
	}
	parent, _ := rules.DecodeFamily(it.Family)
	pos := 0
	for i := range r.Links {
		t := &r.Links[i]
		t.Pos = i + 1 // document order, kept with the links
		if !followKinds[t.Kind] {
			continue
		}
		pos++
		if it.Family != nil {
			t.Family = parent.Child(pos).Encode()
		}
	}
	if it.Family != nil {
		r.Element = &store.Element{Family: it.Family, Category: uint8(v), Followed: followed}
	}
}

// topPriority is the highest priority among the links a result puts in the queue.
func topPriority(r *store.Result) int {
	top := 0
	for _, t := range r.Links {
		if t.Follow && t.Priority > top {
			top = t.Priority
		}
	}
	return top
}

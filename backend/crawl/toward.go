package crawl

import (
	"context"
	"strings"

	"mundaneum/backend/frontier"
)

// nearLinks is what a query-directed crawl (frontier.Toward) knows of the page whose links
// it scores: the page's own score, and its text, in which each link's anchor is looked for
// to take the words around it.
type nearLinks struct {
	text   string
	cursor int     // links come in document order: look for the next anchor from here
	page   float64 // how well the page matched the query
}

// contextBytes is how much text either side of an anchor counts as its context; an anchor
// is looked for within searchBytes after the previous one (then before it), so that a page
// of many links costs a bounded scan per link.
const (
	contextBytes = 160
	searchBytes  = 16 << 10
)

// nearLinks returns the scoring state of a page for a query-directed crawl (nil otherwise).
func (c *Crawler) nearLinks(title, text string) *nearLinks {
	t, ok := c.strategy.(frontier.Toward)
	if !ok || t.Match == nil {
		return nil
	}
	return &nearLinks{text: text, page: t.Match(title + " \n" + text)}
}

// storedNear is nearLinks for a page visited from the store (unchanged since the last visit).
func (c *Crawler) storedNear(ctx context.Context, it frontier.Item) *nearLinks {
	if _, ok := c.strategy.(frontier.Toward); !ok {
		return nil
	}
	var title, body string
	if p, err := c.st.Page(ctx, it.PageID); err == nil {
		title = p.Title
	}
	if t, err := c.st.Text(ctx, it.PageID); err == nil {
		body = t.Body
	}
	return c.nearLinks(title, body)
}

// around returns the text around an anchor: its next occurrence in the page's text (after
// where the previous anchor was found, else shortly before), less the anchor itself.
func (n *nearLinks) around(anchor string) string {
	if n == nil || anchor == "" || n.text == "" {
		return ""
	}
	i := strings.Index(n.text[n.cursor:min(len(n.text), n.cursor+searchBytes)], anchor)
	if i >= 0 {
		i += n.cursor
	} else {
		lo := max(0, n.cursor-searchBytes)
		if i = strings.Index(n.text[lo:n.cursor], anchor); i < 0 {
			return ""
		}
		i += lo
	}
	end := i + len(anchor)
	n.cursor = end
	lo, hi := max(0, i-contextBytes), min(len(n.text), end+contextBytes)
	return n.text[lo:i] + " " + n.text[end:hi]
}

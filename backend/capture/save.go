package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode"

	"mundaneum/backend/crawl"
	"mundaneum/backend/library"
	"mundaneum/backend/sanitize"
	"mundaneum/backend/store"
	"mundaneum/backend/summary"
	"mundaneum/backend/urlnorm"
)

// CrawlKey names the crawl record the pages saved from a browser join: one per workspace,
// made at the first save. Its pages are a crawl like any other (search crawl:N narrows to
// them, the Crawls view lists them); its links are recorded and not followed.
const CrawlKey = "browser captures"

// Page is a page as the browser shows it.
type Page struct {
	URL   string // the tab's address (http or https)
	Title string // the document's title as the browser has it
	DOM   string // the rendered document, serialised (document.documentElement.outerHTML)
}

// Saved says what saving a page did.
type Saved struct {
	PageID  int64
	CrawlID int64
	Title   string // the title stored (as extracted from what was kept)
	Changed bool   // a new version: the stored content was not this one already
	Bytes   int    // the size of what was stored, after the sanitiser
}

// Saver stores pages as a browser shows them. It is safe for concurrent use; one per
// workspace.
type Saver struct {
	st Store

	mu      sync.Mutex // makes the crawl record once
	crawlID int64
}

// NewSaver returns a Saver over a workspace.
func NewSaver(st Store) *Saver { return &Saver{st: st} }

// Save sanitises p's DOM and stores it as the newest version of its page (at the time at),
// as a crawl stores a fetched page: body in the object cache, text for the index (which
// picks it up in the background), links recorded. The same content again only confirms
// the stored version.
func (s *Saver) Save(ctx context.Context, p Page, at time.Time) (Saved, error) {
	u, err := pageURL(p.URL)
	if err != nil {
		return Saved{}, err
	}
	switch {
	case len(p.DOM) > MaxDOM:
		return Saved{}, fmt.Errorf("%w: the page is %d bytes, more than the %d MiB a saved page may have", ErrTooLarge, len(p.DOM), MaxDOM>>20)
	case strings.TrimSpace(p.DOM) == "":
		return Saved{}, invalid("the page's document is empty")
	}
	title := clipText(cleanLine(p.Title), library.MaxTitle*4)
	body := sanitize.Capture([]byte(p.DOM), u, title)
	crawlID, err := s.crawl(ctx)
	if err != nil {
		return Saved{}, err
	}
	key := u.String()
	prev := ""
	if id, err := s.st.PageID(ctx, key); err == nil {
		if pg, err := s.st.Page(ctx, id); err == nil {
			prev = pg.Hash
		}
	}
	r := &store.Result{URL: key, CrawlID: crawlID, FetchedAt: at.UnixMilli()}
	h := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	sum, found, err := crawl.Summarize(ctx, r, u, http.StatusOK, h, "text/html", body, summary.Budget{}, nil)
	if err != nil {
		return Saved{}, fmt.Errorf("summarise %s: %w", key, err)
	}
	// No response header was received: the version says so by having none.
	r.Header = ""
	r.Links = make([]store.Target, 0, len(found))
	for i, l := range found {
		t := store.Target{URL: l.URL.String(), Origin: urlnorm.Origin(l.URL), Kind: l.Kind, Anchor: l.Anchor,
			Rel: l.Rel, Skip: crawl.ReasonScope, Pos: i + 1}
		if !crawl.LooksLikePage(l.URL) {
			t.Skip, t.Resource = crawl.ReasonType, true
		}
		r.Links = append(r.Links, t)
	}
	out, err := s.st.ImportResult(ctx, r, store.Target{URL: key, Origin: urlnorm.Origin(u), Kind: "seed"}, false)
	if err != nil {
		return Saved{}, err
	}
	if err := s.st.Writer().Flush(ctx); err != nil {
		return Saved{}, err
	}
	return Saved{PageID: out.PageID, CrawlID: crawlID, Title: sum.Title, Changed: prev != r.Hash, Bytes: len(body)}, nil
}

// crawl returns the id of the captures' crawl record, making it the first time.
func (s *Saver) crawl(ctx context.Context) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.crawlID != 0 {
		return s.crawlID, nil
	}
	c, err := s.st.FindCrawl(ctx, CrawlKey)
	if errors.Is(err, store.ErrNotFound) {
		cfg, _ := json.Marshal(map[string]any{"import": map[string]string{"format": "browser"}})
		if c, err = s.st.CreateCrawl(ctx, CrawlKey, []string{}, store.ScopeImport, cfg); err == nil {
			err = s.st.FinishRun(ctx, c.ID, store.CrawlDone, "", "pages saved from the browser as they were shown")
		}
	}
	if err != nil {
		return 0, fmt.Errorf("the captures' crawl record: %w", err)
	}
	s.crawlID = c.ID
	return c.ID, nil
}

// pageURL checks that raw is an http(s) address a page can be stored under.
func pageURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	switch {
	case raw == "":
		return nil, invalid("no address")
	case len(raw) > urlnorm.MaxLength:
		return nil, invalid("an address longer than %d bytes", urlnorm.MaxLength)
	case strings.ContainsFunc(raw, unicode.IsControl):
		return nil, invalid("an address with control characters")
	}
	u, err := urlnorm.Parse(raw)
	if err != nil {
		return nil, invalid("%q is not an http or https address", clipText(raw, 80))
	}
	return u, nil
}

// cleanLine makes s one line: runs of white space become one space, control characters go.
func cleanLine(s string) string {
	return strings.Join(strings.FieldsFunc(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && !unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s), unicode.IsSpace), " ")
}

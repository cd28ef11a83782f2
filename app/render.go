package app

import (
	"context"
	"encoding/base64"

	"mundaneum/backend/crawl"
	"mundaneum/backend/store"
)

// PageRender is how a page's HTML was read: rendered in a browser after its scripts ran,
// or as served (static, or a shell that was not rendered), and why.
type PageRender struct {
	State  string `json:"state"`  // rendered | static | shell
	Why    string `json:"why"`    // always, shell, auto, never, no-browser, timeout, crashed, memory, ...
	Signal string `json:"signal"` // the shell detector's signal: empty-root, noscript, script-links, little-text, hash-route
	Detail string `json:"detail"` // the figures and notes, in words
	Text   string `json:"text"`   // "rendered because …", "not rendered (…)", "static HTML …"
}

// ScreenshotInfo describes a screenshot of a rendered version (Screenshot gives its image).
type ScreenshotInfo struct {
	VersionID int64  `json:"versionId"`
	Kind      string `json:"kind"` // viewport | full
	Width     int    `json:"width"`
	Height    int    `json:"height"`
	Bytes     int64  `json:"bytes"`
	TakenAt   string `json:"takenAt"` // its version's time
}

// Screenshot is a screenshot's image as a data: URL (WebP), for an <img>.
type Screenshot struct {
	VersionID int64  `json:"versionId"`
	Kind      string `json:"kind"`
	Width     int    `json:"width"`
	Height    int    `json:"height"`
	DataURL   string `json:"dataUrl"`
}

// addRender adds to a page view how its HTML was read and its screenshots.
func addRender(ctx context.Context, st *store.Store, p *Page) error {
	rd, err := st.PageRender(ctx, p.ID)
	if err != nil {
		return err
	}
	if rd.State != "" {
		p.Render = &PageRender{State: rd.State, Why: rd.Why, Signal: rd.Signal, Detail: rd.Detail, Text: crawl.RenderText(rd)}
	}
	shots, err := st.PageScreenshots(ctx, p.ID)
	if err != nil {
		return err
	}
	for _, s := range shots {
		p.Screenshots = append(p.Screenshots, ScreenshotInfo{VersionID: s.VersionID, Kind: s.Kind, Width: s.Width,
			Height: s.Height, Bytes: s.Bytes, TakenAt: rfc3339(s.FetchedAt)})
	}
	return nil
}

// Screenshot returns a screenshot of a rendered version (kind: viewport or full). It is
// the browser's picture of the page, shown as an image: nothing in it runs.
func (a *App) Screenshot(versionID int64, kind string) (Screenshot, error) {
	s, err := a.ws().st.VersionScreenshot(context.Background(), versionID, kind)
	if err != nil {
		return Screenshot{}, apiError(err)
	}
	return screenshotDTO(s), nil
}

func screenshotDTO(s store.Screenshot) Screenshot {
	mime := "image/webp"
	if s.Format == "png" || s.Format == "jpeg" {
		mime = "image/" + s.Format
	}
	return Screenshot{VersionID: s.VersionID, Kind: s.Kind, Width: s.Width, Height: s.Height,
		DataURL: "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(s.Data)}
}

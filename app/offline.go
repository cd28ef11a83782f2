package app

import (
	"context"
	"strings"

	"mundaneum/backend/extract"
	"mundaneum/backend/offline"
	"mundaneum/backend/urlnorm"
)

// TextBlock is a block of a copy's text: a heading, a paragraph, a list item, preformatted
// code, a quotation, a definition list's term or definition, or a table row (Cells).
type TextBlock struct {
	Kind   string   `json:"kind"` // heading, p, li, pre, quote, dt, dd, row
	Text   string   `json:"text"`
	Level  int      `json:"level,omitempty"`  // a heading's, 1-6
	Depth  int      `json:"depth,omitempty"`  // a list item's nesting, from 1
	Marker string   `json:"marker,omitempty"` // a list item's bullet or number ("" for its next paragraphs)
	Cells  []string `json:"cells,omitempty"`
	Head   bool     `json:"head,omitempty"` // a row of header cells
}

// CopyAssets is what a copy shows of its page's stored requisites.
type CopyAssets struct {
	Shown   int   `json:"shown"`
	Missing int   `json:"missing"`
	Bytes   int64 `json:"bytes"`
}

func blocksDTO(bs []extract.Block) []TextBlock {
	out := make([]TextBlock, 0, len(bs))
	for _, b := range bs {
		out = append(out, TextBlock{Kind: b.Kind, Text: b.Text, Level: b.Level, Depth: b.Depth, Marker: b.Marker,
			Cells: b.Cells, Head: b.Head})
	}
	return out
}

// readable fills c's document, blocks and assets from the stored content src (an HTML or
// text page; its links open what the workspace holds).
func (a *App) readable(ctx context.Context, c *OfflineCopy, src offline.Source) error {
	oc, err := offline.Make(ctx, a.ws().st, src)
	if err != nil {
		return apiError(err)
	}
	c.Document, c.Blocks = oc.Document, blocksDTO(oc.Blocks)
	c.Assets = CopyAssets{Shown: oc.Assets.Shown, Missing: oc.Assets.Missing, Bytes: oc.Assets.Bytes}
	c.AsPage = offline.IsHTML(src.ContentType)
	c.Replay = src.Replay
	return nil
}

// LinkInfo is what the workspace holds of an address.
type LinkInfo struct {
	URL   string `json:"url"`   // canonical
	Page  int64  `json:"page"`  // the page whose stored copy a link to it opens (0: none)
	Known int64  `json:"known"` // its own page, when known without a copy
}

// LinkTarget says what the workspace holds of an http(s) address: the page a link to it
// opens in place (through the redirects the crawl recorded), if any.
func (a *App) LinkTarget(raw string) (LinkInfo, error) {
	u, err := urlnorm.Normalize(strings.TrimSpace(raw))
	if err != nil {
		return LinkInfo{}, &Error{Code: CodeInvalid, Message: err.Error()}
	}
	t, err := a.ws().st.LinkTarget(context.Background(), u)
	if err != nil {
		return LinkInfo{}, apiError(err)
	}
	return LinkInfo{URL: u, Page: t.Page, Known: t.Known}, nil
}

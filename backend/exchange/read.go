package exchange

import (
	"context"
	"strings"

	"mundaneum/backend/exchange/record"
	"mundaneum/backend/formats/soif"
)

// Cursor is where a stream of summaries stands: Seq is the summary log's (see migration
// 0024), Time the Update-Time of the last summary, for people.
type Cursor struct {
	Seq  int64 `json:"seq"`
	Time int64 `json:"time"` // unix ms
}

// row is a summary read, with its place in the log.
type row struct {
	seq int64
	sum Summary
}

// next reads up to sel.Limit summaries after sel.After, in log order.
func next(ctx context.Context, st SummaryStore, sel record.Selection) ([]row, error) {
	ms, err := st.ExchangeSummaries(ctx, sel)
	if err != nil {
		return nil, err
	}
	out := make([]row, len(ms))
	for i := range ms {
		out[i] = row{seq: ms[i].Seq, sum: summaryOf(&ms[i])}
	}
	return out, nil
}

// summaryOf is the summary a page's record makes.
func summaryOf(m *record.Summary) Summary {
	s := Summary{URL: m.URL, ContentType: m.ContentType, Title: m.Title, Description: m.Description,
		Keywords: m.Keywords, Author: m.Author, Lang: m.Lang, Headings: m.Headings, Text: m.Text, Size: m.Size,
		Hash: m.Hash, LastModified: m.LastModified, UpdatedAt: m.UpdatedAt, Summariser: m.Summariser}
	if s.Title == "" {
		s.Title = m.TextTitle
	}
	// The summariser's own attributes (a PDF's pages, a feed's entries...). Those SOIF has a
	// name of its own for (title, author, keywords) travel under that name already.
	for _, a := range m.Attrs {
		if !known[strings.ToLower(a.Name)] {
			s.Attrs = append(s.Attrs, soif.Attr{Name: a.Name, Value: []byte(a.Value)})
		}
	}
	seen := map[string]bool{}
	for _, l := range m.Links {
		if !seen[l.URL] {
			seen[l.URL] = true
			s.Links = append(s.Links, Link(l))
		}
	}
	return s
}

package report

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// WriteCSV writes one row per reference of every document: the document, the kind of
// reference, the referenced URL and what its test found. Cells that a spreadsheet would
// take for a formula (starting with = + - @, tab or carriage return) are prefixed with a
// quote: titles and URLs come from crawled pages.
func WriteCSV(w io.Writer, m *Model) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	cw := csv.NewWriter(bw)
	row := []string{"document", "document_title", "kind", "url", "tested", "verdict", "status", "final_url",
		"reason", "dead", "title", "last_modified", "expires", "is_document"}
	if err := cw.Write(row); err != nil {
		return err
	}
	for _, d := range m.Docs {
		doc := &m.Links[d.Link]
		for _, r := range d.Refs {
			l := &m.Links[r.Link]
			row = append(row[:0], doc.URL, doc.Title, kindLabel(r.Kind, l.URL), l.URL, strconv.FormatBool(l.Tested),
				l.Verdict, status(l.Status), l.FinalURL, l.Reason, strconv.FormatBool(l.Dead), l.Title, l.LastModified,
				l.Expires, strconv.FormatBool(l.Doc >= 0))
			for i := range row {
				row[i] = cell(row[i])
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write CSV report: %w", err)
	}
	return bw.Flush()
}

func status(s int) string {
	if s == 0 {
		return ""
	}
	return strconv.Itoa(s)
}

// cell defuses a value a spreadsheet would evaluate.
func cell(s string) string {
	if s != "" {
		switch s[0] {
		case '=', '+', '-', '@', '\t', '\r':
			return "'" + s
		}
	}
	return s
}

// WriteJSON writes the whole report as JSON (HTML-sensitive characters escaped, as
// encoding/json does).
func WriteJSON(w io.Writer, m *Model) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetIndent("", " ")
	if err := enc.Encode(m.listed()); err != nil {
		return fmt.Errorf("write JSON report: %w", err)
	}
	return bw.Flush()
}

// listed is a shallow copy of m whose lists are never null in JSON: an empty report still
// has a list of links and of documents, and an empty count of verdicts.
func (m *Model) listed() *Model {
	c := *m
	if c.Links == nil {
		c.Links = []Link{}
	}
	if c.Docs == nil {
		c.Docs = []Doc{}
	}
	if c.Options == nil {
		c.Options = []Option{}
	}
	if c.Counts.Verdicts == nil {
		c.Counts.Verdicts = map[string]int{}
	}
	copied := false
	for i := range c.Docs {
		if c.Docs[i].Refs == nil {
			if !copied {
				c.Docs, copied = append([]Doc(nil), c.Docs...), true // m stays as it was
			}
			c.Docs[i].Refs = []Ref{}
		}
	}
	return &c
}

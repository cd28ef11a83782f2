package app

import (
	"slices"

	"mundaneum/backend/summary"
)

// DocumentType is a type of document a crawl may download, for the crawl form.
type DocumentType struct {
	Type        string `json:"type"`        // the name a crawl lists: pdf, feed, zip...
	Summariser  string `json:"summariser"`  // the summariser that reads it
	Description string `json:"description"` // what it is, for people
	Default     bool   `json:"default"`     // on unless the crawl says otherwise
	Always      bool   `json:"always"`      // HTML: always on, a crawl follows pages
}

var typeDescriptions = map[string]string{
	"html": "web pages", "txt": "plain text", "pdf": "PDF papers, reports and manuals",
	"md": "Markdown", "feed": "RSS and Atom feeds (entries become links)",
	"gz": "gzip-compressed files", "zip": "zip archives (listing and text members)",
	"tar": "tar archives (listing and text members)",
}

// DocumentTypes lists the document types a crawl can download and summarise.
func (a *App) DocumentTypes() (result []DocumentType) {
	defer lists(&result)
	var out []DocumentType
	for _, t := range summary.AllTypes() {
		d := DocumentType{Type: t, Description: typeDescriptions[t], Default: slices.Contains(summary.DefaultTypes, t),
			Always: t == "html"}
		for _, k := range summary.Kinds() {
			if k.Type == t {
				d.Summariser = k.Name
			}
		}
		out = append(out, d)
	}
	return out
}

// Package sitemap reads sitemaps (sitemaps.org protocol 0.9): XML url sets, sitemap
// indexes and plain-text lists of URLs, gzip-compressed or not, as Screaming Frog and YaCy
// read them to seed a crawl. A sitemap is hostile input like any page: its size, the URLs it
// yields and the length of each are bounded, and what is not an absolute http(s) URL is
// counted and left out.
package sitemap

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"mundaneum/backend/urlnorm"
)

// Limits, from the protocol: at most 50,000 URLs and 50 MB (uncompressed) per file, and
// URLs shorter than 2,048 characters.
const (
	MaxURLs   = 50_000
	MaxSize   = 50 << 20
	MaxURLLen = 2048
)

// ErrNotSitemap means the document is neither an XML sitemap nor a list of URLs.
var ErrNotSitemap = errors.New("not a sitemap")

// Sitemap is what one sitemap file lists.
type Sitemap struct {
	// Index is true for a sitemap index: URLs are other sitemaps.
	Index bool
	// URLs are the locations listed, normalised (urlnorm), without duplicates, in order.
	URLs []string
	// Invalid counts the locations left out: not absolute http(s) URLs, or too long.
	Invalid int
	// Truncated is true when the file listed more than MaxURLs URLs or was larger than
	// MaxSize once decompressed: only the first ones are in URLs.
	Truncated bool
}

// Parse reads a sitemap: XML (<urlset> or <sitemapindex>) or a plain-text list of URLs,
// one a line, either of them gzip-compressed (a .xml.gz file served as it is).
func Parse(body []byte) (*Sitemap, error) {
	sm := &Sitemap{}
	if len(body) >= 2 && body[0] == 0x1f && body[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, fmt.Errorf("sitemap: gzip: %w", err)
		}
		plain, err := io.ReadAll(io.LimitReader(zr, MaxSize+1))
		if err != nil && len(plain) == 0 {
			return nil, fmt.Errorf("sitemap: gzip: %w", err)
		}
		body = plain
	}
	if len(body) > MaxSize {
		body, sm.Truncated = body[:MaxSize], true
	}
	body = bytes.TrimPrefix(body, []byte("\xEF\xBB\xBF"))
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '<' {
		return sm, sm.readXML(body)
	}
	return sm, sm.readText(body)
}

// add records one location.
func (sm *Sitemap) add(loc string, seen map[string]bool) {
	loc = strings.TrimSpace(loc)
	if loc == "" {
		return
	}
	if len(sm.URLs) >= MaxURLs {
		sm.Truncated = true
		return
	}
	if len(loc) > MaxURLLen || !utf8.ValidString(loc) {
		sm.Invalid++
		return
	}
	u, err := urlnorm.Parse(loc)
	if err != nil {
		sm.Invalid++
		return
	}
	s := u.String()
	if !seen[s] {
		seen[s] = true
		sm.URLs = append(sm.URLs, s)
	}
}

// readXML reads <urlset><url><loc> or <sitemapindex><sitemap><loc>, in any namespace.
func (sm *Sitemap) readXML(body []byte) error {
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = false
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil } // locations are ASCII
	seen := map[string]bool{}
	root := ""
	var stack []string
	var loc strings.Builder
	inLoc := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			if root == "" {
				return fmt.Errorf("sitemap: %w: %w", ErrNotSitemap, err)
			}
			sm.Truncated = true // broken XML: keep what came before the break
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := strings.ToLower(t.Name.Local)
			if root == "" {
				switch name {
				case "urlset":
				case "sitemapindex":
					sm.Index = true
				default:
					return fmt.Errorf("sitemap: %w: the root element is <%s>", ErrNotSitemap, clip(name))
				}
				root = name
			}
			if len(stack) < 16 {
				stack = append(stack, name)
			} else {
				stack = append(stack, "")
			}
			if name == "loc" && len(stack) == 3 && (stack[1] == "url" || stack[1] == "sitemap") {
				inLoc = true
				loc.Reset()
			}
		case xml.CharData:
			if inLoc && loc.Len() <= MaxURLLen {
				loc.Write(t)
			}
		case xml.EndElement:
			if inLoc && strings.EqualFold(t.Name.Local, "loc") {
				inLoc = false
				sm.add(loc.String(), seen)
				if sm.Truncated {
					return nil
				}
			}
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if root == "" {
		return fmt.Errorf("sitemap: %w: no root element", ErrNotSitemap)
	}
	return nil
}

// readText reads a plain-text sitemap: one URL a line; any other line makes it not one.
func (sm *Sitemap) readText(body []byte) error {
	seen := map[string]bool{}
	lines := 0
	for len(body) > 0 {
		var line []byte
		if i := bytes.IndexAny(body, "\r\n"); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			line, body = body, nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		lines++
		l := strings.ToLower(string(line[:min(len(line), 8)]))
		if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") {
			return fmt.Errorf("sitemap: %w: line %d is not a URL", ErrNotSitemap, lines)
		}
		sm.add(string(line), seen)
		if sm.Truncated {
			return nil
		}
	}
	if lines == 0 {
		return fmt.Errorf("sitemap: %w: empty", ErrNotSitemap)
	}
	return nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

package query

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/idna"
)

// Family is a type family: the media types and file extensions that make it up.
type Family struct {
	Name  string
	Media []string // media type patterns (GLOB, lower case)
	Exts  []string
}

// Families are the values of type: besides extensions and media types. Order matters for
// search's typeOf: the first family whose media type or extension matches names a resource.
var Families = []Family{
	{"html", []string{"text/html*", "application/xhtml*"}, []string{"html", "htm", "xhtml", "shtml"}},
	{"pdf", []string{"application/pdf*"}, []string{"pdf"}},
	{"image", []string{"image/*"}, []string{"jpg", "jpeg", "png", "gif", "webp", "svg", "bmp", "ico", "tif", "tiff", "avif", "heic", "xbm", "jp2"}},
	{"video", []string{"video/*"}, []string{"mpg", "mpeg", "mp4", "m4v", "mov", "avi", "mkv", "webm", "wmv", "flv", "ogv", "3gp", "qt"}},
	{"audio", []string{"audio/*"}, []string{"mp3", "wav", "ogg", "oga", "opus", "flac", "m4a", "aac", "mid", "midi", "au", "aif", "aiff", "ra"}},
	{"archive", []string{"application/zip*", "application/x-tar*", "application/gzip*", "application/x-gzip*",
		"application/x-bzip2*", "application/x-xz*", "application/x-7z*", "application/vnd.rar*", "application/x-rar*"},
		[]string{"zip", "tar", "gz", "tgz", "bz2", "tbz", "xz", "txz", "7z", "rar", "z", "zst", "jar", "iso", "deb", "rpm"}},
	{"document", []string{"application/msword*", "application/vnd.openxmlformats*", "application/vnd.oasis*",
		"application/rtf*", "application/postscript*", "application/vnd.ms-*", "text/rtf*"},
		[]string{"doc", "docx", "odt", "rtf", "xls", "xlsx", "ods", "ppt", "pptx", "odp", "ps", "eps", "dvi", "tex", "epub"}},
	{"data", []string{"application/json*", "application/xml*", "text/xml*", "text/csv*", "application/rss*", "application/atom*"},
		[]string{"json", "xml", "csv", "tsv", "rss", "atom", "rdf"}},
	{"text", []string{"text/*"}, []string{"txt", "text", "md", "asc"}},
}

// FamilyNamed returns the family called name, or nil.
func FamilyNamed(name string) *Family {
	for i := range Families {
		if Families[i].Name == name {
			return &Families[i]
		}
	}
	return nil
}

// The library's limits, as backend/library has them (a test of search checks they agree;
// search checks a folder's path further with the library's own parser).
const (
	MaxTag  = 100  // characters of a tag
	maxPath = 8192 // bytes of a library path
)

// IsMediaType reports whether v (lower case) reads as a media type like image/png or image/*.
func IsMediaType(v string) bool { return reMedia.MatchString(v) }

var (
	reExt     = regexp.MustCompile(`^[a-z0-9]{1,12}$`)
	reMedia   = regexp.MustCompile(`^[a-z0-9][a-z0-9.+-]*/[a-z0-9.+*-]+$`)
	reLang    = regexp.MustCompile(`^[a-z]{2,3}(-[a-z0-9]{1,8})*$`)
	reHost    = regexp.MustCompile(`^[a-z0-9_-]+(\.[a-z0-9_-]+)*(:[0-9]{1,5})?$`)
	reNxx     = regexp.MustCompile(`^[1-5]xx$`)
	reProblem = regexp.MustCompile(`^[a-z][a-z-]{0,39}$`)
)

// isValues are the values of is:, with their spellings.
var isValues = map[string]string{
	"broken": "broken", "dead": "broken",
	"redirect": "redirect", "redirected": "redirect", "moved": "redirect",
	"failed": "failed", "error": "failed",
	"ok": "ok", "fetched": "ok",
	"resource": "resource", "link": "resource", "linked": "resource",
	"blocked": "blocked",
}

// filter validates and normalises a filter's value; a bad value leaves the filter out, with
// a note saying what was expected.
func filter(name, v string, n *Notes) Node {
	bad := func(want string) Node {
		n.Add(name + ":" + Clip(v, 30) + " was left out: " + want)
		return nil
	}
	lv := strings.ToLower(v)
	switch name {
	case "site", "host":
		h := siteHost(v)
		if h == "" {
			return bad("it takes a host name like example.com or fi")
		}
		return &Filter{Field: name, Value: h}
	case "ext":
		e := strings.TrimPrefix(strings.TrimPrefix(lv, "*"), ".")
		if !reExt.MatchString(e) {
			return bad("it takes a file extension like pdf or mpg")
		}
		return &Filter{Field: name, Value: e}
	case "type":
		switch {
		case FamilyNamed(lv) != nil:
			return &Filter{Field: name, Value: lv}
		case reMedia.MatchString(lv):
			return &Filter{Field: name, Value: lv}
		case reExt.MatchString(strings.TrimPrefix(lv, ".")):
			return &Filter{Field: "ext", Value: strings.TrimPrefix(lv, ".")}
		}
		return bad("it takes html, pdf, image, video, audio, archive, document, data, text, a media type or an extension")
	case "inlinks", "linkto":
		if v == "" || len(v) > 2000 {
			return bad("it takes a URL")
		}
		return &Filter{Field: name, Value: v}
	case "before", "after":
		d, ok := parseDate(v)
		if !ok {
			return bad("it takes a date: YYYY, YYYY-MM or YYYY-MM-DD")
		}
		return &Filter{Field: name, Value: d}
	case "changed", "fetched":
		// A comparison and a day, a month or a year: >2026-01-01, <2026-03, 2025.
		rest := strings.TrimLeft(v, "<>=")
		op := v[:len(v)-len(rest)]
		if op == "=" {
			op = ""
		}
		for _, layout := range []string{"2006-01-02", "2006-01", "2006"} {
			t, err := time.Parse(layout, rest)
			if err == nil && t.Year() >= 1970 && t.Year() <= 9999 && (op == "" || op == ">" || op == "<" || op == ">=" || op == "<=") {
				return &Filter{Field: name, Value: op + t.Format(layout)}
			}
		}
		return bad("it takes a date with an optional comparison: >2026-01-01, <2026-03, 2025")
	case "status":
		if is, ok := isValues[lv]; ok {
			return &Filter{Field: "is", Value: is}
		}
		if reNxx.MatchString(lv) {
			return &Filter{Field: name, Value: lv}
		}
		if c, err := strconv.Atoi(v); err == nil && c >= 100 && c <= 599 {
			return &Filter{Field: name, Value: strconv.Itoa(c)}
		}
		return bad("it takes an HTTP status like 404 or 4xx")
	case "is":
		if is, ok := isValues[lv]; ok {
			return &Filter{Field: name, Value: is}
		}
		return bad("it takes broken, redirect, failed, ok, resource or blocked")
	case "lang":
		if !reLang.MatchString(lv) {
			return bad("it takes a language code like en or pt-br")
		}
		return &Filter{Field: name, Value: lv}
	case "crawl":
		if c, err := strconv.ParseInt(v, 10, 64); err == nil && c > 0 {
			return &Filter{Field: name, Value: strconv.FormatInt(c, 10)}
		}
		return bad("it takes a crawl number")
	case "folder":
		if v == "" || len(v) > maxPath {
			return bad("it takes a library's path like /Computing/Go")
		}
		return &Filter{Field: name, Value: v}
	case "tag":
		t := strings.Join(strings.Fields(v), " ")
		if t == "" || len([]rune(t)) > MaxTag || strings.ContainsRune(t, ',') {
			return bad("it takes a tag of the library")
		}
		return &Filter{Field: name, Value: t}
	case "author":
		a := strings.Join(strings.Fields(v), " ")
		if a == "" || len(a) > 200 {
			return bad("it takes (part of) an author's name, like otlet or \"Paul Otlet\"")
		}
		return &Filter{Field: name, Value: a}
	case "pages":
		// A document's page count with an optional comparison: 12, >10, <=3.
		rest := strings.TrimLeft(v, "<>=")
		op := v[:len(v)-len(rest)]
		if n, err := strconv.Atoi(rest); err == nil && n >= 0 && n < 1e9 && (op == "" || op == "=" || op == ">" || op == "<" || op == ">=" || op == "<=") {
			return &Filter{Field: name, Value: strings.TrimPrefix(op, "=") + strconv.Itoa(n)}
		}
		return bad("it takes a number of pages with an optional comparison: 12, >10, <=3")
	case "render":
		// How a page's HTML was read: rendered, static, shell (not rendered), or
		// shell-WHY (not rendered because: never, no-browser, timeout, crashed, ...).
		if lv == "rendered" || lv == "static" || lv == "shell" || strings.HasPrefix(lv, "shell-") && reProblem.MatchString(lv) {
			return &Filter{Field: name, Value: lv}
		}
		return bad("it takes rendered, static, shell or shell- and why, like shell-no-browser or shell-timeout")
	case "problem":
		if !reProblem.MatchString(lv) {
			return bad("it takes a problem found in a page, like no-title, bad-link or truncated, or any")
		}
		return &Filter{Field: name, Value: lv}
	}
	return nil
}

// siteHost turns what a user types after site: into a lower-case ASCII host (with an
// optional port), or "".
func siteHost(v string) string {
	h := strings.ToLower(strings.TrimSpace(v))
	if i := strings.Index(h, "://"); i >= 0 {
		h = h[i+3:]
	}
	if i := strings.IndexAny(h, "/?#"); i >= 0 {
		h = h[:i]
	}
	if i := strings.LastIndexByte(h, '@'); i >= 0 {
		h = h[i+1:]
	}
	h = strings.TrimPrefix(h, "*")
	h = strings.Trim(h, ".")
	if h == "" {
		return ""
	}
	port := ""
	if i := strings.LastIndexByte(h, ':'); i >= 0 {
		h, port = h[:i], h[i:]
	}
	if a, err := idna.Lookup.ToASCII(h); err == nil {
		h = a
	} else if a, err := idna.Punycode.ToASCII(h); err == nil {
		h = a
	}
	h += port
	if !reHost.MatchString(h) || len(h) > 255 {
		return ""
	}
	return h
}

// parseDate reads YYYY, YYYY-MM or YYYY-MM-DD and returns the first day it names.
func parseDate(v string) (string, bool) {
	for _, layout := range []string{"2006-01-02", "2006-01", "2006"} {
		if t, err := time.Parse(layout, v); err == nil && t.Year() >= 1970 && t.Year() <= 9999 {
			return t.Format("2006-01-02"), true
		}
	}
	return "", false
}

package sanitize

import (
	"bytes"
	"encoding/base64"
	"mime"
	"net/http"
	"strings"
)

// AssetType says what a stored requisite may be shown as, from its first bytes (what the
// server said is believed only where the bytes cannot tell, and only for the types listed
// here): a raster image, an SVG image, a font, or a style sheet. ok is false for anything
// else (HTML, scripts, archives...): it is never put into a copy.
func AssetType(body []byte, declared string, kind AssetKind) (mediaType string, ok bool) {
	declared, _, _ = mime.ParseMediaType(declared)
	declared = strings.ToLower(declared)
	switch kind {
	case AssetStylesheet:
		// A style sheet is text: anything that sniffs as markup, an image or a binary is not one.
		if len(body) == 0 {
			return "text/css", true
		}
		sniffed := http.DetectContentType(body)
		if strings.HasPrefix(sniffed, "text/plain") || declared == "text/css" && strings.HasPrefix(sniffed, "text/") && !strings.HasPrefix(sniffed, "text/html") && !strings.HasPrefix(sniffed, "text/xml") {
			return "text/css", true
		}
		return "", false
	case AssetFont:
		switch {
		case bytes.HasPrefix(body, []byte("wOFF")):
			return "font/woff", true
		case bytes.HasPrefix(body, []byte("wOF2")):
			return "font/woff2", true
		case bytes.HasPrefix(body, []byte("OTTO")):
			return "font/otf", true
		case bytes.HasPrefix(body, []byte{0, 1, 0, 0}) || bytes.HasPrefix(body, []byte("true")):
			return "font/ttf", true
		}
		return "", false
	}
	switch sniffed := http.DetectContentType(body); sniffed {
	case "image/png", "image/gif", "image/jpeg", "image/webp", "image/bmp", "image/x-icon", "image/avif":
		return sniffed, true
	}
	if svg(body) && (declared == "image/svg+xml" || declared == "" || strings.HasPrefix(declared, "text/") || declared == "application/xml") {
		return "image/svg+xml", true
	}
	if declared == "image/avif" && len(body) > 12 && bytes.Equal(body[4:8], []byte("ftyp")) {
		return declared, true
	}
	return "", false
}

// svg reports whether a body looks like an SVG document (its root element, after an XML
// declaration, comments or a doctype).
func svg(body []byte) bool {
	head := body
	if len(head) > 2048 {
		head = head[:2048]
	}
	return bytes.Contains(bytes.ToLower(head), []byte("<svg"))
}

// DataURL is the data: URL of a body of a media type AssetType gave.
func DataURL(mediaType string, body []byte) string {
	var b strings.Builder
	b.Grow(len(mediaType) + 13 + base64.StdEncoding.EncodedLen(len(body)))
	b.WriteString("data:")
	b.WriteString(mediaType)
	b.WriteString(";base64,")
	b.WriteString(base64.StdEncoding.EncodeToString(body))
	return b.String()
}

package fetch

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
)

// prescanLen is how far the HTML encoding sniffing algorithm looks for <meta>.
const prescanLen = 1024

// DecodeText converts body to UTF-8 and returns it with the name of the encoding
// used. The encoding is chosen by byte order mark, then the Content-Type charset
// parameter, then a <meta charset> or <meta http-equiv> in the first 1024 bytes,
// then UTF-8 if those bytes are valid UTF-8, else windows-1252 (the precedence of
// charset.DetermineEncoding). The result is always valid UTF-8, without a BOM;
// bytes that do not decode become U+FFFD. When body is already clean UTF-8 it is
// returned without copying.
func DecodeText(body []byte, contentType string) (utf8Body []byte, encoding string) {
	switch {
	case bytes.HasPrefix(body, []byte("\xef\xbb\xbf")):
		return validUTF8(body[3:]), "utf-8"
	case bytes.HasPrefix(body, []byte("\xfe\xff")), bytes.HasPrefix(body, []byte("\xff\xfe")):
		return decodeWith(body, contentType)
	}
	if label := charsetParam(contentType); label != "" {
		if _, name := charset.Lookup(label); name == "utf-8" {
			return validUTF8(body), name
		} else if name != "" {
			return decodeWith(body, contentType)
		}
	}
	head := body[:min(len(body), prescanLen)]
	if !hasMeta(head) && validPrefix(head) {
		return validUTF8(body), "utf-8"
	}
	return decodeWith(body, contentType)
}

// decodeWith runs the full charset.DetermineEncoding and decodes body with it.
func decodeWith(body []byte, contentType string) ([]byte, string) {
	enc, name, _ := charset.DetermineEncoding(body, contentType)
	switch {
	case name == "utf-8":
		if bytes.HasPrefix(body, []byte("\xef\xbb\xbf")) {
			body = body[3:]
		}
		return validUTF8(body), name
	case asciiCompatible(name) && isASCII(body):
		return body, name // nothing to convert
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return validUTF8(body), "utf-8"
	}
	// The UTF-16 decoders keep the byte order mark as U+FEFF; drop it.
	if len(body) >= 2 && (body[0] == 0xfe && body[1] == 0xff || body[0] == 0xff && body[1] == 0xfe) {
		out = bytes.TrimPrefix(out, []byte("\ufeff"))
	}
	return validUTF8(out), name
}

// validUTF8 returns b, with invalid sequences replaced by U+FFFD if it has any.
func validUTF8(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	return bytes.ToValidUTF8(b, []byte("\uFFFD"))
}

// validPrefix reports whether b is valid UTF-8, ignoring a rune cut at its end.
func validPrefix(b []byte) bool {
	if utf8.Valid(b) {
		return true
	}
	for i := 1; i < utf8.UTFMax && i <= len(b); i++ {
		if utf8.Valid(b[:len(b)-i]) {
			return !utf8.FullRune(b[len(b)-i:])
		}
	}
	return false
}

// hasMeta reports whether b contains "<meta" in any letter case.
func hasMeta(b []byte) bool {
	for {
		i := bytes.IndexByte(b, '<')
		if i < 0 || len(b)-i < 5 {
			return false
		}
		b = b[i+1:]
		if (b[0]|0x20) == 'm' && (b[1]|0x20) == 'e' && (b[2]|0x20) == 't' && (b[3]|0x20) == 'a' {
			return true
		}
	}
}

// charsetParam returns the charset parameter of a Content-Type value without
// the allocations of mime.ParseMediaType, or "".
func charsetParam(ct string) string {
	for {
		i := strings.IndexByte(ct, ';')
		if i < 0 {
			return ""
		}
		ct = ct[i+1:]
		p := strings.TrimLeft(ct, " \t")
		if len(p) < 8 || !strings.EqualFold(p[:7], "charset") {
			continue
		}
		p = strings.TrimLeft(p[7:], " \t")
		if !strings.HasPrefix(p, "=") {
			continue
		}
		v := strings.TrimLeft(p[1:], " \t")
		if j := strings.IndexByte(v, ';'); j >= 0 {
			v = v[:j]
		}
		return strings.Trim(strings.TrimSpace(v), `"'`)
	}
}

// asciiCompatible reports whether an encoding decodes every byte below 0x80 to the
// same ASCII character (all WHATWG encodings but these).
func asciiCompatible(name string) bool {
	switch name {
	case "utf-16le", "utf-16be", "iso-2022-jp", "replacement":
		return false
	}
	return true
}

// isASCII reports whether b has no byte of 0x80 or more.
func isASCII(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

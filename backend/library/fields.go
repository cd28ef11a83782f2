package library

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"mundaneum/backend/urlnorm"
)

// Limits of a node's fields.
const (
	MaxTitle   = 1000     // characters
	MaxNotes   = 64 << 10 // bytes: notes and purpose
	MaxBody    = 1 << 20  // bytes: a report
	MaxTags    = 32
	MaxTag     = 100 // characters
	MaxImage   = 512 << 10
	MaxDepth   = 64 // libraries within libraries
	maxAuthor  = 200
	maxEmail   = 254
	maxURLText = urlnorm.MaxLength
)

// invalidError is a refused input: its message is a sentence the user reads as is (no
// "invalid:" before it), and it is ErrInvalid for errors.Is.
type invalidError struct{ err error }

func (e invalidError) Error() string   { return e.err.Error() }
func (e invalidError) Unwrap() []error { return []error{ErrInvalid, e.err} }

// invalid refuses an input, saying why in words (fmt.Errorf's verbs, %w included).
func invalid(format string, args ...any) error {
	return invalidError{fmt.Errorf(format, args...)}
}

// cleanLine makes s one line of printable text: white space runs become one space and
// other control characters go.
func cleanLine(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case unicode.IsControl(r), r == utf8.RuneError, r == '\u2028', r == '\u2029':
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// cleanText keeps new lines and tabs, drops other control characters and carriage returns.
func cleanText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if unicode.IsControl(r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, s))
}

// isAre agrees the verb with a field's name ("the notes are", "the report is").
func isAre(what string) string {
	if strings.HasSuffix(what, "s") && !strings.HasSuffix(what, "ss") {
		return "are"
	}
	return "is"
}

func checkTitle(t string, required bool) (string, error) {
	t = cleanLine(t)
	switch {
	case t == "" && required:
		return "", invalid("the title is empty: give it one")
	case utf8.RuneCountInString(t) > MaxTitle:
		return "", invalid("the title is %d characters long: at most %d are kept", utf8.RuneCountInString(t), MaxTitle)
	}
	return t, nil
}

// checkURL checks that raw is an http(s) URL and returns it as given (trimmed) and in its
// canonical form.
func checkURL(raw string) (string, string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", "", invalid("an address (URL) is required")
	}
	if len(raw) > maxURLText {
		return "", "", invalid("the address is %d bytes long: at most %d are kept", len(raw), maxURLText)
	}
	if strings.ContainsFunc(raw, unicode.IsControl) {
		return "", "", invalid("an address with control characters")
	}
	key, err := urlnorm.Normalize(raw)
	if err != nil {
		return "", "", invalid("%q is not an http or https address", clip(raw, 80))
	}
	return raw, key, nil
}

func checkText(what, s string, max int) (string, error) {
	s = cleanText(s)
	if len(s) > max {
		return "", invalid("the %s %s %d KiB long: at most %d KiB are kept", what, isAre(what), (len(s)+1023)>>10, max>>10)
	}
	return s, nil
}

// CheckTags cleans a list of tags: each one line, without commas (they separate tags in
// bookmark files), at most MaxTag characters; duplicates (any case) dropped.
func CheckTags(tags []string) ([]string, error) {
	out := []string{}
	seen := map[string]bool{}
	for _, t := range tags {
		for _, part := range strings.Split(t, ",") {
			part = cleanLine(part)
			if part == "" || seen[strings.ToLower(part)] {
				continue
			}
			if utf8.RuneCountInString(part) > MaxTag {
				return nil, invalid("the tag %q is %d characters long: at most %d are kept", clip(part, 40), utf8.RuneCountInString(part), MaxTag)
			}
			seen[strings.ToLower(part)] = true
			out = append(out, part)
		}
	}
	if len(out) > MaxTags {
		return nil, invalid("%d tags: at most %d are kept", len(out), MaxTags)
	}
	return out, nil
}

func checkPerson(author, email string) (string, string, error) {
	author, email = cleanLine(author), cleanLine(email)
	switch {
	case utf8.RuneCountInString(author) > maxAuthor:
		return "", "", invalid("the author's name is %d characters long: at most %d are kept", utf8.RuneCountInString(author), maxAuthor)
	case len(email) > maxEmail, email != "" && (!strings.Contains(email, "@") || strings.ContainsAny(email, " <>\"")):
		return "", "", invalid("%q is not an e-mail address", clip(email, 60))
	}
	return author, email, nil
}

// ImageData is a picture as sent: raw bytes, or a data: URL ("data:image/png;base64,...").
type ImageData struct {
	Bytes   []byte
	DataURL string
}

// Empty reports whether no picture was given.
func (d *ImageData) Empty() bool { return d == nil || len(d.Bytes) == 0 && d.DataURL == "" }

// checkImage decodes and sniffs a picture: PNG, GIF, JPEG or WebP up to MaxImage bytes.
// (SVG is refused: it can carry script.)
func checkImage(d *ImageData) (mime string, data []byte, err error) {
	data = d.Bytes
	if d.DataURL != "" {
		s := d.DataURL
		i := strings.Index(s, ";base64,")
		if !strings.HasPrefix(s, "data:") || i < 0 {
			return "", nil, invalid("a picture must be a data: URL with base64 content")
		}
		if len(s) > MaxImage*4/3+100 {
			return "", nil, invalid("a picture larger than %d KiB", MaxImage>>10)
		}
		if data, err = base64.StdEncoding.DecodeString(s[i+len(";base64,"):]); err != nil {
			return "", nil, invalid("a picture that is not base64")
		}
	}
	if len(data) > MaxImage {
		return "", nil, invalid("a picture larger than %d KiB", MaxImage>>10)
	}
	mime = http.DetectContentType(data)
	switch mime {
	case "image/png", "image/gif", "image/jpeg", "image/webp":
		return mime, data, nil
	}
	return "", nil, invalid("a picture must be PNG, GIF, JPEG or WebP (this is %s)", mime)
}

// DataURL is the data: URL of an image.
func (img Image) DataURL() string {
	return "data:" + img.Mime + ";base64," + base64.StdEncoding.EncodeToString(img.Data)
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

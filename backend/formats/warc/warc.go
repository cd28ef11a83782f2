// Package warc reads and writes WARC files (ISO 28500, WARC/1.0 and WARC/1.1), the web
// archive format of Heritrix, wget --warc-file, Browsertrix, pywb and ArchiveBox. It is a
// leaf: it imports no other package of the project.
//
// The Reader takes hostile input. Files may be plain or gzip-compressed, either a member
// per record (the usual form, which tools seek in) or one member for the whole file. Every
// record is streamed: its block is a reader of exactly Content-Length bytes, so memory is
// bounded whatever the file holds. A malformed record (a bad version line, a header too long
// or without Content-Length, a corrupt gzip member) is reported as a *FormatError and the
// Reader moves on to the next record; a truncated block shows as io.ErrUnexpectedEOF when
// it is read. The Writer writes WARC/1.1 records, each in its own gzip member when asked.
package warc

import (
	"crypto/rand"
	"crypto/sha1"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"net/textproto"
	"strings"
	"time"
)

// Record types (WARC-Type).
const (
	TypeWarcinfo     = "warcinfo"
	TypeResponse     = "response"
	TypeResource     = "resource"
	TypeRequest      = "request"
	TypeMetadata     = "metadata"
	TypeRevisit      = "revisit"
	TypeConversion   = "conversion"
	TypeContinuation = "continuation"
)

// Revisit profiles (WARC-Profile of a revisit record).
const (
	ProfileIdenticalPayload  = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"
	ProfileServerNotModified = "http://netpreserve.org/warc/1.1/revisit/server-not-modified"
	// The WARC/1.0 spellings, which readers must accept too.
	profileIdenticalPayload10  = "http://netpreserve.org/warc/1.0/revisit/identical-payload-digest"
	profileServerNotModified10 = "http://netpreserve.org/warc/1.0/revisit/server-not-modified"
)

// Content types of record blocks.
const (
	ContentHTTPResponse = "application/http; msgtype=response"
	ContentHTTPRequest  = "application/http; msgtype=request"
	ContentFields       = "application/warc-fields"
)

// Limits on what the Reader accepts of a record's header.
const (
	MaxHeaderBytes  = 256 << 10 // all of a record's header lines together
	MaxHeaderFields = 1024
)

// Field is one named field of a record header.
type Field struct {
	Name, Value string
}

// Header is a record's named fields, in order. Names compare case-insensitively.
type Header []Field

// Get returns the value of the first field called name, or "".
func (h Header) Get(name string) string {
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			return f.Value
		}
	}
	return ""
}

// Set replaces the value of the field called name, or appends the field.
func (h *Header) Set(name, value string) {
	for i, f := range *h {
		if strings.EqualFold(f.Name, name) {
			(*h)[i].Value = value
			return
		}
	}
	*h = append(*h, Field{Name: name, Value: value})
}

// Add appends a field (WARC-Concurrent-To may repeat).
func (h *Header) Add(name, value string) { *h = append(*h, Field{Name: name, Value: value}) }

// Type is WARC-Type.
func (h Header) Type() string { return strings.ToLower(strings.TrimSpace(h.Get("WARC-Type"))) }

// TargetURI is WARC-Target-URI, without the angle brackets WARC/1.0 files sometimes put
// around it.
func (h Header) TargetURI() string { return trimURI(h.Get("WARC-Target-URI")) }

// RecordID is WARC-Record-ID as written (<urn:uuid:...>).
func (h Header) RecordID() string { return strings.TrimSpace(h.Get("WARC-Record-ID")) }

// Date parses WARC-Date (RFC 3339 in UTC, with or without fractions of a second; WARC/1.0
// also allows a date alone). The zero time means absent or unreadable.
func (h Header) Date() time.Time {
	t, _ := ParseDate(h.Get("WARC-Date"))
	return t
}

// RefersToTargetURI is WARC-Refers-To-Target-URI (of a revisit record).
func (h Header) RefersToTargetURI() string { return trimURI(h.Get("WARC-Refers-To-Target-URI")) }

// Profile names a revisit record's profile: "identical-payload-digest",
// "server-not-modified", or the field as written when it is neither.
func (h Header) Profile() string {
	p := strings.TrimSpace(h.Get("WARC-Profile"))
	switch p {
	case ProfileIdenticalPayload, profileIdenticalPayload10:
		return "identical-payload-digest"
	case ProfileServerNotModified, profileServerNotModified10:
		return "server-not-modified"
	}
	return p
}

func trimURI(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && s[0] == '<' && s[len(s)-1] == '>' {
		s = s[1 : len(s)-1]
	}
	return s
}

// ParseDate reads a WARC-Date.
func ParseDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02", "2006-01", "2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("warc: bad WARC-Date %q", s)
}

// FormatDate writes a WARC/1.1 date: UTC, with microseconds when the time has them.
func FormatDate(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond()/1000 != 0 {
		return t.Format("2006-01-02T15:04:05.000000Z")
	}
	return t.Format("2006-01-02T15:04:05Z")
}

// NewRecordID returns a fresh record id, <urn:uuid:...> with a random (version 4) UUID.
func NewRecordID() string {
	var u [16]byte
	_, _ = rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	h := hex.EncodeToString(u[:])
	return "<urn:uuid:" + h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:] + ">"
}

// Digest returns the conventional digest of b for WARC-Block-Digest and
// WARC-Payload-Digest: "sha1:" and the SHA-1 in base 32, as Heritrix and wget write it.
func Digest(b []byte) string {
	sum := sha1.Sum(b)
	return "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
}

// canonicalName spells a known field name as the standard does, else as MIME would.
func canonicalName(name string) string {
	if c, ok := knownNames[strings.ToLower(name)]; ok {
		return c
	}
	return textproto.CanonicalMIMEHeaderKey(name)
}

var knownNames = map[string]string{}

func init() {
	for _, n := range []string{"WARC-Type", "WARC-Record-ID", "WARC-Date", "Content-Length", "Content-Type",
		"WARC-Concurrent-To", "WARC-Block-Digest", "WARC-Payload-Digest", "WARC-IP-Address", "WARC-Refers-To",
		"WARC-Refers-To-Target-URI", "WARC-Refers-To-Date", "WARC-Target-URI", "WARC-Truncated",
		"WARC-Warcinfo-ID", "WARC-Filename", "WARC-Profile", "WARC-Identified-Payload-Type",
		"WARC-Segment-Number", "WARC-Segment-Origin-ID", "WARC-Segment-Total-Length"} {
		knownNames[strings.ToLower(n)] = n
	}
}

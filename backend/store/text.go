package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"
)

// A page's extracted text (page_text): packed once per content, read back for the index,
// snippets and the document view.

// PageText is the extracted text of a page as stored (table page_text): what the full-text
// index indexes of it besides its URL and the anchor text pointing at it, what snippets
// are cut from, and what the document view shows.
type PageText struct {
	Title, Headings, Body string
}

// Text codecs of page_text.
const (
	textZstd = "zstd"
	textNone = "none" // text moved from an older workspace's index
)

// textEncoder compresses stored text. EncodeAll is safe for concurrent use: the crawl's
// agents pack their pages' text in parallel, off the writer's goroutine, as many at once
// as there are cores (see the crawl's encoder for the window).
var textEncoder, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithWindowSize(1<<17),
	zstd.WithLowerEncoderMem(true), zstd.WithEncoderConcurrency(runtime.NumCPU()))

// PackedText is a page's text ready for page_text: cleaned and compressed.
type PackedText struct {
	codec string
	data  []byte
}

// PackText cleans a page's text (see Clean) and compresses it for SaveResult. Callers
// that handle many pages call it in parallel: the writer then only stores the bytes.
func PackText(t PageText) PackedText {
	var b bytes.Buffer
	b.Grow(len(t.Title) + len(t.Headings) + len(t.Body) + 2)
	for i, f := range []string{t.Title, t.Headings, t.Body} {
		if i > 0 {
			b.WriteByte(0)
		}
		b.WriteString(strings.ReplaceAll(Clean(f), "\x00", ""))
	}
	return PackedText{codec: textZstd, data: textEncoder.EncodeAll(b.Bytes(), make([]byte, 0, b.Len()/3+64))}
}

// Codec and Data are what page_text stores of a packed text (for tools that write
// workspaces directly, such as the search benchmark's generator).
func (p PackedText) Codec() string { return p.codec }

// Data is the packed bytes (see Codec).
func (p PackedText) Data() []byte { return p.data }

// UnpackText decodes a page_text row.
func UnpackText(codec string, data []byte) (PageText, error) {
	switch codec {
	case textZstd:
		var err error
		if data, err = decoder.DecodeAll(data, nil); err != nil {
			return PageText{}, fmt.Errorf("page text: %w", err)
		}
	case textNone:
	default:
		return PageText{}, fmt.Errorf("page text: unknown codec %q", codec)
	}
	title, rest, _ := bytes.Cut(data, []byte{0})
	headings, body, _ := bytes.Cut(rest, []byte{0})
	return PageText{Title: string(title), Headings: string(headings), Body: string(body)}, nil
}

// Clean makes crawled text safe to index and to show in snippets: it drops the
// private-use code points U+E000 and U+E001 that search uses to mark matches (so page
// text cannot forge a highlight) and replaces invalid UTF-8, which FTS5 and the pair
// index would split differently (see backend/pairs).
func Clean(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	// U+E000 and U+E001 are EE 80 80 and EE 80 81 in UTF-8: look for the lead byte.
	if strings.IndexByte(s, 0xEE) < 0 || !strings.ContainsAny(s, "\uE000\uE001") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '\uE000' || r == '\uE001' {
			return -1
		}
		return r
	}, s)
}

// Text returns the extracted text of a page (a duplicate's is its original's), or
// ErrNotFound when none is stored.
func (s *Store) Text(ctx context.Context, id int64) (PageText, error) {
	var codec string
	var data []byte
	err := s.read.QueryRowContext(ctx, `SELECT codec, data FROM page_text
		WHERE page_id = coalesce((SELECT duplicate_of FROM pages WHERE id = ?1), ?1)`, id).Scan(&codec, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return PageText{}, fmt.Errorf("text of page %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return PageText{}, fmt.Errorf("text of page %d: %w", id, err)
	}
	return UnpackText(codec, data)
}

// BodyText is the extracted body text of page id (what rules on the body read).
func (s *Store) BodyText(ctx context.Context, id int64) (string, error) {
	t, err := s.Text(ctx, id)
	return t.Body, err
}

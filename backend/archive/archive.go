// Package archive moves crawls in and out of the workspace as files other tools read and
// write. Each format is one entry of the table below, with its exporter, its importer and
// how to recognise its files; the command line, the window and serve look formats up by
// name here, so a new format joins by adding an entry.
//
//   - warc: ISO 28500 WARC/1.1 (Heritrix, wget --warc-file, Browsertrix, pywb, ArchiveBox).
//     Export writes request, response, revisit and metadata records, a gzip member each;
//     import reads any WARC, stores and indexes its responses as a crawl would, and reports
//     and skips what it cannot read.
//   - wwww: the World Wide Web Worm's archive (T, R, I and C lines). Export writes a crawl as
//     one; import records what it says and seeds a rerun that fetches nothing the archive
//     completed (its C lines), as the paper's reruns did.
//   - soif: Harvest's Summary Object Interchange Format: a template per page summary (title,
//     text, references, times, content hash), the form in which instances exchange them
//     (see backend/exchange). Import checks the whole file before it applies any of it.
//
// Imports never half-write: every archived response is saved as one transaction, and a
// record that cannot be read is reported and left out before anything is written.
package archive

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"mundaneum/backend/crawl"
	"mundaneum/backend/exchange"
	"mundaneum/backend/store"
)

// ErrFormat means a format name is unknown, or a file is in no format this package reads.
var ErrFormat = errors.New("unknown archive format")

// Format is one archive format.
type Format struct {
	Name       string   // as the command line takes it: --format NAME
	Title      string   // for people
	Extensions []string // file name endings, the first the usual one
	Export     func(ctx context.Context, st *store.Store, w io.Writer, opt ExportOptions) (ExportReport, error)
	Import     func(ctx context.Context, st *store.Store, r io.Reader, opt ImportOptions) (ImportReport, error)
	// Folder, when set, exports to a folder (the command line's, for a name without the
	// usual extension): a format of many files. Import is nil for a format that is only
	// written.
	Folder      func(ctx context.Context, st *store.Store, dir string, opt ExportOptions) (ExportReport, error)
	recognise   func(head []byte) bool // the start of a file in this format
	compression bool                   // exports are compressed unless the file name says otherwise
}

// formats are the formats by name.
var formats = []Format{
	{Name: "warc", Title: "WARC/1.1 web archive (ISO 28500)", Extensions: []string{".warc.gz", ".warc"},
		Export: exportWARC, Import: importWARC, recognise: isWARC, compression: true},
	{Name: "wwww", Title: "World Wide Web Worm archive (T, R, I, C lines)", Extensions: []string{".wwww", ".wwww.txt"},
		Export: exportWWWW, Import: importWWWW, recognise: isWWWW},
	{Name: "soif", Title: "Harvest SOIF page summaries (Summary Object Interchange Format)", Extensions: []string{".soif", ".soif.gz"},
		Export: exportSOIF, Import: importSOIF, recognise: exchange.LooksLikeSOIF},
	{Name: "html-site", Title: "Web pages to read offline, linking to each other (a folder, or a .zip of it)", Extensions: []string{".zip"},
		Export: exportSite, Folder: exportSiteFolder},
}

// Formats lists the formats, by name.
func Formats() []Format {
	out := append([]Format(nil), formats...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Names lists the formats' names.
func Names() []string {
	var out []string
	for _, f := range Formats() {
		out = append(out, f.Name)
	}
	return out
}

// Lookup returns the format called name.
func Lookup(name string) (Format, error) {
	for _, f := range formats {
		if strings.EqualFold(f.Name, strings.TrimSpace(name)) {
			return f, nil
		}
	}
	return Format{}, fmt.Errorf("%w %q: use %s", ErrFormat, name, strings.Join(Names(), " or "))
}

// Detect recognises a file's format by its first bytes, else by its name.
func Detect(name string, head []byte) (Format, error) {
	for _, f := range formats {
		if f.recognise != nil && f.recognise(head) {
			return f, nil
		}
	}
	lower := strings.ToLower(filepath.Base(name))
	for _, f := range formats {
		if f.Import == nil {
			continue // written only: a .zip is not an html-site to read back
		}
		for _, ext := range f.Extensions {
			if strings.HasSuffix(lower, ext) {
				return f, nil
			}
		}
	}
	return Format{}, fmt.Errorf("%w: %s is not a file in %s format (say which with --format)", ErrFormat,
		filepath.Base(name), strings.Join(Names(), " or "))
}

// Compressed reports whether an export to a file of this name is compressed ("" for a
// stream: the format's usual form).
func (f Format) Compressed(name string) bool {
	if !f.compression {
		return false
	}
	lower := strings.ToLower(name)
	return name == "" || strings.HasSuffix(lower, ".gz") || !strings.HasSuffix(lower, ".warc")
}

// HeadSize is how many bytes Detect wants.
const HeadSize = 4096

func isWARC(head []byte) bool {
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(head))
		if err != nil {
			return false
		}
		b := make([]byte, 8)
		n, _ := io.ReadFull(zr, b)
		head = b[:n]
	}
	return bytes.HasPrefix(bytes.TrimLeft(head, "\r\n"), []byte("WARC/"))
}

func isWWWW(head []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(head))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" {
			continue
		}
		return len(l) > 2 && strings.ContainsRune("TRIC", rune(l[0])) && (l[1] == ' ' || l[1] == '\t') &&
			strings.Contains(l, "://")
	}
	return false
}

// ExportOptions tune an export.
type ExportOptions struct {
	CrawlID  int64 // the crawl to export; 0 for every page of the workspace
	Compress bool  // WARC: a gzip member per record
	// Since keeps the pages whose content changed at or after it (SOIF; zero: all).
	Since    time.Time
	Progress func(Progress)
}

// ImportOptions tune an import.
type ImportOptions struct {
	Name     string // the file's name, recorded with the import
	Size     int64  // the file's size, for progress (0: unknown)
	Progress func(Progress)
	// Index is the workspace's search index: the import ends once what it brought in is
	// searchable (nil: it does not wait).
	Index crawl.Index
	// For a WWWW archive, the rerun it seeds: its scope and depth (crawl.Config's).
	Scope    string
	MaxDepth int
}

// Progress is how far an import or export has gone.
type Progress struct {
	Done, Total int64 // records (export) or bytes of the file (import); Total 0: unknown
	Pages       int64 // pages written or stored so far
	Elapsed     time.Duration
	Note        string // what is happening, when it is not the main work
}

// ExportReport tells what an export wrote.
type ExportReport struct {
	Format    string `json:"format"`
	CrawlID   int64  `json:"crawlId,omitempty"`
	Records   int    `json:"records"`   // WARC records or WWWW lines
	Responses int    `json:"responses"` // WARC: responses with their body; WWWW: T lines
	Revisits  int    `json:"revisits"`  // WARC: duplicates and confirmations
	Bytes     int64  `json:"bytes"`
	Skipped   int    `json:"skipped"` // versions whose body is not kept
	// Requisites is the style sheets, images and fonts an html-site export wrote.
	Requisites int `json:"requisites,omitempty"`
}

// Problem is a record an import could not use.
type Problem struct {
	Where  string `json:"where"` // "byte 1234" or "line 12"
	URL    string `json:"url,omitempty"`
	Reason string `json:"reason"`
}

// ImportReport tells what an import did.
type ImportReport struct {
	Format   string `json:"format"`
	CrawlID  int64  `json:"crawlId"` // the crawl record of the import
	Records  int    `json:"records"` // records (lines) read
	Pages    int    `json:"pages"`   // responses stored as page content
	Versions int    `json:"versions"`
	// Duplicates are responses whose content another page or record already had (stored
	// once); Revisits are revisit records applied.
	Duplicates int       `json:"duplicates"`
	Revisits   int       `json:"revisits"`
	Other      int       `json:"other"`   // redirects, errors and types kept without body
	Ignored    int       `json:"ignored"` // records of no use here (requests, metadata, ...)
	Kept       int       `json:"kept"`    // WWWW: pages the workspace already had content for
	Problems   []Problem `json:"problems"`
	// ProblemCount counts every problem; Problems lists the first maxProblems.
	ProblemCount int   `json:"problemCount"`
	Bytes        int64 `json:"bytes"`
	// RerunCrawlID is the crawl a WWWW import seeded (resume it to run it).
	RerunCrawlID int64         `json:"rerunCrawlId,omitempty"`
	Elapsed      time.Duration `json:"-"`
}

const maxProblems = 200

func (r *ImportReport) problem(where, url, reason string) {
	r.ProblemCount++
	if len(r.Problems) < maxProblems {
		r.Problems = append(r.Problems, Problem{Where: where, URL: url, Reason: reason})
	}
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// ExportFile exports to the file at path as the format's usual form for that name. The
// file appears whole or not at all: it is written beside path and renamed at the end.
func ExportFile(ctx context.Context, st *store.Store, f Format, path string, opt ExportOptions) (ExportReport, error) {
	if f.Folder != nil && !strings.HasSuffix(strings.ToLower(path), f.Extensions[0]) {
		return f.Folder(ctx, st, path, opt)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.part")
	if err != nil {
		return ExportReport{Format: f.Name}, err
	}
	defer os.Remove(tmp.Name()) // gone once renamed
	bw := bufio.NewWriterSize(tmp, 256<<10)
	opt.Compress = f.Compressed(path)
	rep, err := f.Export(ctx, st, bw, opt)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	return rep, err
}

// ImportFile imports the file at path, in the format given or recognised from its contents.
func ImportFile(ctx context.Context, st *store.Store, path, format string, opt ImportOptions) (ImportReport, error) {
	file, err := os.Open(path)
	if err != nil {
		return ImportReport{}, err
	}
	defer file.Close()
	var f Format
	if format != "" {
		if f, err = Lookup(format); err != nil {
			return ImportReport{}, err
		}
	} else {
		head := make([]byte, HeadSize)
		n, _ := io.ReadFull(file, head)
		if f, err = Detect(path, head[:n]); err != nil {
			return ImportReport{}, err
		}
		if _, err := file.Seek(0, io.SeekStart); err != nil {
			return ImportReport{}, err
		}
	}
	if fi, err := file.Stat(); err == nil && opt.Size == 0 {
		opt.Size = fi.Size()
	}
	if opt.Name == "" {
		opt.Name = filepath.Base(path)
	}
	if f.Import == nil {
		return ImportReport{}, fmt.Errorf("%w: %s files are written, not read", ErrFormat, f.Name)
	}
	return f.Import(ctx, st, bufio.NewReaderSize(file, 1<<20), opt)
}

package exchange

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"mundaneum/backend/crawl"
	"mundaneum/backend/exchange/record"
	"mundaneum/backend/formats/soif"
)

// Template types of a stream's first and last templates. A stream is
//
//	@GATHERER { ORIGIN     who sends it (Gatherer-*), and from where (Since-Seq)
//	@FILE { URL ...        one per page summary, in the order the changes committed
//	@END { ORIGIN          Templates{N}: how many FILE templates came, Cursor{N}: the seq
//	                       to ask from next time
//
// The END template is how a receiver knows that the stream is whole: without it, or with
// another count, nothing of the stream is applied. Other Gatherers' files (no GATHERER, no
// END) import as they are, from a file only.
const (
	TypeGatherer = "GATHERER"
	TypeEnd      = "END"
)

// ExportOptions choose what an export writes.
type ExportOptions struct {
	After int64     // only summaries after this seq (a peer's cursor)
	Since time.Time // only summaries that changed at or after this time (zero: all)
	Crawl int64     // only the pages of this crawl (0: every page)
	// Origin is the URL of the stream's GATHERER and END templates (default: the
	// workspace's file URL).
	Origin   string
	Gatherer Gatherer // default: this workspace on this host
	Progress func(Progress)
}

// Progress is how far an export, an import or a pull has gone.
type Progress struct {
	Templates int64 // page templates written or read
	Total     int64 // of how many (0: unknown)
	Bytes     int64 // of the stream (uncompressed)
	Applied   int64 // import and pull: summaries saved
	Elapsed   time.Duration
	Phase     string // pull: "download", "check", "apply"
}

// ExportReport tells what an export wrote.
type ExportReport struct {
	Templates int    `json:"templates"`
	Bytes     int64  `json:"bytes"`
	Cursor    Cursor `json:"cursor"`
}

// DefaultGatherer names this workspace on this host.
func DefaultGatherer(st interface{ Path() string }) Gatherer {
	host, _ := os.Hostname()
	return Gatherer{Name: "Mundaneum workspace " + filepath.Base(st.Path()), Host: host, Version: "Mundaneum/" + crawl.Version}
}

// exportBatch is how many summaries an export reads at a time.
const exportBatch = 200

// Export writes the workspace's summaries as a SOIF stream to w.
func Export(ctx context.Context, st SummaryStore, w io.Writer, opt ExportOptions) (ExportReport, error) {
	var rep ExportReport
	if opt.Gatherer == (Gatherer{}) {
		opt.Gatherer = DefaultGatherer(st)
	}
	if opt.Origin == "" {
		abs, _ := filepath.Abs(st.Path())
		opt.Origin = (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	}
	end, err := st.LastSummarySeq(ctx)
	if err != nil {
		return rep, err
	}
	total, err := st.CountExchangeSummaries(ctx, opt.After, end)
	if err != nil {
		return rep, err
	}
	sw := soif.NewWriter(w)
	head := &soif.Template{Type: TypeGatherer, URL: opt.Origin}
	head.AddString("Gatherer-Name", opt.Gatherer.Name)
	head.AddString("Gatherer-Host", opt.Gatherer.Host)
	head.AddString("Gatherer-Version", opt.Gatherer.Version)
	head.AddString("Since-Seq", strconv.FormatInt(opt.After, 10))
	if !opt.Since.IsZero() {
		head.AddString("Since-Time", strconv.FormatInt(opt.Since.Unix(), 10))
	}
	head.AddString("Update-Time", strconv.FormatInt(time.Now().Unix(), 10))
	if err := sw.Write(head); err != nil {
		return rep, err
	}
	start := time.Now()
	sel := record.Selection{After: opt.After, UpTo: end, Crawl: opt.Crawl, Limit: exportBatch}
	if !opt.Since.IsZero() {
		sel.Since = max(1, opt.Since.UnixMilli())
	}
	rep.Cursor = Cursor{Seq: opt.After}
	last := time.Now()
	for {
		rows, err := next(ctx, st, sel)
		if err != nil {
			return rep, err
		}
		if len(rows) == 0 {
			break
		}
		for i := range rows {
			if err := ctx.Err(); err != nil {
				return rep, err
			}
			if err := sw.Write(Template(&rows[i].sum, opt.Gatherer)); err != nil {
				// A URL or a name a template cannot carry: none in a workspace (URLs are
				// canonical), so it is the workspace that is broken.
				return rep, fmt.Errorf("page %s: %w", rows[i].sum.URL, err)
			}
			rep.Templates++
			rep.Cursor = Cursor{Seq: rows[i].seq, Time: rows[i].sum.UpdatedAt}
		}
		sel.After = rows[len(rows)-1].seq
		if opt.Progress != nil && time.Since(last) > 200*time.Millisecond {
			last = time.Now()
			opt.Progress(Progress{Templates: int64(rep.Templates), Total: total, Bytes: sw.Offset(), Elapsed: time.Since(start)})
		}
	}
	// The cursor covers every seq up to the log's end at the start, sent or not (pages
	// that left the log's conditions since).
	rep.Cursor.Seq = max(rep.Cursor.Seq, end)
	tail := &soif.Template{Type: TypeEnd, URL: opt.Origin}
	tail.AddString("Templates", strconv.Itoa(rep.Templates))
	tail.AddString("Cursor", strconv.FormatInt(rep.Cursor.Seq, 10))
	if rep.Cursor.Time > 0 {
		tail.AddString("Cursor-Time", strconv.FormatInt(rep.Cursor.Time, 10))
	}
	if err := sw.Write(tail); err != nil {
		return rep, err
	}
	if err := sw.Flush(); err != nil {
		return rep, err
	}
	rep.Bytes = sw.Offset()
	if opt.Progress != nil {
		opt.Progress(Progress{Templates: int64(rep.Templates), Total: total, Bytes: rep.Bytes, Elapsed: time.Since(start)})
	}
	return rep, nil
}

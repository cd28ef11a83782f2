package archive

import (
	"context"
	"fmt"
	"io"
	"time"

	"mundaneum/backend/exchange"
	"mundaneum/backend/store"
)

// exportSOIF writes the workspace's (or a crawl's) page summaries as a SOIF stream.
func exportSOIF(ctx context.Context, st *store.Store, w io.Writer, opt ExportOptions) (ExportReport, error) {
	rep := ExportReport{Format: "soif", CrawlID: opt.CrawlID}
	if opt.CrawlID != 0 {
		if _, err := st.Crawl(ctx, opt.CrawlID); err != nil {
			return rep, fmt.Errorf("crawl %d: %w", opt.CrawlID, err)
		}
	}
	r, err := exchange.Export(ctx, st, w, exchange.ExportOptions{Since: opt.Since, Crawl: opt.CrawlID,
		Progress: func(p exchange.Progress) {
			if opt.Progress != nil {
				opt.Progress(Progress{Done: p.Templates, Total: p.Total, Pages: p.Templates, Elapsed: p.Elapsed})
			}
		}})
	rep.Records, rep.Responses, rep.Bytes = r.Templates, r.Templates, r.Bytes
	return rep, err
}

// importSOIF reads a SOIF file's summaries in, marked as coming from the file.
func importSOIF(ctx context.Context, st *store.Store, r io.Reader, opt ImportOptions) (ImportReport, error) {
	rep := ImportReport{Format: "soif"}
	name := opt.Name
	if name == "" {
		name = "standard input"
	}
	cr := &countReader{r: r}
	x, err := exchange.ImportFile(ctx, st, name, cr, exchange.ImportOptions{Index: opt.Index, Progress: func(p exchange.Progress) {
		if opt.Progress != nil {
			note := ""
			if p.Phase == "check" {
				note = "checking the whole file before applying it"
			}
			opt.Progress(Progress{Done: cr.n.Load(), Total: opt.Size, Pages: p.Applied, Elapsed: p.Elapsed, Note: note})
		}
	}})
	rep.CrawlID, rep.Records, rep.Pages, rep.Versions = x.CrawlID, x.Templates, x.Applied, x.Applied
	rep.Duplicates, rep.Kept, rep.Bytes, rep.Elapsed = x.Unchanged, x.Older, cr.n.Load(), secs(x.Seconds)
	for _, p := range x.Problems {
		rep.problem(fmt.Sprintf("byte %d", p.Offset), p.URL, p.Reason)
	}
	return rep, err
}

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

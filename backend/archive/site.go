package archive

import (
	"context"
	"io"
	"time"

	"mundaneum/backend/offline"
	"mundaneum/backend/store"
)

// html-site: a crawl as a folder of sanitised pages linking to each other, to open from the
// disk (backend/offline's Site). Streamed (a download, the window's export) it is a zip of
// that folder; the command line writes the folder itself unless the file name ends in .zip.

func exportSite(ctx context.Context, st *store.Store, w io.Writer, opt ExportOptions) (ExportReport, error) {
	rep, err := offline.SiteZip(ctx, st, opt.CrawlID, w, siteProgress(opt))
	return siteReport(opt, rep), err
}

func exportSiteFolder(ctx context.Context, st *store.Store, dir string, opt ExportOptions) (ExportReport, error) {
	rep, err := offline.SiteFolder(ctx, st, opt.CrawlID, dir, siteProgress(opt))
	return siteReport(opt, rep), err
}

func siteProgress(opt ExportOptions) offline.SiteProgress {
	if opt.Progress == nil {
		return nil
	}
	start := time.Now()
	return func(done, total int) {
		opt.Progress(Progress{Done: int64(done), Total: int64(total), Pages: int64(done), Elapsed: time.Since(start)})
	}
}

func siteReport(opt ExportOptions, rep offline.SiteReport) ExportReport {
	return ExportReport{Format: "html-site", CrawlID: opt.CrawlID, Records: rep.Files, Responses: rep.Pages + rep.Documents,
		Bytes: rep.Bytes, Skipped: rep.Skipped, Requisites: rep.Requisites}
}

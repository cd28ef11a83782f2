package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"mundaneum/backend/archive"
	"mundaneum/backend/jobs"
)

// EventArchiveJob reports an import or export job's progress and end (payload: ArchiveJob).
const EventArchiveJob = "archive:job"

// States of an archive job.
const (
	JobRunning   = "running"
	JobDone      = "done"
	JobCancelled = "cancelled"
	JobFailed    = "failed"
)

// ArchiveJob is an import or an export running in the background, or its end.
type ArchiveJob struct {
	ID     int64  `json:"id"`
	Op     string `json:"op"` // "import" or "export"
	Format string `json:"format"`
	Name   string `json:"name"` // the file's name
	Path   string `json:"path"` // where it is ("" for a browser's upload or download)
	State  string `json:"state"`
	// Done of Total: bytes of the file read (import) or versions written (export); Total 0
	// when unknown. None of the counts ever moves backwards.
	Done      int64                 `json:"done"`
	Total     int64                 `json:"total"`
	Pages     int64                 `json:"pages"`
	Bytes     int64                 `json:"bytes"` // of the file, read or written so far
	ElapsedMs int64                 `json:"elapsedMs"`
	Rate      float64               `json:"rate"`     // pages a second
	ByteRate  float64               `json:"byteRate"` // bytes a second
	Note      string                `json:"note"`     // what happens besides the main work
	Error     string                `json:"error"`    // why it failed
	CrawlID   int64                 `json:"crawlId"`  // import: the crawl it made; export: the crawl written (0: all)
	Import    *archive.ImportReport `json:"import,omitempty"`
	Export    *archive.ExportReport `json:"export,omitempty"`
}

// archiveJobs are a workspace's import and export jobs: the running ones, and the ended
// ones to show (the latest maxEndedJobs). run starts, cancels and waits for them.
type archiveJobs struct {
	run  *jobs.Group[int64]
	mu   sync.Mutex
	next int64
	jobs map[int64]*archiveJob
}

const maxEndedJobs = 20

type archiveJob struct {
	ArchiveJob
	start time.Time
}

func newArchiveJobs() *archiveJobs {
	return &archiveJobs{run: jobs.NewGroup[int64](), jobs: map[int64]*archiveJob{}}
}

// jobWork is the work of a job: it reports progress through update and returns how it ended.
type jobWork func(ctx context.Context, update func(archive.Progress)) (jobEnd, error)

// jobEnd is what a job's work tells at its end.
type jobEnd struct {
	crawlID int64
	imp     *archive.ImportReport
	exp     *archive.ExportReport
	bytes   int64
}

// start runs work in the background as a new job and returns the job at once; emit tells
// of its progress and end.
func (js *archiveJobs) start(j ArchiveJob, work jobWork, cleanup func(), emit func(ArchiveJob)) (ArchiveJob, error) {
	js.mu.Lock()
	defer js.mu.Unlock()
	id := js.next + 1
	job := &archiveJob{ArchiveJob: j, start: time.Now()}
	job.ID, job.State = id, JobRunning
	snap := job.ArchiveJob
	err := js.run.Go(id, func(ctx context.Context, _ *jobs.Job[int64]) {
		if cleanup != nil {
			defer cleanup()
		}
		emit(snap)
		th := jobs.Throttle{Every: 200 * time.Millisecond}
		end, err := work(ctx, func(p archive.Progress) {
			if s, ok := js.progress(id, p); ok && th.Allow(time.Now()) {
				emit(s)
			}
		})
		emit(js.finish(id, ctx, end, err))
	})
	if err != nil {
		if cleanup != nil {
			cleanup()
		}
		return ArchiveJob{}, &Error{Code: CodeUnavailable, Message: err.Error()}
	}
	js.next = id
	js.jobs[id] = job
	return snap, nil
}

// progress records p on job id, keeping every count from moving backwards.
func (js *archiveJobs) progress(id int64, p archive.Progress) (ArchiveJob, bool) {
	js.mu.Lock()
	defer js.mu.Unlock()
	j, ok := js.jobs[id]
	if !ok || j.State != JobRunning {
		return ArchiveJob{}, false
	}
	j.Done, j.Pages = max(j.Done, p.Done), max(j.Pages, p.Pages)
	if p.Total > 0 {
		j.Total = p.Total
	}
	if j.Op == "import" {
		j.Bytes = max(j.Bytes, p.Done)
	}
	j.Note = p.Note
	j.stamp()
	return j.ArchiveJob, true
}

func (j *archiveJob) stamp() {
	el := time.Since(j.start)
	j.ElapsedMs = el.Milliseconds()
	if s := el.Seconds(); s > 0 {
		j.Rate, j.ByteRate = float64(j.Pages)/s, float64(j.Bytes)/s
	}
}

func (js *archiveJobs) finish(id int64, ctx context.Context, end jobEnd, err error) ArchiveJob {
	js.mu.Lock()
	defer js.mu.Unlock()
	j := js.jobs[id]
	j.State, j.Note = JobDone, ""
	switch {
	case err != nil && ctx.Err() != nil:
		j.State = JobCancelled
	case err != nil:
		j.State, j.Error = JobFailed, err.Error()
	}
	j.CrawlID = max(j.CrawlID, end.crawlID)
	j.Import, j.Export = end.imp, end.exp
	j.Bytes = max(j.Bytes, end.bytes)
	if end.imp != nil {
		j.Pages = max(j.Pages, int64(end.imp.Pages))
		j.Done = max(j.Done, end.imp.Bytes)
	}
	if end.exp != nil {
		j.Pages = max(j.Pages, int64(end.exp.Responses))
	}
	j.stamp()
	js.trim()
	return j.ArchiveJob
}

// trim forgets the oldest ended jobs beyond maxEndedJobs.
func (js *archiveJobs) trim() {
	var ended []int64
	for id, j := range js.jobs {
		if j.State != JobRunning {
			ended = append(ended, id)
		}
	}
	sort.Slice(ended, func(a, b int) bool { return ended[a] < ended[b] })
	for len(ended) > maxEndedJobs {
		delete(js.jobs, ended[0])
		ended = ended[1:]
	}
}

// cancel stops job id; its work ends cleanly (see ImportArchive and ExportArchive).
func (js *archiveJobs) cancel(id int64) error {
	js.mu.Lock()
	defer js.mu.Unlock()
	j, ok := js.jobs[id]
	if !ok {
		return &Error{Code: CodeNotFound, Message: fmt.Sprintf("no import or export job %d", id)}
	}
	if j.State == JobRunning {
		_ = js.run.Cancel(id, nil) // ended meanwhile: nothing to stop
	}
	return nil
}

// list returns the jobs, newest first.
func (js *archiveJobs) list() []ArchiveJob {
	js.mu.Lock()
	defer js.mu.Unlock()
	out := make([]ArchiveJob, 0, len(js.jobs))
	for _, j := range js.jobs {
		if j.State == JobRunning {
			j.stamp()
		}
		out = append(out, j.ArchiveJob)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].ID > out[b].ID })
	return out
}

// close cancels every running job and waits for them to end; it starts no job after.
func (js *archiveJobs) close() { js.run.Close(nil) }

func (a *App) emitJob(j ArchiveJob) { a.emit(EventArchiveJob, j) }

// archiveJobs returns the open workspace's jobs.
func (a *App) archiveJobs() *archiveJobs { return a.ws().archives }

// StartImport starts reading the file at path (a WARC file or a WWWW archive, recognised
// from its contents) into the workspace as a crawl of its own, and returns the job at once;
// progress and the end arrive as "archive:job" events. Cancelled, it keeps the pages it
// committed whole (each archived response is one transaction) and ends its crawl as
// cancelled; importing the file again adds what is missing and duplicates nothing.
func (a *App) StartImport(path string) (result ArchiveJob, _ error) {
	defer lists(&result)
	path, err := archivePath(path)
	if err != nil {
		return ArchiveJob{}, err
	}
	return a.startImport(path, filepath.Base(path), path, nil)
}

// startImport starts the import of the file at path, shown as name (and shownPath).
func (a *App) startImport(path, name, shownPath string, cleanup func()) (ArchiveJob, error) {
	f, size, err := detectArchive(path)
	if err != nil {
		if cleanup != nil {
			cleanup()
		}
		return ArchiveJob{}, err
	}
	w := a.ws()
	return w.archives.start(ArchiveJob{Op: "import", Format: f.Name, Name: name, Path: shownPath, Total: size},
		func(ctx context.Context, update func(archive.Progress)) (jobEnd, error) {
			rep, err := archive.ImportFile(ctx, w.st, path, f.Name,
				archive.ImportOptions{Name: name, Progress: update, Index: w.idx})
			return jobEnd{crawlID: rep.CrawlID, imp: &rep, bytes: rep.Bytes}, err
		}, cleanup, a.emitJob)
}

// detectArchive opens the file at path and recognises its format.
func detectArchive(path string) (archive.Format, int64, error) {
	file, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return archive.Format{}, 0, &Error{Code: CodeNotFound, Message: err.Error()}
	}
	if err != nil {
		return archive.Format{}, 0, &Error{Code: CodeInvalid, Message: err.Error()}
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil || fi.IsDir() {
		return archive.Format{}, 0, &Error{Code: CodeInvalid, Message: path + " is not a file"}
	}
	head := make([]byte, archive.HeadSize)
	n, _ := io.ReadFull(file, head)
	f, err := archive.Detect(path, head[:n])
	if err != nil {
		return f, 0, &Error{Code: CodeInvalid, Message: err.Error()}
	}
	return f, fi.Size(), nil
}

// StartExport starts writing a crawl (0: every page of the workspace) to the file at path in
// a format (warc, wwww) and returns the job at once; progress and the end arrive as
// "archive:job" events. The file appears whole or not at all: cancelled or failed, the
// partial file beside path is removed.
func (a *App) StartExport(crawlID int64, format, path string) (result ArchiveJob, _ error) {
	defer lists(&result)
	f, err := archive.Lookup(format)
	if err != nil {
		return ArchiveJob{}, &Error{Code: CodeInvalid, Message: err.Error()}
	}
	if path, err = archivePath(path); err != nil {
		return ArchiveJob{}, err
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return ArchiveJob{}, &Error{Code: CodeNotFound, Message: "no folder " + filepath.Dir(path)}
	}
	w := a.ws()
	return w.archives.start(ArchiveJob{Op: "export", Format: f.Name, Name: filepath.Base(path), Path: path, CrawlID: crawlID},
		func(ctx context.Context, update func(archive.Progress)) (jobEnd, error) {
			rep, err := archive.ExportFile(ctx, w.st, f, path, archive.ExportOptions{CrawlID: crawlID, Progress: update})
			return jobEnd{crawlID: crawlID, exp: &rep, bytes: rep.Bytes}, err
		}, nil, a.emitJob)
}

// CancelArchiveJob stops an import or export job.
func (a *App) CancelArchiveJob(id int64) error { return a.archiveJobs().cancel(id) }

// ArchiveJobs lists the workspace's import and export jobs, running and recently ended,
// newest first.
func (a *App) ArchiveJobs() (result []ArchiveJob) {
	defer lists(&result)
	return a.archiveJobs().list()
}

// ChooseImportFile asks for an archive to import with the window's file dialog; "" when the
// user cancels. The browser front door uploads the file instead (see ArchiveHandler).
func (a *App) ChooseImportFile() (string, error) {
	if a.dialogs == nil {
		return "", &Error{Code: CodeUnavailable, Message: "file dialogs exist only in the desktop window: upload the file"}
	}
	path, err := a.dialogs.OpenArchive("Import an archive")
	if err != nil {
		return "", apiError(err)
	}
	return path, nil
}

// ChooseExportFile asks where to export with the window's save dialog, suggesting a name
// for the crawl (0: the workspace) in the format; "" when the user cancels. The browser
// front door downloads the export instead (see ArchiveHandler).
func (a *App) ChooseExportFile(crawlID int64, format string) (string, error) {
	f, err := archive.Lookup(format)
	if err != nil {
		return "", &Error{Code: CodeInvalid, Message: err.Error()}
	}
	if a.dialogs == nil {
		return "", &Error{Code: CodeUnavailable, Message: "file dialogs exist only in the desktop window: download the export"}
	}
	path, err := a.dialogs.SaveDocument("Export as "+f.Title, exportName(crawlID, f))
	if err != nil {
		return "", apiError(err)
	}
	return path, nil
}

// exportName is the file name suggested for an export.
func exportName(crawlID int64, f archive.Format) string {
	what := "workspace"
	if crawlID != 0 {
		what = fmt.Sprintf("crawl-%d", crawlID)
	}
	return fmt.Sprintf("mundaneum-%s-%s%s", what, time.Now().UTC().Format("20060102"), f.Extensions[0])
}

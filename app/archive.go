package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"mundaneum/backend/archive"
)

// EventArchiveProgress reports an import or an export under way (payload: ArchiveProgress).
const EventArchiveProgress = "archive:progress"

// ArchiveFormat is a file format crawls go out and come in as.
type ArchiveFormat struct {
	Name       string   `json:"name"`
	Title      string   `json:"title"`
	Extensions []string `json:"extensions"`
}

// ArchiveProgress is how far an import or export has gone.
type ArchiveProgress struct {
	Op    string `json:"op"` // "import" or "export"
	Path  string `json:"path"`
	Done  int64  `json:"done"` // bytes read (import) or versions written (export)
	Total int64  `json:"total"`
	Pages int64  `json:"pages"`
	Note  string `json:"note"`
}

// ArchiveFormats lists the formats, by name.
func (a *App) ArchiveFormats() []ArchiveFormat {
	var out []ArchiveFormat
	for _, f := range archive.Formats() {
		out = append(out, ArchiveFormat{Name: f.Name, Title: f.Title, Extensions: f.Extensions})
	}
	return out
}

// archivePath checks a file name typed or picked for an import or an export.
func archivePath(path string) (string, error) {
	path = strings.TrimSpace(path)
	if path == "" {
		return "", &Error{Code: CodeInvalid, Message: "give the file's path"}
	}
	if strings.HasPrefix(path, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, path[2:])
		}
	}
	return filepath.Abs(path)
}

func (a *App) archiveProgress(op, path string) func(archive.Progress) {
	return func(p archive.Progress) {
		a.emit(EventArchiveProgress, ArchiveProgress{Op: op, Path: path, Done: p.Done, Total: p.Total, Pages: p.Pages, Note: p.Note})
	}
}

// ExportArchive writes a crawl (0: every page of the workspace) to the file at path in a
// format (warc, wwww); the file appears whole or not at all. Progress arrives as
// "archive:progress" events.
func (a *App) ExportArchive(crawlID int64, format, path string) (archive.ExportReport, error) {
	f, err := archive.Lookup(format)
	if err != nil {
		return archive.ExportReport{}, &Error{Code: CodeInvalid, Message: err.Error()}
	}
	if path, err = archivePath(path); err != nil {
		return archive.ExportReport{}, err
	}
	rep, err := archive.ExportFile(context.Background(), a.ws().st, f, path,
		archive.ExportOptions{CrawlID: crawlID, Progress: a.archiveProgress("export", path)})
	if err != nil {
		return rep, apiError(err)
	}
	return rep, nil
}

// ImportArchive reads the file at path (a WARC file or a WWWW archive, recognised from its
// contents) into the workspace as a crawl of its own; records it cannot read are listed in
// the report. Progress arrives as "archive:progress" events.
func (a *App) ImportArchive(path string) (archive.ImportReport, error) {
	path, err := archivePath(path)
	if err != nil {
		return archive.ImportReport{}, err
	}
	rep, err := archive.ImportFile(context.Background(), a.ws().st, path, "",
		archive.ImportOptions{Progress: a.archiveProgress("import", path), Index: a.ws().idx})
	switch {
	case errors.Is(err, archive.ErrFormat):
		return rep, &Error{Code: CodeInvalid, Message: err.Error()}
	case errors.Is(err, os.ErrNotExist):
		return rep, &Error{Code: CodeNotFound, Message: err.Error()}
	case err != nil:
		return rep, apiError(err)
	}
	return rep, nil
}

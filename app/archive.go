package app

import (
	"os"
	"path/filepath"
	"strings"

	"mundaneum/backend/archive"
)

// ArchiveFormat is a file format crawls go out and come in as.
type ArchiveFormat struct {
	Name       string   `json:"name"`
	Title      string   `json:"title"`
	Extensions []string `json:"extensions"`
}

// ArchiveFormats lists the formats, by name.
func (a *App) ArchiveFormats() (result []ArchiveFormat) {
	defer lists(&result)
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

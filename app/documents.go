package app

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// openFile hands a file to the desktop's viewer for its type; tests replace it.
var openFile = func(path string) error {
	cmd := exec.Command("xdg-open", path)
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() // reap it; the viewer outlives the opener
	return nil
}

// OpenDocument opens a page's offline copy of a PDF in the system's PDF viewer: the stored
// blob is written to a private temporary file (named by the page's id, never by anything
// the server said) and handed to xdg-open. Only PDFs are opened this way, recognised by
// their content: an HTML or SVG file opened from disk would run its scripts in a browser.
// A page without a stored PDF is refused (invalid); a machine without a display cannot
// (unavailable).
func (a *App) OpenDocument(id int64) error {
	ctx := context.Background()
	body, _, _, err := a.ws().st.Body(ctx, id)
	if err != nil {
		return apiError(err)
	}
	if !bytes.HasPrefix(body, []byte("%PDF-")) {
		return &Error{Code: CodeInvalid, Message: "the offline copy is not a PDF"}
	}
	if !HasDisplay() {
		return &Error{Code: CodeUnavailable, Message: "no display to open a viewer on"}
	}
	path, err := writeDocument(id, body)
	if err != nil {
		return apiError(err)
	}
	if err := openFile(path); err != nil {
		return &Error{Code: CodeUnavailable, Message: fmt.Sprintf("no PDF viewer could be started: %v", err)}
	}
	return nil
}

// writeDocument writes a stored document to a file of its own in a private directory
// (0700, the file 0400), so that no other user reads or swaps it before the viewer opens it.
func writeDocument(id int64, body []byte) (string, error) {
	dir, err := os.MkdirTemp("", "mundaneum-open-")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, fmt.Sprintf("page-%d.pdf", id))
	if err := os.WriteFile(path, body, 0o400); err != nil {
		return "", err
	}
	return path, nil
}

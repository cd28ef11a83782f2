package app

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"time"
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
	body, err := a.storedPDF(context.Background(), id)
	if err != nil {
		return err
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

// DocumentPath is where serve shows a stored PDF to the browser's own PDF viewer, to the
// holder of a ticket (see DocumentHandler).
const DocumentPath = "/document"

// documentTicketLife is how long a ticket lets its PDF be read (a viewer may ask for it
// again, say after a reload).
const documentTicketLife = 2 * time.Minute

// documentPolicy is the Content-Security-Policy of a stored PDF served to a browser: the
// document is sandboxed (an opaque origin, no scripts, forms or plug-ins of its own), which
// Chromium's PDF viewer honours while it shows the PDF (checked in e2e/documents).
const documentPolicy = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'"

// docTickets are the tickets serve has issued for stored PDFs: each names one page and
// expires soon. The address of a PDF's tab holds its ticket, never the front door's token,
// so a PDF's own scripts (its viewer may run some) cannot learn anything that opens the API.
type docTickets struct {
	mu sync.Mutex
	m  map[string]docTicket
}

type docTicket struct {
	page  int64
	until time.Time
}

// issue returns a new ticket for page, forgetting the expired ones.
func (t *docTickets) issue(page int64, now time.Time) (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	key := base64.RawURLEncoding.EncodeToString(b)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[string]docTicket{}
	}
	for k, d := range t.m {
		if now.After(d.until) {
			delete(t.m, k)
		}
	}
	t.m[key] = docTicket{page: page, until: now.Add(documentTicketLife)}
	return key, nil
}

// page returns the page a live ticket names.
func (t *docTickets) page(key string, now time.Time) (int64, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	d, ok := t.m[key]
	if !ok || now.After(d.until) {
		return 0, false
	}
	return d.page, true
}

// storedPDF returns a page's stored body if it is a PDF by its content.
func (a *App) storedPDF(ctx context.Context, id int64) ([]byte, error) {
	body, _, _, err := a.ws().st.Body(ctx, id)
	if err != nil {
		return nil, apiError(err)
	}
	if !bytes.HasPrefix(body, []byte("%PDF-")) {
		return nil, &Error{Code: CodeInvalid, Message: "the offline copy is not a PDF"}
	}
	return body, nil
}

// documentTicket answers POST /files/document?id=N (behind the front door's token): a
// ticket to page N's stored PDF, as {"url": "/document?ticket=T"}, for a tab of its own.
func (a *App) documentTicket(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.URL.Query().Get("id"), 10, 64)
	if err != nil || id <= 0 {
		writeError(w, &Error{Code: CodeInvalid, Message: "id must be a page id"})
		return
	}
	if _, err := a.storedPDF(r.Context(), id); err != nil {
		writeError(w, err)
		return
	}
	key, err := a.tickets.issue(id, time.Now())
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"url": DocumentPath + "?ticket=" + key})
}

// DocumentHandler answers GET /document?ticket=T in serve: the offline copy of a PDF, shown
// by the browser's PDF viewer as OpenDocument hands it to the system's. Only a body that is
// a PDF by its content is served, always as application/pdf and never sniffed, inline
// under a name made of the page's id, sandboxed by its policy and never cached. It is a
// function, not a method, so that neither front door binds it as API.
func DocumentHandler(a *App) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, &Error{Code: CodeInvalid, Message: "method not allowed"})
			return
		}
		id, ok := a.tickets.page(r.URL.Query().Get("ticket"), time.Now())
		if !ok {
			writeError(w, &Error{Code: CodeNotFound, Message: "no such ticket, or it expired: open the PDF again from its offline copy"})
			return
		}
		body, err := a.storedPDF(r.Context(), id)
		if err != nil {
			writeError(w, err)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "application/pdf")
		h.Set("Content-Disposition", fmt.Sprintf(`inline; filename="page-%d.pdf"`, id))
		h.Set("Content-Security-Policy", documentPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-store")
		h.Set("Content-Length", strconv.Itoa(len(body)))
		if r.Method == http.MethodGet {
			w.Write(body)
		}
	})
}

package app

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"mundaneum/backend/archive"
)

// ArchiveHandler answers the browser front door's file transfers, which the JSON API does not
// carry (app/web serves it under /files/, behind its token):
//
//   - POST /files/import?name=NAME with the file as the body: the upload is streamed to a
//     temporary file, then imported as a job (StartImport's), which removes the file at its
//     end; the answer is the job.
//   - GET /files/export?format=F&crawl=N: the export, streamed as a download while it is
//     written (never held in memory), shown as a job that can be cancelled; a cancelled or
//     failed export breaks the connection, so the browser calls the download failed.
//   - POST /files/document?id=N: a ticket to show page N's stored PDF in a tab of its own
//     (documentTicket; DocumentHandler serves it).
//
// It is a function, not a method, so that neither front door binds it as API.
func ArchiveHandler(a *App) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /files/import", a.uploadImport)
	mux.HandleFunc("GET /files/export", a.downloadExport)
	mux.HandleFunc("POST /files/document", a.documentTicket)
	return mux
}

// maxUpload bounds an uploaded archive (the import's own caps bound each record).
const maxUpload = 64 << 30

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(ListsNotNull(v))
}

func writeError(w http.ResponseWriter, err error) {
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Code: CodeInternal, Message: err.Error()}
	}
	status := http.StatusInternalServerError
	switch e.Code {
	case CodeInvalid:
		status = http.StatusBadRequest
	case CodeNotFound:
		status = http.StatusNotFound
	case CodeUnavailable:
		status = http.StatusServiceUnavailable
	}
	writeJSON(w, status, e)
}

func (a *App) uploadImport(w http.ResponseWriter, r *http.Request) {
	// An upload takes as long as it takes: the server's whole-request read timeout is for
	// API calls.
	http.NewResponseController(w).SetReadDeadline(time.Time{})
	name := filepath.Base(strings.TrimSpace(r.URL.Query().Get("name")))
	if name == "." || name == "/" || name == "" {
		name = "upload"
	}
	tmp, err := os.CreateTemp("", "mundaneum-upload-*-"+sanitizeName(name))
	if err != nil {
		writeError(w, err)
		return
	}
	remove := func() { os.Remove(tmp.Name()) }
	n, err := io.Copy(tmp, http.MaxBytesReader(w, r.Body, maxUpload))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		remove()
		writeError(w, &Error{Code: CodeInvalid, Message: fmt.Sprintf("the upload of %s stopped after %d bytes: %v", name, n, err)})
		return
	}
	j, err := a.startImport(tmp.Name(), name, "", remove)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, j)
}

// sanitizeName keeps a file name's letters, digits, dots and dashes (for temporary files and
// the Content-Disposition header).
func sanitizeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() > 100 {
		return b.String()[:100]
	}
	return b.String()
}

func (a *App) downloadExport(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f, err := archive.Lookup(q.Get("format"))
	if err != nil {
		writeError(w, &Error{Code: CodeInvalid, Message: err.Error()})
		return
	}
	var crawlID int64
	if s := q.Get("crawl"); s != "" && s != "0" {
		if crawlID, err = strconv.ParseInt(s, 10, 64); err != nil || crawlID < 0 {
			writeError(w, &Error{Code: CodeInvalid, Message: "crawl: not a crawl number"})
			return
		}
		if _, err := a.ws().st.Crawl(r.Context(), crawlID); err != nil {
			writeError(w, &Error{Code: CodeNotFound, Message: fmt.Sprintf("no crawl %d", crawlID)})
			return
		}
	}
	name := exportName(crawlID, f)
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Disposition", `attachment; filename="`+sanitizeName(name)+`"`)
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	done := make(chan error, 1)
	_, err = a.ws().archives.start(ArchiveJob{Op: "export", Format: f.Name, Name: name, CrawlID: crawlID},
		func(ctx context.Context, update func(archive.Progress)) (jobEnd, error) {
			ctx, stop := context.WithCancel(ctx)
			defer stop()
			defer context.AfterFunc(r.Context(), stop)() // the browser gave up
			cw := &countWriter{w: w}
			bw := bufio.NewWriterSize(cw, 256<<10)
			rep, err := f.Export(ctx, a.ws().st, bw, archive.ExportOptions{CrawlID: crawlID, Compress: f.Compressed(""),
				Progress: func(p archive.Progress) {
					update(archive.Progress{Done: p.Done, Total: p.Total, Pages: p.Pages, Note: p.Note})
				}})
			if err == nil {
				err = bw.Flush()
			}
			rep.Bytes = cw.n
			done <- err
			return jobEnd{crawlID: crawlID, exp: &rep, bytes: cw.n}, err
		}, nil, a.emitJob)
	if err == nil {
		err = <-done
	}
	if err != nil {
		// The header went out with 200: only a broken connection tells the browser that the
		// file is not whole.
		panic(http.ErrAbortHandler)
	}
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

package exchange

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// Path is where serve offers the workspace's summaries:
//
//	GET /exchange/soif?since=SEQ
//	Authorization: Bearer TOKEN
//
// answers a gzip SOIF stream (Content-Encoding: gzip) of the summaries changed after SEQ
// (0: all), ending with the END template that names the cursor to ask from next time.
const Path = "/exchange/soif"

// MediaType is the stream's Content-Type.
const MediaType = "application/x-soif"

// Handler serves Path. ws returns the workspace open now and the base URL it is served at
// (the window may switch workspaces while serve runs).
func Handler(ws func() (Store, string)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != Path {
			http.NotFound(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		st, base := ws()
		secret, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="mundaneum exchange"`)
			http.Error(w, "a token is needed (Authorization: Bearer TOKEN)", http.StatusUnauthorized)
			return
		}
		if _, err := Check(r.Context(), st, strings.TrimSpace(secret)); err != nil {
			if errors.Is(err, ErrRefused) {
				http.Error(w, "this token is unknown or revoked", http.StatusForbidden)
				return
			}
			http.Error(w, "the workspace could not be read", http.StatusInternalServerError)
			return
		}
		since := int64(0)
		if s := r.URL.Query().Get("since"); s != "" {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n < 0 {
				http.Error(w, "since: a cursor (a number) is expected", http.StatusBadRequest)
				return
			}
			since = n
		}
		w.Header().Set("Content-Type", MediaType)
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Cache-Control", "no-store")
		if r.Method == http.MethodHead {
			return
		}
		// An error half-way leaves the stream without its END template: the receiver
		// refuses it and applies nothing.
		_, _ = ServeStream(r.Context(), st, w, since, base)
	})
}

// ServeStream writes the gzip stream of the summaries after since to w.
func ServeStream(ctx context.Context, st SummaryStore, w io.Writer, since int64, origin string) (ExportReport, error) {
	zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
	rep, err := Export(ctx, st, zw, ExportOptions{After: since, Origin: strings.TrimSuffix(origin, "/") + Path})
	if err != nil {
		return rep, fmt.Errorf("stream: %w", err)
	}
	return rep, zw.Close()
}

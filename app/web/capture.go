package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"

	"mundaneum/app"
	"mundaneum/backend/capture"
	"mundaneum/backend/library"
)

// Capture is the capture API a door serves to browser extensions (app.Capturer satisfies
// it): pairing, where a page is in the library, completions, adding and saving pages.
type Capture interface {
	Pair(ctx context.Context, code, origin, browser string) (capture.Paired, error)
	Authorize(ctx context.Context, token, origin string) (capture.Client, error)
	Workspace() string
	Door() string
	Where(ctx context.Context, url string) (capture.Status, error)
	Libraries(ctx context.Context, query string, limit int) ([]capture.Choice, error)
	Tags(ctx context.Context, prefix string, limit int) ([]library.TagCount, error)
	Add(ctx context.Context, cl capture.Client, in capture.Addition) (capture.Added, error)
	Save(ctx context.Context, cl capture.Client, p capture.Page) (capture.Saved, error)
}

// Body limits of the capture calls: a page's DOM and its envelope, and everything else.
var (
	maxCaptureBody int64 = capture.MaxDOM + library.MaxNotes + 64<<10
	maxSmallBody   int64 = 128 << 10
)

// captureHandler routes the capture API: POST, JSON, under capturePrefix.
func captureHandler(c Capture, logf func(string, ...any)) http.Handler {
	mux := http.NewServeMux()
	// Pages (megabytes each, several times that while sanitised) are taken two at a time:
	// the rest wait, so memory stays bounded whatever arrives.
	h := captureCalls{c: c, logf: logf, pages: make(chan struct{}, 2)}
	mux.Handle(capturePrefix+"pair", h.call(maxSmallBody, h.pair))
	for name, fn := range map[string]func(*http.Request, []byte) (any, error){
		"hello": h.hello, "status": h.status, "libraries": h.libraries, "tags": h.tags,
	} {
		mux.Handle(capturePrefix+name, requireClient(c, h.call(maxSmallBody, fn)))
	}
	mux.Handle(capturePrefix+"add", requireClient(c, h.call(maxCaptureBody, h.add)))
	mux.Handle(capturePrefix+"save", requireClient(c, h.call(maxCaptureBody, h.save)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pattern := mux.Handler(r); pattern == "" {
			fail(w, http.StatusNotFound, codeNotFound, "no such capture call: "+r.URL.Path)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

const codeNotFound = app.CodeNotFound

type captureCalls struct {
	c     Capture
	logf  func(string, ...any)
	pages chan struct{} // slots for the calls that carry a page
}

// call reads a POSTed JSON body of at most limit bytes and answers fn's result as JSON.
func (h captureCalls) call(limit int64, fn func(*http.Request, []byte) (any, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			notAllowed(w, http.MethodPost)
			return
		}
		if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
			fail(w, http.StatusUnsupportedMediaType, codeInvalid, "the body must be application/json")
			return
		}
		if limit > maxSmallBody {
			select {
			case h.pages <- struct{}{}:
				defer func() { <-h.pages }()
			case <-r.Context().Done():
				return
			}
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				fail(w, http.StatusRequestEntityTooLarge, codeTooLarge, fmt.Sprintf("the body exceeds %d bytes", limit))
				return
			}
			fail(w, http.StatusBadRequest, codeInvalid, "read body: "+err.Error())
			return
		}
		out, err := fn(r, body)
		var bad *callError
		if errors.As(err, &bad) {
			fail(w, http.StatusBadRequest, codeInvalid, bad.Error())
			return
		}
		if err != nil {
			status, code, msg := httpError(err)
			if status >= 500 {
				h.logf("web: %s: %v", r.URL.Path, err)
			}
			fail(w, status, code, msg)
			return
		}
		writeJSON(w, out, h.logf)
	})
}

// decode reads a call's JSON object strictly into v.
func decode(body []byte, v any) error {
	if err := strictDecode(body, v); err != nil {
		return &callError{err}
	}
	return nil
}

// callError is a malformed call: 400.
type callError struct{ err error }

func (e *callError) Error() string { return e.err.Error() }

type pairIn struct {
	Code    string `json:"code"`
	Browser string `json:"browser"`
}

type pairOut struct {
	Token     string `json:"token"`
	ClientID  int64  `json:"clientId"`
	Workspace string `json:"workspace"`
	Door      string `json:"door"`
}

// pair exchanges a pairing code for a token; the Origin must be an extension's (checked
// by capture.Pair, which records it).
func (h captureCalls) pair(r *http.Request, body []byte) (any, error) {
	var in pairIn
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	origin, ok := oneOrigin(r)
	if !ok {
		return nil, errForbidden("pairing is open to browser extensions only")
	}
	p, err := h.c.Pair(r.Context(), in.Code, origin, in.Browser)
	if err != nil {
		return nil, err
	}
	return pairOut{Token: p.Token, ClientID: p.Client.ID, Workspace: h.c.Workspace(), Door: h.c.Door()}, nil
}

type helloOut struct {
	Workspace string `json:"workspace"`
	Door      string `json:"door"` // "window" or "serve"
	ClientID  int64  `json:"clientId"`
	Browser   string `json:"browser"`
}

func (h captureCalls) hello(r *http.Request, body []byte) (any, error) {
	var in struct{}
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	cl := clientOf(r)
	return helloOut{Workspace: h.c.Workspace(), Door: h.c.Door(), ClientID: cl.ID, Browser: cl.Browser}, nil
}

type placeOut struct {
	ID        int64  `json:"id"`
	LibraryID int64  `json:"libraryId"`
	Library   string `json:"library"`
	Title     string `json:"title"`
}

type pageOut struct {
	ID        int64  `json:"id"`
	Title     string `json:"title"`
	State     string `json:"state"`
	FetchedAt string `json:"fetchedAt"`
	Copy      bool   `json:"copy"`
}

type statusOut struct {
	URL    string     `json:"url"`
	Places []placeOut `json:"places"`
	Page   *pageOut   `json:"page"`
}

func placeDTO(p capture.Place) placeOut {
	return placeOut{ID: p.ID, LibraryID: p.LibraryID, Library: p.Library, Title: p.Title}
}

func (h captureCalls) status(r *http.Request, body []byte) (any, error) {
	var in struct {
		URL string `json:"url"`
	}
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	s, err := h.c.Where(r.Context(), in.URL)
	if err != nil {
		return nil, err
	}
	out := statusOut{URL: s.URL, Places: make([]placeOut, 0, len(s.Places))}
	for _, p := range s.Places {
		out.Places = append(out.Places, placeDTO(p))
	}
	if k := s.Known; k != nil {
		out.Page = &pageOut{ID: k.PageID, Title: k.Title, State: k.State, FetchedAt: millis(k.FetchedAt), Copy: k.Copy}
	}
	return out, nil
}

type choiceOut struct {
	ID     int64  `json:"id"`
	Path   string `json:"path"`
	Recent bool   `json:"recent"`
}

func (h captureCalls) libraries(r *http.Request, body []byte) (any, error) {
	var in struct {
		Query string `json:"query"`
		Limit int    `json:"limit"`
	}
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	cs, err := h.c.Libraries(r.Context(), in.Query, in.Limit)
	if err != nil {
		return nil, err
	}
	out := make([]choiceOut, 0, len(cs))
	for _, c := range cs {
		out = append(out, choiceOut{ID: c.ID, Path: c.Path, Recent: c.Recent})
	}
	return out, nil
}

type tagOut struct {
	Tag   string `json:"tag"`
	Count int    `json:"count"`
}

func (h captureCalls) tags(r *http.Request, body []byte) (any, error) {
	var in struct {
		Prefix string `json:"prefix"`
		Limit  int    `json:"limit"`
	}
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	ts, err := h.c.Tags(r.Context(), in.Prefix, in.Limit)
	if err != nil {
		return nil, err
	}
	out := make([]tagOut, 0, len(ts))
	for _, t := range ts {
		out = append(out, tagOut{Tag: t.Tag, Count: t.Count})
	}
	return out, nil
}

// shownIn is the page as the browser shows it, sent with an addition.
type shownIn struct {
	Title string `json:"title"`
	DOM   string `json:"dom"`
}

type addIn struct {
	URL       string   `json:"url"`
	Title     string   `json:"title"`
	Notes     string   `json:"notes"`
	Tags      []string `json:"tags"`
	LibraryID int64    `json:"libraryId"`
	Library   string   `json:"library"`
	Page      *shownIn `json:"page"`
}

type savedOut struct {
	PageID  int64  `json:"pageId"`
	Title   string `json:"title"`
	Changed bool   `json:"changed"`
	Bytes   int    `json:"bytes"`
}

type addOut struct {
	Place    placeOut  `json:"place"`
	Existing bool      `json:"existing"`
	AlsoIn   []string  `json:"alsoIn"`
	Saved    *savedOut `json:"saved"`
}

func savedDTO(s capture.Saved) *savedOut {
	return &savedOut{PageID: s.PageID, Title: s.Title, Changed: s.Changed, Bytes: s.Bytes}
}

func (h captureCalls) add(r *http.Request, body []byte) (any, error) {
	var in addIn
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	a := capture.Addition{URL: in.URL, Title: in.Title, Notes: in.Notes, Tags: in.Tags, LibraryID: in.LibraryID, Library: in.Library}
	if in.Page != nil {
		a.Page = &capture.Page{URL: in.URL, Title: in.Page.Title, DOM: in.Page.DOM}
	}
	res, err := h.c.Add(r.Context(), clientOf(r), a)
	if err != nil {
		return nil, err
	}
	out := addOut{Place: placeDTO(res.Place), Existing: res.Existing, AlsoIn: res.AlsoIn}
	if res.Saved != nil {
		out.Saved = savedDTO(*res.Saved)
	}
	return out, nil
}

func (h captureCalls) save(r *http.Request, body []byte) (any, error) {
	var in struct {
		URL   string `json:"url"`
		Title string `json:"title"`
		DOM   string `json:"dom"`
	}
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	s, err := h.c.Save(r.Context(), clientOf(r), capture.Page{URL: in.URL, Title: in.Title, DOM: in.DOM})
	if err != nil {
		return nil, err
	}
	return savedDTO(s), nil
}

func errForbidden(msg string) error { return &app.Error{Code: app.CodeForbidden, Message: msg} }

// writeJSON answers v as JSON, never cached.
func writeJSON(w http.ResponseWriter, v any, logf func(string, ...any)) {
	b, err := json.Marshal(app.ListsNotNull(v))
	if err != nil {
		logf("web: encode result: %v", err)
		fail(w, http.StatusInternalServerError, app.CodeInternal, "encode result: "+err.Error())
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.Write(b)
}

func millis(ms int64) string {
	if ms == 0 {
		return ""
	}
	return time.UnixMilli(ms).UTC().Format(time.RFC3339)
}

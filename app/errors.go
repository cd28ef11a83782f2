package app

import (
	"encoding/json"
	"errors"

	"mundaneum/backend/check"
	"mundaneum/backend/check/momfile"
	"mundaneum/backend/crawl"
	"mundaneum/backend/jobs"
	"mundaneum/backend/library"
	"mundaneum/backend/search"
	"mundaneum/backend/store"
)

// Error codes the UI can act on (a closed set; never match messages).
const (
	CodeInvalid     = "invalid"      // the request was wrong: fix the input
	CodeNotFound    = "not-found"    // the thing asked for does not exist
	CodeConflict    = "conflict"     // the state forbids it now (e.g. already running)
	CodeUnavailable = "unavailable"  // this front door cannot do it (e.g. file dialogs in a browser)
	CodeForbidden   = "forbidden"    // a password is needed, or the one given is wrong
	CodeLimited     = "rate-limited" // too many wrong passwords: wait (serve --public)
	CodeInternal    = "internal"     // anything else
)

// Error is what bound methods return: its message is JSON {"code", "message"} so that the
// frontend's src/api can recover the code from Wails' string rejection.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string {
	b, _ := json.Marshal(e)
	return string(b)
}

// apiError maps a backend error to an Error with a code (nil stays nil).
func apiError(err error) error {
	if err == nil {
		return nil
	}
	code := CodeInternal
	switch {
	case errors.Is(err, crawl.ErrConfig), errors.Is(err, check.ErrBadTask), errors.Is(err, momfile.ErrSyntax):
		code = CodeInvalid
	case errors.Is(err, search.ErrBadView), errors.Is(err, library.ErrInvalid):
		code = CodeInvalid
	case errors.Is(err, jobs.ErrClosing):
		code = CodeUnavailable
	case errors.Is(err, library.ErrPassword):
		code = CodeForbidden
	case errors.Is(err, library.ErrNotYours), errors.Is(err, library.ErrGuest):
		code = CodeConflict // no password helps: someone else's change, a guest outside the open libraries
	case errors.Is(err, library.ErrSlowDown):
		code = CodeLimited
	case errors.Is(err, library.ErrConflict):
		code = CodeConflict
	case errors.Is(err, library.ErrNotFound):
		code = CodeNotFound
	case errors.Is(err, store.ErrNotFound), errors.Is(err, search.ErrNoView):
		code = CodeNotFound
	case errors.Is(err, crawl.ErrRunning), errors.Is(err, crawl.ErrNotRunning), errors.Is(err, check.ErrRunning),
		errors.Is(err, jobs.ErrRunning), errors.Is(err, jobs.ErrNotRunning),
		errors.Is(err, store.ErrExists), errors.Is(err, search.ErrViewExists):
		code = CodeConflict
	}
	return &Error{Code: code, Message: err.Error()}
}

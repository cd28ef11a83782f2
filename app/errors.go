package app

import (
	"encoding/json"
	"errors"

	"mundaneum/backend/crawl"
	"mundaneum/backend/search"
	"mundaneum/backend/store"
)

// Error codes the UI can act on (a closed set; never match messages).
const (
	CodeInvalid     = "invalid"     // the request was wrong: fix the input
	CodeNotFound    = "not-found"   // the thing asked for does not exist
	CodeConflict    = "conflict"    // the state forbids it now (e.g. already running)
	CodeUnavailable = "unavailable" // this front door cannot do it (e.g. file dialogs in a browser)
	CodeInternal    = "internal"    // anything else
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
	case errors.Is(err, crawl.ErrConfig):
		code = CodeInvalid
	case errors.Is(err, search.ErrBadView):
		code = CodeInvalid
	case errors.Is(err, store.ErrNotFound), errors.Is(err, search.ErrNoView):
		code = CodeNotFound
	case errors.Is(err, crawl.ErrRunning), errors.Is(err, crawl.ErrNotRunning), errors.Is(err, search.ErrViewExists):
		code = CodeConflict
	}
	return &Error{Code: code, Message: err.Error()}
}

// Package capture is what a browser sends to Mundaneum: a page to add to the library (with
// its selected text as a note) and "the page as I see it", the DOM the browser rendered,
// stored as the page's newest version so that logged-in and script-built pages are kept as
// they were read. It also pairs browsers: a one-time code shown in Settings is exchanged
// for a token bound to the extension's Origin, and every later call must present both.
//
// Everything that arrives here is untrusted: titles and notes are stored literally (as
// text; whoever shows them escapes them), the DOM goes through the sanitiser before it is
// stored (backend/sanitize), sizes are bounded, only http(s) pages are taken. The HTTP door
// in front of it (app/web) checks the token and the Origin before calling in.
package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"mundaneum/backend/library"
	"mundaneum/backend/store"
)

// Limits of what a browser may send.
const (
	// MaxDOM bounds a page's serialised DOM. A long article is a few hundred KiB, a
	// script-heavy application page a few MiB (mostly inline scripts and styles the
	// sanitiser drops).
	MaxDOM = 16 << 20
	// MaxBrowser bounds the name a browser gives itself at pairing.
	MaxBrowser = 200
	// MaxChoices bounds the answers of the pickers' completions.
	MaxChoices = 50
)

// Errors of the capture; each wraps into the app's error codes.
var (
	// ErrInvalid: the request is malformed or breaks a limit.
	ErrInvalid = library.ErrInvalid
	// ErrForbidden: no pairing, a wrong or expired code or token, or a foreign Origin.
	ErrForbidden = errors.New("forbidden")
	// ErrTooLarge: the page's DOM is over MaxDOM.
	ErrTooLarge = fmt.Errorf("%w: too large", library.ErrInvalid)
)

// Store is what capture needs of the workspace; *store.Store satisfies it.
type Store interface {
	library.Store
	AddCaptureClient(ctx context.Context, origin, browser, tokenHash string) (store.CaptureClient, error)
	CaptureClientByHash(ctx context.Context, tokenHash string) (store.CaptureClient, error)
	CaptureUsed(ctx context.Context, id, at int64) error
	LibLibraries(ctx context.Context) ([]library.Node, error)
	LibRecentLibraries(ctx context.Context, limit int) ([]int64, error)
	LibPointersTo(ctx context.Context, key string) ([]library.Node, error)
	PageID(ctx context.Context, url string) (int64, error)
	Page(ctx context.Context, id int64) (store.Page, error)
	FindCrawl(ctx context.Context, key string) (store.Crawl, error)
	CreateCrawl(ctx context.Context, key string, seeds []string, scope string, config json.RawMessage) (store.Crawl, error)
	FinishRun(ctx context.Context, id int64, state, errText, note string) error
	ImportResult(ctx context.Context, r *store.Result, t store.Target, keepContent bool) (store.ImportOutcome, error)
	Writer() *store.Writer
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

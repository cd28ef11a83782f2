package app

import (
	"context"
	"errors"
	"net/http"
	"sync"

	"mundaneum/backend/exchange"
)

// Events of a pull from a source (payload: PullProgress).
const (
	EventPullProgress = "source:progress"
	EventPullDone     = "source:done"
)

// PullProgress is how far a pull from a source has gone; the last one (source:done) has
// the report or the error.
type PullProgress struct {
	SourceID  int64                  `json:"sourceId"`
	Phase     string                 `json:"phase"` // download, apply, done
	Templates int64                  `json:"templates"`
	Total     int64                  `json:"total"`
	Bytes     int64                  `json:"bytes"`
	Applied   int64                  `json:"applied"`
	Seconds   float64                `json:"seconds"`
	Report    *exchange.ImportReport `json:"report,omitempty"`
	Error     string                 `json:"error,omitempty"`
}

// pulls are the pulls under way, by source id, with how to cancel each.
var pulls = struct {
	sync.Mutex
	cancel map[int64]context.CancelFunc
}{cancel: map[int64]context.CancelFunc{}}

func exchangeAPIError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, exchange.ErrInvalid):
		return &Error{Code: CodeInvalid, Message: err.Error()}
	case errors.Is(err, exchange.ErrNotFound):
		return &Error{Code: CodeNotFound, Message: err.Error()}
	}
	return apiError(err)
}

// ExchangeTokens lists the read-only tokens issued to other instances (never their secrets).
func (a *App) ExchangeTokens() (result []exchange.Token, _ error) {
	defer lists(&result)
	ts, err := exchange.Tokens(context.Background(), a.ws().st)
	return ts, exchangeAPIError(err)
}

// IssueExchangeToken issues a token for name; its secret is in the answer, and only there.
func (a *App) IssueExchangeToken(name string) (exchange.Token, error) {
	t, err := exchange.Issue(context.Background(), a.ws().st, name)
	return t, exchangeAPIError(err)
}

// RevokeExchangeToken ends token id: pulls with it are refused from now on.
func (a *App) RevokeExchangeToken(id int64) error {
	return exchangeAPIError(exchange.Revoke(context.Background(), a.ws().st, id))
}

// Sources lists the instances and SOIF files summaries came from.
func (a *App) Sources() (result []exchange.Source, _ error) {
	defer lists(&result)
	ss, err := exchange.List(context.Background(), a.ws().st)
	return ss, exchangeAPIError(err)
}

// AddSource adds another instance (the address its serve prints) with the token it issued.
func (a *App) AddSource(url, token string) (exchange.Source, error) {
	s, err := exchange.AddPeer(context.Background(), a.ws().st, url, token)
	return s, exchangeAPIError(err)
}

// RemoveSource forgets a source; its pages stay, no longer marked.
func (a *App) RemoveSource(id int64) error {
	return exchangeAPIError(exchange.Remove(context.Background(), a.ws().st, id))
}

// PullSource starts a pull of what changed at source id since its last pull; progress
// arrives as source:progress events and the outcome as source:done. CancelPull stops it,
// with nothing of the stream applied that was not checked whole, and the cursor kept.
func (a *App) PullSource(id int64) error {
	ws := a.ws()
	if _, err := exchange.Get(context.Background(), ws.st, id); err != nil {
		return exchangeAPIError(err)
	}
	pulls.Lock()
	if _, busy := pulls.cancel[id]; busy {
		pulls.Unlock()
		return &Error{Code: CodeConflict, Message: "this source is being pulled already"}
	}
	ctx, cancel := context.WithCancel(context.Background())
	pulls.cancel[id] = cancel
	pulls.Unlock()
	go func() {
		defer func() {
			pulls.Lock()
			delete(pulls.cancel, id)
			pulls.Unlock()
			cancel()
		}()
		rep, err := exchange.Pull(ctx, ws.st, ws.idx, id, func(p exchange.Progress) {
			a.emit(EventPullProgress, PullProgress{SourceID: id, Phase: p.Phase, Templates: p.Templates, Total: p.Total,
				Bytes: p.Bytes, Applied: p.Applied, Seconds: p.Elapsed.Seconds()})
		})
		done := PullProgress{SourceID: id, Phase: "done", Templates: int64(rep.Templates), Total: int64(rep.Templates),
			Bytes: rep.Bytes, Applied: int64(rep.Applied), Seconds: rep.Seconds, Report: &rep}
		if err != nil {
			done.Error = err.Error()
			if ctx.Err() != nil {
				done.Error = "cancelled: nothing more was applied, the next pull asks again from the same place"
			}
		}
		a.emit(EventPullDone, done)
	}()
	return nil
}

// CancelPull stops the pull of source id.
func (a *App) CancelPull(id int64) error {
	pulls.Lock()
	cancel, ok := pulls.cancel[id]
	pulls.Unlock()
	if !ok {
		return &Error{Code: CodeConflict, Message: "this source is not being pulled"}
	}
	cancel()
	return nil
}

// exchangeHandler serves the workspace open now to other instances (see exchange.Path).
func (a *App) exchangeHandler(base func() string) http.Handler {
	return exchange.Handler(func() (exchange.Store, string) { return a.ws().st, base() })
}

// ExchangeHandler is the handler serve mounts at exchange.Path.
func ExchangeHandler(a *App, base func() string) http.Handler { return a.exchangeHandler(base) }

package web

import (
	"context"
	"net/http"
	"strings"

	"mundaneum/backend/capture"
)

// The capture door's lock. Browser extensions call from their own Origin
// (chrome-extension://ID, moz-extension://UUID), which the page API's same-origin rule
// would refuse, so the door takes its requests before that rule and checks them itself:
//
//   - the Host names this server (ServeHTTP and Loopback check it first: DNS rebinding);
//   - /capture/pair needs an extension's Origin and a pairing code shown in Settings;
//   - every other call needs a paired browser's token (Authorization: Bearer) and must
//     come from the Origin that browser paired from (requireClient);
//   - bodies are JSON of bounded size, decoded strictly.
//
// A web page cannot call in: its Origin is its own, set by the browser. The answers carry
// no CORS header, so a page cannot read them either.

// capturePrefix is where the capture API lives.
const capturePrefix = "/capture/"

// isCapturePath reports whether a request is for the capture door.
func isCapturePath(p string) bool { return strings.HasPrefix(p, capturePrefix) }

type clientKey struct{}

// requireClient lets through only the calls of a paired browser: a token it was given,
// sent from the Origin it paired from. The browser is in the request's context for next.
func requireClient(c Capture, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := bearer(r)
		if !ok {
			fail(w, http.StatusForbidden, codeForbidden, "no token: pair this browser in Mundaneum's Settings")
			return
		}
		origin, ok := oneOrigin(r)
		if !ok {
			fail(w, http.StatusForbidden, codeForbidden, "cross-origin requests are refused")
			return
		}
		cl, err := c.Authorize(r.Context(), token, origin)
		if err != nil {
			status, code, msg := httpError(err)
			fail(w, status, code, msg)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientKey{}, cl)))
	})
}

// clientOf returns the paired browser requireClient found.
func clientOf(r *http.Request) capture.Client {
	cl, _ := r.Context().Value(clientKey{}).(capture.Client)
	return cl
}

// bearer returns the token of an "Authorization: Bearer TOKEN" header.
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Values("Authorization")
	if len(h) != 1 {
		return "", false
	}
	scheme, token, ok := strings.Cut(h[0], " ")
	if !ok || !equalFoldASCII(scheme, "Bearer") || token == "" {
		return "", false
	}
	return strings.TrimSpace(token), true
}

// oneOrigin returns the request's Origin header when it sent exactly one.
func oneOrigin(r *http.Request) (string, bool) {
	o := r.Header.Values("Origin")
	if len(o) != 1 {
		return "", false
	}
	return o[0], true
}

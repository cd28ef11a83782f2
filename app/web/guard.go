package web

import (
	"crypto/subtle"
	"encoding/json"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
)

// The policy every response carries. Only the app's own scripts run (no inline script, so
// the bridge is a file), nothing may frame the app, plug-ins are off, and the page may talk
// only to this server. The built index.html has its own <meta> policy for the desktop
// window; both apply in the browser, so a frontend change that needs more (say, a frame for
// offline copies) must loosen both.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; frame-src 'none'; " +
	"worker-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// maxBody caps an API request body: room for the largest library import (a 64 MiB file of
// bookmarks, as a JSON string with its quotes escaped).
var maxBody int64 = 96 << 20

// tokenHeader carries the per-process token on API calls.
const tokenHeader = "X-Mundaneum-Token"

// Error codes of the door itself (the app's own are in app/errors.go).
const (
	codeForbidden = "forbidden"
	codeMethod    = "method-not-allowed"
	codeTooLarge  = "too-large"
	codeSignIn    = "sign-in" // serve --public: this needs the owner, or guests are not let in
)

// ServeHTTP routes a request after the checks every request passes: the Host names this
// server (no DNS rebinding) and the Origin, when sent, is this server's.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	secureHeaders(w.Header())

	if !hostOK(r) {
		fail(w, http.StatusForbidden, codeForbidden, "this server does not answer for host "+strconv.Quote(r.Host))
		return
	}
	// Browser extensions call from their own Origin: the capture door checks its callers
	// itself (captureauth.go).
	if s.capture != nil && isCapturePath(r.URL.Path) {
		s.capture.ServeHTTP(w, r)
		return
	}
	if !originOK(r) {
		fail(w, http.StatusForbidden, codeForbidden, "cross-origin requests are refused")
		return
	}
	r = s.identify(r)
	p := r.URL.Path
	var ok bool
	if h, ok := s.mounts[p]; ok {
		h.ServeHTTP(w, r)
		return
	}
	switch {
	case strings.HasPrefix(p, authPrefix):
		if !sameSite(r) || !s.tokenOK(r, false) {
			fail(w, http.StatusForbidden, codeForbidden, "missing or wrong token")
			return
		}
		if s.auth == nil {
			if p != authPrefix+"session" {
				fail(w, http.StatusNotFound, codeInvalid, "this server has one user and no sign-in (serve without --public)")
				return
			}
			writeJSON(w, sessionInfo{Role: RoleOwner, Guests: "none"}, s.logf)
			return
		}
		s.auth.serve(w, r)
	case p == "/api/events":
		if !sameSite(r) || !s.tokenOK(r, true) {
			fail(w, http.StatusForbidden, codeForbidden, "missing or wrong token")
			return
		}
		if r.Method != http.MethodGet {
			notAllowed(w, http.MethodGet)
			return
		}
		if r, ok = s.admit(w, r); !ok {
			return
		}
		s.events.serve(w, r)
	case s.files != nil && strings.HasPrefix(p, "/files/"):
		if !sameSite(r) || !s.tokenOK(r, r.Method == http.MethodGet) {
			fail(w, http.StatusForbidden, codeForbidden, "missing or wrong token")
			return
		}
		if r, ok = s.admit(w, r); !ok {
			return
		}
		s.files.ServeHTTP(w, r)
	case p == "/api" || strings.HasPrefix(p, "/api/"):
		if !sameSite(r) || !s.tokenOK(r, false) {
			fail(w, http.StatusForbidden, codeForbidden, "missing or wrong token")
			return
		}
		if r, ok = s.admit(w, r); !ok {
			return
		}
		if r.Method != http.MethodPost {
			notAllowed(w, http.MethodPost)
			return
		}
		if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
			fail(w, http.StatusUnsupportedMediaType, codeInvalid, "the body must be application/json")
			return
		}
		s.callAPI(w, r, strings.TrimPrefix(p, "/api/"))
	default:
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			notAllowed(w, "GET, HEAD")
			return
		}
		s.static.serve(w, r)
	}
}

// secureHeaders sets the headers every response carries.
func secureHeaders(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), usb=(), payment=()")
}

// hostOK reports whether the Host header names this server: localhost or a loopback IP, or
// the very address the connection arrived on, with the listening port. Other names are
// refused, so a page whose domain an attacker re-points at 127.0.0.1 gets nothing.
func hostOK(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	lap, err := netip.ParseAddrPort(local.String())
	if err != nil {
		return false
	}
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		// No port: the default one.
		host, port = r.Host, "80"
		if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
			host = host[1 : len(host)-1]
		}
	}
	if port != strconv.Itoa(int(lap.Port())) {
		return false
	}
	if equalFoldASCII(host, "localhost") {
		return lap.Addr().Unmap().IsLoopback()
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || ip.Zone() != "" {
		return false
	}
	ip = ip.Unmap()
	return ip.IsLoopback() || ip == lap.Addr().Unmap().WithZone("")
}

// originOK reports whether the request's Origin, if any, is this server's own: a page on
// another origin (another port, localhost vs 127.0.0.1, a crawled site) is refused.
func originOK(r *http.Request) bool {
	o, sent := r.Header["Origin"]
	if !sent {
		return true
	}
	return len(o) == 1 && equalFoldASCII(o[0], "http://"+r.Host)
}

// sameSite refuses API requests a browser marks as coming from another site or origin
// (Fetch Metadata); older clients send no such header and rely on the token alone.
func sameSite(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
		return true
	}
	return false
}

// tokenOK checks the per-process token: in the header, or for the event stream (an
// EventSource cannot send headers) in the token query parameter.
func (s *Server) tokenOK(r *http.Request, queryToo bool) bool {
	got := r.Header.Get(tokenHeader)
	if got == "" && queryToo {
		got = r.URL.Query().Get("token")
	}
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) == 1
}

// apiError is the body of every failed API call: the same shape as app.Error.
type apiError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func fail(w http.ResponseWriter, status int, code, message string) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(apiError{Code: code, Message: message})
}

func notAllowed(w http.ResponseWriter, allow string) {
	w.Header().Set("Allow", allow)
	fail(w, http.StatusMethodNotAllowed, codeMethod, "method not allowed (use "+allow+")")
}

// equalFoldASCII compares case-insensitively in ASCII only (strings.EqualFold also folds
// Unicode look-alikes such as U+017F into ASCII letters).
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range len(a) {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

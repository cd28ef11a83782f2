package web

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	"mundaneum/app"
)

// The door of `serve --public` (issue 29, item 5). With Options.Door set, the workspace
// has an owner and guests:
//
//   - The owner signs in with the owner's password (POST /_mundaneum/auth/sign-in) and
//     gets a session: an HttpOnly, SameSite=Strict cookie, kept in memory (a restart signs
//     everyone out), ending after ownerIdle without use or ownerLife in all. The owner may
//     call everything.
//   - Guests get a session of their own on their first call, when the owner lets guests
//     read (app.GuestsRead): they call only what Door.GuestMay allows (reading, and the
//     library's changes, which the library limits to the libraries open to guests), each
//     call made as them (the library's undo journal records whose change it is).
//   - Anyone else gets the app's files (its sign-in view among them) and nothing more.
//
// Every state-changing request still passes the checks every request passes (the Host,
// the Origin, Fetch Metadata) and carries the per-process token of the served page, so a
// page on another site can neither read nor forge a call: the cookie is the caller's
// identity, the token proves the call comes from the app's own page. Password attempts
// are metered per client (limit.go). Without a Door (loopback `serve`) there is one user,
// the owner, and nothing here applies.
//
// The middleware: every request is identified first (identify: VisitorOf says who it
// comes from, the owner for every request without a Door), then the API, its events and
// its files pass admit, which lets in only whom the door lets in. A handler of another
// feature (a Mount) is reached by everyone and checks its own callers with VisitorOf.

const (
	authPrefix  = "/_mundaneum/auth/"
	cookieName  = "mundaneum_session"
	ownerIdle   = 12 * time.Hour
	ownerLife   = 7 * 24 * time.Hour
	guestIdle   = 24 * time.Hour
	maxSessions = 10_000
	maxOwners   = 64 // owner sessions kept (each sign-in makes one): the oldest go first
)

// Role is what a visitor may do.
type Role string

// The roles.
const (
	RoleOwner Role = "owner" // everything (also the one user of a loopback serve)
	RoleGuest Role = "guest" // read, and post where the owner opened the library
	RoleNone  Role = "none"  // the app's files and the sign-in
)

// Visitor is who a request comes from.
type Visitor struct {
	Role   Role
	ID     string // the caller's id in the library's journal ("" the owner)
	Name   string // how messages name a guest
	client string // the address password attempts are counted by
}

type visitorKey struct{}

// VisitorOf returns who a request comes from, as the server identified it (no one, for a
// request that did not pass through a Server).
func VisitorOf(r *http.Request) Visitor {
	if v, ok := r.Context().Value(visitorKey{}).(Visitor); ok {
		return v
	}
	return Visitor{Role: RoleNone, client: addressOf(r)}
}

// identify notes who a request comes from: the owner without a door; with one, the
// holder of its session, if any (admit may then make a guest of a newcomer).
func (s *Server) identify(r *http.Request) *http.Request {
	v := Visitor{Role: RoleOwner, client: addressOf(r)}
	if s.auth != nil {
		v.Role = RoleNone
		if ss := s.auth.lookup(r); ss != nil {
			v.Role, v.ID, v.Name = ss.role, ss.id, ss.name
		}
	}
	return r.WithContext(context.WithValue(r.Context(), visitorKey{}, v))
}

type session struct {
	role          Role
	id, name      string
	created, seen time.Time
}

// auth keeps the sessions of serve --public.
type auth struct {
	door     Door
	logf     func(format string, args ...any)
	lim      *limiter
	now      func() time.Time
	mu       sync.Mutex
	sessions map[string]*session // by the SHA-256 of the cookie's value
}

func newAuth(door Door, now func() time.Time, logf func(string, ...any)) *auth {
	return &auth{door: door, logf: logf, lim: newLimiter(now), now: now, sessions: map[string]*session{}}
}

func tokenKey(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// lookup returns the live session of the request's cookie (nil: none).
func (a *auth) lookup(r *http.Request) *session {
	c, err := r.Cookie(cookieName)
	if err != nil || len(c.Value) != 64 {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	key := tokenKey(c.Value)
	s := a.sessions[key]
	if s == nil {
		return nil
	}
	now := a.now()
	idle := guestIdle
	if s.role == RoleOwner {
		idle = ownerIdle
	}
	if now.Sub(s.seen) > idle || (s.role == RoleOwner && now.Sub(s.created) > ownerLife) {
		delete(a.sessions, key)
		return nil
	}
	s.seen = now
	return s
}

// start makes a session of role, sets its cookie and returns it.
func (a *auth) start(w http.ResponseWriter, r *http.Request, role Role) (*session, error) {
	b := make([]byte, 36)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	token, id := hex.EncodeToString(b[:32]), hex.EncodeToString(b[32:])
	now := a.now()
	s := &session{role: role, created: now, seen: now}
	if role == RoleGuest {
		s.id, s.name = "guest:"+id, "guest "+id[:4]
	}
	a.mu.Lock()
	a.evict(role)
	a.sessions[tokenKey(token)] = s
	a.mu.Unlock()
	life := guestIdle
	if role == RoleOwner {
		life = ownerLife
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: token, Path: "/", MaxAge: int(life / time.Second),
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	return s, nil
}

// evict makes room for a session of role: the longest unused of its kind goes.
func (a *auth) evict(role Role) {
	n := 0
	for _, s := range a.sessions {
		if s.role == role {
			n++
		}
	}
	limit := maxSessions
	if role == RoleOwner {
		limit = maxOwners
	}
	if n < limit && len(a.sessions) < maxSessions+maxOwners {
		return
	}
	var oldest string
	var at time.Time
	for k, s := range a.sessions {
		if s.role == role && (oldest == "" || s.seen.Before(at)) {
			oldest, at = k, s.seen
		}
	}
	delete(a.sessions, oldest)
}

// forget forgets the request's session.
func (a *auth) forget(r *http.Request) {
	if c, err := r.Cookie(cookieName); err == nil {
		a.mu.Lock()
		delete(a.sessions, tokenKey(c.Value))
		a.mu.Unlock()
	}
}

// end forgets the request's session and clears its cookie.
func (a *auth) end(w http.ResponseWriter, r *http.Request) {
	a.forget(r)
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
}

// visitor says who the request comes from: its session's holder, a new guest when guests
// may read, or no one.
func (a *auth) visitor(w http.ResponseWriter, r *http.Request, access app.Access) (Visitor, error) {
	v := Visitor{Role: RoleNone, client: addressOf(r)}
	var s *session
	if id := VisitorOf(r); id.Role != RoleNone {
		s = &session{role: id.Role, id: id.ID, name: id.Name}
	} else {
		s = a.lookup(r)
	}
	if s == nil && access.Guests == app.GuestsRead {
		var err error
		if s, err = a.start(w, r, RoleGuest); err != nil {
			return v, err
		}
	}
	switch {
	case s == nil:
	case s.role == RoleOwner:
		v.Role = RoleOwner
	case access.Guests == app.GuestsRead:
		v.Role, v.ID, v.Name = RoleGuest, s.id, s.name
	}
	return v, nil
}

// admit finds who a request to the API, its events or its files comes from and lets it
// through if they may; it answers for itself (false) when they may not.
func (a *auth) admit(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
	access, err := a.door.Access(r.Context())
	if err != nil {
		fail(w, http.StatusInternalServerError, app.CodeInternal, "read the access settings: "+err.Error())
		return r, false
	}
	v, err := a.visitor(w, r, access)
	if err != nil {
		fail(w, http.StatusInternalServerError, app.CodeInternal, err.Error())
		return r, false
	}
	p := r.URL.Path
	ok := v.Role == RoleOwner
	if v.Role == RoleGuest {
		// Guests read, and get tickets to the PDFs they read; the rest of /files is the owner's.
		ok = !strings.HasPrefix(p, "/files/") || p == "/files/document"
	}
	if !ok {
		fail(w, http.StatusUnauthorized, codeSignIn, "sign in as the owner (this workspace lets no guests in)")
		return r, false
	}
	return r.WithContext(context.WithValue(r.Context(), visitorKey{}, v)), true
}

// caller is the app's view of a visitor, with the gate that meters their passwords.
func (a *auth) caller(v Visitor) app.Caller {
	return app.Caller{ID: v.ID, Name: v.Name, Guest: v.Role == RoleGuest, Gate: a.lim.gate(v.client)}
}

// sessionInfo is the answer of GET /_mundaneum/auth/session.
type sessionInfo struct {
	Public   bool   `json:"public"`   // serve --public: the door is locked
	Role     Role   `json:"role"`     // owner, guest or none
	Name     string `json:"name"`     // a guest's name
	Guests   string `json:"guests"`   // what guests may do: none or read
	OwnerSet bool   `json:"ownerSet"` // an owner password is set (one can sign in)
}

// serve answers the door's own requests: the session, sign-in and sign-out.
func (a *auth) serve(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case authPrefix + "session":
		if r.Method != http.MethodGet {
			notAllowed(w, http.MethodGet)
			return
		}
		access, err := a.door.Access(r.Context())
		if err != nil {
			fail(w, http.StatusInternalServerError, app.CodeInternal, err.Error())
			return
		}
		v, err := a.visitor(w, r, access)
		if err != nil {
			fail(w, http.StatusInternalServerError, app.CodeInternal, err.Error())
			return
		}
		writeJSON(w, sessionInfo{Public: true, Role: v.Role, Name: v.Name, Guests: access.Guests, OwnerSet: access.OwnerHash != ""}, a.logf)
	case authPrefix + "sign-in":
		a.signIn(w, r)
	case authPrefix + "sign-out":
		if r.Method != http.MethodPost {
			notAllowed(w, http.MethodPost)
			return
		}
		a.end(w, r)
		writeJSON(w, map[string]bool{"signedOut": true}, a.logf)
	default:
		fail(w, http.StatusNotFound, app.CodeNotFound, "no such page")
	}
}

// maxSignIn bounds a sign-in request's body.
const maxSignIn = 4 << 10

func (a *auth) signIn(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		notAllowed(w, http.MethodPost)
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		fail(w, http.StatusUnsupportedMediaType, codeInvalid, "the body must be application/json")
		return
	}
	var body struct {
		Password string `json:"password"`
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxSignIn))
	if err != nil || json.Unmarshal(b, &body) != nil {
		fail(w, http.StatusBadRequest, codeInvalid, `the body must be {"password": "..."}`)
		return
	}
	access, err := a.door.Access(r.Context())
	if err != nil {
		fail(w, http.StatusInternalServerError, app.CodeInternal, err.Error())
		return
	}
	if access.OwnerHash == "" {
		fail(w, http.StatusConflict, app.CodeConflict, "no owner password is set: start serve --public on a terminal, or with --owner-password-file")
		return
	}
	client := addressOf(r)
	g := a.lim.gate(client)
	leave, err := g.Enter(r.Context())
	if err != nil {
		var sd *slowDown
		if errors.As(err, &sd) {
			a.lim.retryAfter(w, client)
			fail(w, http.StatusTooManyRequests, app.CodeLimited, err.Error())
			return
		}
		fail(w, http.StatusServiceUnavailable, app.CodeUnavailable, err.Error())
		return
	}
	ok := app.CheckOwnerPassword(access, body.Password)
	leave()
	if !ok {
		g.Wrong()
		fail(w, http.StatusForbidden, app.CodeForbidden, "that is not the owner's password")
		return
	}
	a.lim.right(client)
	a.forget(r) // a new session for a new sign-in, never the one the request came with
	if _, err := a.start(w, r, RoleOwner); err != nil {
		fail(w, http.StatusInternalServerError, app.CodeInternal, err.Error())
		return
	}
	writeJSON(w, sessionInfo{Public: true, Role: RoleOwner, Guests: access.Guests, OwnerSet: true}, a.logf)
}

// admit lets a request to the API, its events or its files through (with who it comes from
// in its context) or answers it: under serve --public only those the door lets in pass.
func (s *Server) admit(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
	if s.auth == nil {
		return r, true
	}
	return s.auth.admit(w, r)
}

// callAPI calls a bound method as the request's visitor: the owner may call every one, a
// guest those the door allows, each call made as them.
func (s *Server) callAPI(w http.ResponseWriter, r *http.Request, name string) {
	if s.auth == nil {
		s.api.serve(w, r, name, s.logf, callAs{})
		return
	}
	v := VisitorOf(r)
	if v.Role != RoleOwner && !s.auth.door.GuestMay(name) {
		fail(w, http.StatusUnauthorized, codeSignIn, "only the owner may do this: sign in as the owner")
		return
	}
	c := s.auth.caller(v)
	s.api.serve(w, r, name, s.logf, callAs{
		recv:    func(obj any) any { return s.auth.door.For(obj, c) },
		limited: func(w http.ResponseWriter) { s.auth.lim.retryAfter(w, v.client) },
	})
}

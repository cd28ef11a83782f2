package web

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mundaneum/app"
	"mundaneum/backend/store"
)

// The door of serve --public, over real HTTP on loopback with a real workspace: each
// client is a cookie jar, as a browser is, and sends what the served page would (the
// token, JSON); what differs is said per request.

const ownerPW = "owner-pass-1"

// clock is a settable time for sessions and password limits.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

type door struct {
	srv  *Server
	base string
	clk  *clock
	st   *store.Store
}

// startPublic serves a fresh workspace with a door: the owner's password set, guests as
// given.
func startPublic(t *testing.T, guests string) *door {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := app.HashOwnerPassword(ownerPW)
	if err != nil {
		t.Fatal(err)
	}
	if err := app.SaveAccess(ctx, st, app.Access{OwnerHash: h, Guests: guests}); err != nil {
		t.Fatal(err)
	}
	a, err := app.New(st)
	if err != nil {
		t.Fatal(err)
	}
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	srv, err := New(Options{Assets: testAssets(), Bind: []any{a}, Logf: t.Logf, Door: AppDoor(a), Now: clk.now})
	if err != nil {
		t.Fatal(err)
	}
	ln, _, err := Listen("127.0.0.1:0", true)
	if err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx, ln) }()
	t.Cleanup(func() {
		cancel()
		<-done
		app.Detach(a) // closes the workspace, and what its searcher started on it
	})
	return &door{srv: srv, base: strings.TrimSuffix(URL(ln), "/"), clk: clk, st: st}
}

// browser is one client: its own cookies, and the address it connects from.
type browser struct {
	t    *testing.T
	d    *door
	http *http.Client
}

func (d *door) browser(t *testing.T, from string) *browser {
	jar, _ := cookiejar.New(nil)
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	tr := &http.Transport{DialContext: dialer.DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	return &browser{t: t, d: d, http: &http.Client{Jar: jar, Transport: tr}}
}

// send makes a request as the app's page would; extra headers override.
func (b *browser) send(method, path, body string, extra map[string]string) (*http.Response, string) {
	b.t.Helper()
	r, err := http.NewRequest(method, b.d.base+path, strings.NewReader(body))
	if err != nil {
		b.t.Fatal(err)
	}
	r.Header.Set(tokenHeader, b.d.srv.Token())
	if method == http.MethodPost {
		r.Header.Set("Content-Type", "application/json")
	}
	for k, v := range extra {
		if v == "" {
			r.Header.Del(k)
		} else {
			r.Header.Set(k, v)
		}
	}
	res, err := b.http.Do(r)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res, string(out)
}

// events opens the event stream and says how it was answered (an open stream is closed at once).
func (b *browser) events() int {
	b.t.Helper()
	r, err := http.NewRequest(http.MethodGet, b.d.base+"/api/events?token="+b.d.srv.Token(), nil)
	if err != nil {
		b.t.Fatal(err)
	}
	res, err := b.http.Do(r)
	if err != nil {
		b.t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

func (b *browser) call(method, args string) (int, string) {
	b.t.Helper()
	res, body := b.send(http.MethodPost, "/api/App."+method, args, nil)
	return res.StatusCode, body
}

func (b *browser) signIn(pw string) (*http.Response, string) {
	b.t.Helper()
	body, _ := json.Marshal(map[string]string{"password": pw})
	return b.send(http.MethodPost, authPrefix+"sign-in", string(body), nil)
}

func (b *browser) session() sessionInfo {
	b.t.Helper()
	res, body := b.send(http.MethodGet, authPrefix+"session", "", nil)
	var s sessionInfo
	if res.StatusCode != 200 || json.Unmarshal([]byte(body), &s) != nil {
		b.t.Fatalf("session: %d %s", res.StatusCode, body)
	}
	return s
}

func TestPublicDoorLetsOnlyTheOwnerIn(t *testing.T) {
	d := startPublic(t, app.GuestsNone)
	anon := d.browser(t, "127.0.0.1")
	if res, _ := anon.send(http.MethodGet, "/", "", nil); res.StatusCode != 200 {
		t.Errorf("the app's page (its sign-in) = %d", res.StatusCode)
	}
	if s := anon.session(); !s.Public || s.Role != RoleNone || !s.OwnerSet {
		t.Errorf("session before signing in: %+v", s)
	}
	for _, m := range []string{"Status", "Crawls", "LibraryPage", "Settings"} {
		args := "[]"
		if m == "LibraryPage" {
			args = `[1, "", 0, 10]`
		}
		if code, body := anon.call(m, args); code != 401 || !strings.Contains(body, `"code":"sign-in"`) {
			t.Errorf("%s without signing in = %d %s", m, code, body)
		}
	}
	if code := anon.events(); code != 401 {
		t.Errorf("the event stream without signing in = %d", code)
	}
	if res, body := anon.signIn("not-it"); res.StatusCode != 403 || !strings.Contains(body, "not the owner's password") {
		t.Errorf("a wrong password = %d %s", res.StatusCode, body)
	}
	// Sign-in is a state change: the page's token and its own origin only (CSRF).
	body, _ := json.Marshal(map[string]string{"password": ownerPW})
	for name, h := range map[string]map[string]string{
		"no token":          {tokenHeader: ""},
		"a foreign page":    {"Origin": "http://evil.example"},
		"another site":      {"Sec-Fetch-Site": "cross-site"},
		"a form's encoding": {"Content-Type": "application/x-www-form-urlencoded"},
	} {
		if res, _ := anon.send(http.MethodPost, authPrefix+"sign-in", string(body), h); res.StatusCode < 400 {
			t.Errorf("sign-in from %s = %d", name, res.StatusCode)
		}
	}
	if anon.session().Role != RoleNone {
		t.Fatal("a refused sign-in signed in")
	}
	res, _ := anon.signIn(ownerPW)
	if res.StatusCode != 200 {
		t.Fatalf("sign-in = %d", res.StatusCode)
	}
	var cookie *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == cookieName {
			cookie = c
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode || len(cookie.Value) != 64 {
		t.Fatalf("session cookie %+v", cookie)
	}
	owner := anon
	if code, body := owner.call("Status", "[]"); code != 200 {
		t.Errorf("Status as the owner = %d %s", code, body)
	}
	if code, body := owner.call("StartCrawl", `[{"seeds":["ftp://x.example/"],"scope":"site"}]`); code != 400 {
		t.Errorf("StartCrawl as the owner reaches the app: %d %s", code, body)
	}
	// The cookie alone is no key: a call still needs the page's token.
	if res, _ := owner.send(http.MethodPost, "/api/App.Status", "[]", map[string]string{tokenHeader: ""}); res.StatusCode != 403 {
		t.Errorf("a call with the cookie and no token = %d", res.StatusCode)
	}
	// Another browser has no session; a stolen-looking cookie value is nothing.
	other := d.browser(t, "127.0.0.1")
	if code, _ := other.call("Status", "[]"); code != 401 {
		t.Errorf("a second browser = %d", code)
	}
	if res, _ := other.send(http.MethodPost, "/api/App.Status", "[]", map[string]string{"Cookie": cookieName + "=" + strings.Repeat("0", 64)}); res.StatusCode != 401 {
		t.Errorf("a made-up session = %d", res.StatusCode)
	}
	// Sessions end: after a day without use, and on sign-out.
	d.clk.add(ownerIdle + time.Minute)
	if code, _ := owner.call("Status", "[]"); code != 401 {
		t.Errorf("an idle session still works: %d", code)
	}
	owner.signIn(ownerPW)
	if res, _ := owner.send(http.MethodPost, authPrefix+"sign-out", "{}", nil); res.StatusCode != 200 {
		t.Errorf("sign-out = %d", res.StatusCode)
	}
	if code, _ := owner.call("Status", "[]"); code != 401 {
		t.Errorf("after sign-out = %d", code)
	}
}

// Guests read, post only where the owner opened the library, and undo only their own
// changes; everything else is the owner's.
func TestPublicDoorGuests(t *testing.T) {
	d := startPublic(t, app.GuestsRead)
	owner := d.browser(t, "127.0.0.1")
	owner.signIn(ownerPW)
	must := func(b *browser, method, args string) string {
		t.Helper()
		code, body := b.call(method, args)
		if code != 200 {
			t.Fatalf("%s %s = %d %s", method, args, code, body)
		}
		return body
	}
	id := func(body string) int64 {
		var p struct {
			ID      int64 `json:"id"`
			Posting struct {
				ID int64 `json:"id"`
			} `json:"posting"`
		}
		json.Unmarshal([]byte(body), &p)
		return p.ID + p.Posting.ID
	}
	must(owner, "SaveSettings", `[{"from":"owner@example.org","delayMs":1000,"perHost":2,"agents":16,"theme":"system","maxPerHost":100000,"maxQueryVariants":200,"maxBody":10485760}]`)
	closed := id(must(owner, "LibraryCreate", `[1, {"title": "Closed"}]`))
	board := id(must(owner, "LibraryCreate", `[1, {"title": "Board"}]`))
	must(owner, "LibraryPoint", `[`+strconv.FormatInt(closed, 10)+`, {"url": "https://kept.example/"}]`)
	must(owner, "LibraryEdit", `[`+strconv.FormatInt(board, 10)+`, {"openToGuests": true}, ""]`)

	ann, bob := d.browser(t, "127.0.0.1"), d.browser(t, "127.0.0.1")
	if s := ann.session(); s.Role != RoleGuest || !strings.HasPrefix(s.Name, "guest ") {
		t.Errorf("a guest's session: %+v", s)
	}
	must(ann, "LibraryPage", `[1, "", 0, 10]`)
	must(ann, "Search", `[{"query": "kept", "limit": 10}]`)
	if body := must(ann, "Settings", "[]"); strings.Contains(body, "owner@example.org") {
		t.Errorf("a guest reads the owner's address: %s", body)
	}
	for _, c := range []struct{ method, args string }{
		{"StartCrawl", `[{"seeds":["http://127.0.0.1:1/"],"scope":"site"}]`},
		{"SaveSettings", `[{}]`},
		{"SetGuestAccess", `["read"]`},
		{"SetOwnerPassword", `["", "guest-takes-over"]`},
		{"IssueExchangeToken", `["mine"]`},
		{"OpenWorkspace", `["/tmp/x.mundaneum", true]`},
		{"LibraryCrawl", `[1, "list", 1]`},
	} {
		if code, body := ann.call(c.method, c.args); code != 401 || !strings.Contains(body, `"code":"sign-in"`) {
			t.Errorf("a guest's %s = %d %s", c.method, code, body)
		}
	}
	if code := ann.events(); code != 200 {
		t.Errorf("a guest's event stream = %d", code)
	}
	// The backend, not the page, keeps guests to the open libraries.
	if code, body := ann.call("LibraryPoint", `[`+strconv.FormatInt(closed, 10)+`, {"url": "https://spam.example/"}]`); code != 409 {
		t.Errorf("a guest posting into a closed library = %d %s", code, body)
	}
	if code, body := ann.call("LibraryEdit", `[`+strconv.FormatInt(board, 10)+`, {"openToGuests": false}, ""]`); code != 409 {
		t.Errorf("a guest closing the board = %d %s", code, body)
	}
	if code, body := ann.call("LibraryDelete", `[[`+strconv.FormatInt(closed, 10)+`], ""]`); code != 409 {
		t.Errorf("a guest deleting a closed library = %d %s", code, body)
	}
	must(ann, "LibraryPoint", `[`+strconv.FormatInt(board, 10)+`, {"url": "https://ann.example/"}]`)

	// Undo: only Ann takes back Ann's change; the page says whose it is.
	var page app.LibPage
	json.Unmarshal([]byte(must(bob, "LibraryPage", `[`+strconv.FormatInt(board, 10)+`, "", 0, 10]`)), &page)
	if page.LastChangeMine || page.LastChangeBy == "" || page.LastChangeBy == "the owner" {
		t.Errorf("Bob's page says the last change is %q, his: %v", page.LastChangeBy, page.LastChangeMine)
	}
	if code, body := bob.call("LibraryUndo", `[""]`); code != 409 || !strings.Contains(body, page.LastChangeBy) {
		t.Errorf("Bob undoing Ann's change = %d %s", code, body)
	}
	if code, body := owner.call("LibraryUndo", `[""]`); code != 409 {
		t.Errorf("the owner undoing Ann's change = %d %s", code, body)
	}
	json.Unmarshal([]byte(must(ann, "LibraryPage", `[`+strconv.FormatInt(board, 10)+`, "", 0, 10]`)), &page)
	if !page.LastChangeMine || len(page.Postings) != 1 {
		t.Errorf("Ann's page: mine %v, %d postings", page.LastChangeMine, len(page.Postings))
	}
	must(ann, "LibraryUndo", `[""]`)
	// With guests shut out again, a guest's session reads nothing.
	must(owner, "SetGuestAccess", `["none"]`)
	if code, _ := ann.call("LibraryPage", `[1, "", 0, 10]`); code != 401 {
		t.Errorf("a guest after guests were shut out = %d", code)
	}
}

// Password attempts are slowed and limited per client address: the owner's sign-in and
// the library's passwords alike.
func TestPublicDoorLimitsPasswordAttempts(t *testing.T) {
	d := startPublic(t, app.GuestsRead)
	owner := d.browser(t, "127.0.0.1")
	owner.signIn(ownerPW)
	owner.call("LibraryCreate", `[1, {"title": "Board"}]`)                          // #2
	owner.call("LibraryEdit", `[2, {"openToGuests": true}, ""]`)                    // guests may post there
	owner.call("LibraryCreate", `[2, {"title": "Locked", "password": "lib-pass"}]`) // #3

	mallory := d.browser(t, "127.0.0.2")
	for i := range freeFails + 1 {
		if res, _ := mallory.signIn("guess-" + strconv.Itoa(i)); res.StatusCode != 403 {
			t.Fatalf("wrong password %d = %d", i+1, res.StatusCode)
		}
	}
	res, body := mallory.signIn(ownerPW)
	if res.StatusCode != 429 || res.Header.Get("Retry-After") != "1" || !strings.Contains(body, `"code":"rate-limited"`) {
		t.Fatalf("a held-back client = %d %q %s", res.StatusCode, res.Header.Get("Retry-After"), body)
	}
	// The library's passwords count too, and are held back alike.
	code, body := mallory.call("LibraryEdit", `[3, {"title": "mine"}, "lib-guess"]`)
	if code != 429 {
		t.Errorf("a library password from a held-back client = %d %s", code, body)
	}
	// Each wrong password after the free ones holds the client back twice as long.
	d.clk.add(time.Second)
	if res, _ := mallory.signIn("guess-again"); res.StatusCode != 403 {
		t.Fatalf("after the wait = %d", res.StatusCode)
	}
	if res, _ := mallory.signIn(ownerPW); res.StatusCode != 429 || res.Header.Get("Retry-After") != "2" {
		t.Errorf("after another wrong password = %d %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
	// Another address is not held back by Mallory's guesses.
	if res, _ := d.browser(t, "127.0.0.3").signIn(ownerPW); res.StatusCode != 200 {
		t.Errorf("another client = %d", res.StatusCode)
	}
	d.clk.add(2 * time.Second)
	if res, _ := mallory.signIn(ownerPW); res.StatusCode != 200 {
		t.Errorf("the right password after the wait = %d", res.StatusCode)
	}
	// Guessing a library password through the API holds a client back the same way.
	eve := d.browser(t, "127.0.0.4")
	for i := range freeFails + 1 {
		if code, body := eve.call("LibraryDelete", `[[3], "guess-`+strconv.Itoa(i)+`"]`); code != 403 {
			t.Fatalf("a wrong library password %d = %d %s", i+1, code, body)
		}
	}
	if code, _ := eve.call("LibraryDelete", `[[3], "lib-pass"]`); code != 429 {
		t.Errorf("a library password while held back = %d", code)
	}
}

// The argon2id checks running at once are bounded: a check waits for a slot, and gives up
// when its caller does.
func TestChecksAtOnceAreBounded(t *testing.T) {
	l := newLimiter(time.Now)
	var leaves []func()
	for range checksAtOnce {
		leave, err := l.gate("a").Enter(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		leaves = append(leaves, leave)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.gate("b").Enter(ctx); err != context.Canceled {
		t.Errorf("a check beyond the slots ran: %v", err)
	}
	leaves[0]()
	leave, err := l.gate("b").Enter(context.Background())
	if err != nil {
		t.Fatalf("a freed slot: %v", err)
	}
	leave()
	leaves[1]()
}

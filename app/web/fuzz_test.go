package web

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"mundaneum/app"
	"mundaneum/backend/store"
)

// FuzzDecodeArgs feeds request bodies to the strict decoder for a method taking an int, a
// struct and a pointer: it must never panic, and what it accepts has one value per
// parameter.
func FuzzDecodeArgs(f *testing.F) {
	for _, s := range []string{
		`[1, {"words":["a"],"inner":{"n":2}}, 3]`, `[1, null, null]`, `[]`, `null`, `[1,{},3] `,
		`[1,{"inner":{"n":1e400}},3]`, `[1,{"words":[null]},"3"]`, `[[[[[[[[[[[[`, `[1,{"Words":[]},3]`,
		"[1,{\"words\":[\"\xff\"]},3]", `[1,{},3]]`, `[-0, {}, -9223372036854775808]`,
	} {
		f.Add([]byte(s))
	}
	in := []reflect.Type{reflect.TypeFor[int](), reflect.TypeFor[Req](), reflect.TypeFor[*int64]()}
	f.Fuzz(func(t *testing.T, body []byte) {
		args, err := decodeArgs(body, in)
		if err != nil {
			return
		}
		if len(args) != len(in) {
			t.Fatalf("%d args for %d parameters", len(args), len(in))
		}
		for i, a := range args {
			if a.Type() != in[i] {
				t.Fatalf("argument %d has type %s", i, a.Type())
			}
		}
	})
}

// FuzzHostOK checks Host and Origin headers against a server on 127.0.0.1:8080: only
// loopback IPs and localhost with that port pass, and never a name an attacker can point
// at the machine.
func FuzzHostOK(f *testing.F) {
	for _, s := range []string{
		"127.0.0.1:8080", "localhost:8080", "[::1]:8080", "evil.example:8080", "127.0.0.1", "127.0.0.1:80",
		"[::ffff:127.0.0.1]:8080", "127.1:8080", "0x7f.1:8080", "LocalHost:8080", "localhost.:8080",
		"[fe80::1%25lo]:8080", "127.0.0.1:08080", "127.0.0.1:8080:8080", "", ":8080", "[]:8080",
	} {
		f.Add(s, "http://"+s)
	}
	local := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	f.Fuzz(func(t *testing.T, host, origin string) {
		r, err := http.NewRequest("GET", "http://127.0.0.1:8080/", nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Host = host
		r.Header.Set("Origin", origin)
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, local))
		if !hostOK(r) {
			return
		}
		h, port, err := net.SplitHostPort(host)
		if err != nil || port != "8080" {
			t.Fatalf("accepted host %q", host)
		}
		if !loopbackLiteral(h) && !equalFoldASCII(h, "localhost") {
			t.Fatalf("accepted host %q", host)
		}
		if originOK(r) && origin != "http://"+host && !equalFoldASCII(origin, "http://"+host) {
			t.Fatalf("accepted origin %q for host %q", origin, host)
		}
	})
}

func loopbackLiteral(h string) bool {
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// FuzzDoor sends the door of serve --public arbitrary sign-in bodies and session cookies:
// it never panics, only the owner's password signs in, and no cookie it did not issue
// opens the API.
func FuzzDoor(f *testing.F) {
	for _, s := range []struct{ body, cookie string }{
		{`{"password": "owner-pass-1"}`, ""}, {`{"password": ""}`, ""}, {`{"password": null}`, "x"},
		{`{"password": "owner-pass-1", "password": "x"}`, strings.Repeat("a", 64)}, {`[`, "mundaneum_session=" + strings.Repeat("0", 64)},
		{"{\"password\": \"owner-pass-1\\u0000\"}", strings.Repeat("é", 40)}, {`{"password": 1}`, ";;;="},
	} {
		f.Add(s.body, s.cookie)
	}
	st, err := store.Open(context.Background(), filepath.Join(f.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		f.Fatal(err)
	}
	h, _ := app.HashOwnerPassword(ownerPW)
	if err := app.SaveAccess(context.Background(), st, app.Access{OwnerHash: h, Guests: app.GuestsNone}); err != nil {
		f.Fatal(err)
	}
	a, err := app.New(st)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { app.Detach(a) }) // closes the workspace, and what its searcher started on it
	srv, err := New(Options{Assets: testAssets(), Bind: []any{a}, Door: AppDoor(a)})
	if err != nil {
		f.Fatal(err)
	}
	local := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	send := func(path, body, cookie string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "http://127.0.0.1:8080"+path, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set(tokenHeader, srv.Token())
		r.Header.Set("Cookie", cookie)
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, local))
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return w
	}
	f.Fuzz(func(t *testing.T, body, cookie string) {
		if w := send("/api/App.Status", "[]", cookie); w.Code != http.StatusUnauthorized && w.Code != http.StatusBadRequest {
			t.Fatalf("a cookie the door did not issue (%q) = %d", cookie, w.Code)
		}
		w := send(authPrefix+"sign-in", body, cookie)
		var in struct {
			Password string `json:"password"`
		}
		right := json.Unmarshal([]byte(body), &in) == nil && in.Password == ownerPW
		if w.Code == http.StatusOK && !right {
			t.Fatalf("signed in with %q", body)
		}
		if n := len(srv.auth.lim.slots); n != 0 {
			t.Fatalf("%d password-check slots left taken", n)
		}
	})
}

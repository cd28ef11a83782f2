package web

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mundaneum/app"
)

const (
	extOrigin   = "chrome-extension://abcdefghijklmnopabcdefghijklmnop"
	otherExt    = "chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba"
	firefoxExt  = "moz-extension://0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"
	foreignPage = "https://evil.example"
)

// serveCapture serves the whole front door, the capture API included, on loopback.
func serveCapture(t *testing.T, a *app.App) string {
	t.Helper()
	srv, err := New(Options{Assets: testAssets(), Bind: []any{a}, Capture: app.CaptureAPI(a), Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	return serveOn(t, srv)
}

// capReq is a call as an extension makes it; zero fields are a well-behaved extension's.
type capReq struct {
	method, path, body, origin, token, host, ctype string
	noOrigin                                       bool
}

func capCall(t *testing.T, base string, r capReq) (*http.Response, string) {
	t.Helper()
	if r.method == "" {
		r.method = http.MethodPost
	}
	if r.body == "" {
		r.body = "{}"
	}
	hr, err := http.NewRequest(r.method, base+r.path, strings.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	if r.host != "" {
		hr.Host = r.host
	}
	if r.ctype == "" {
		r.ctype = "application/json"
	}
	hr.Header.Set("Content-Type", r.ctype)
	if r.origin == "" {
		r.origin = extOrigin
	}
	if !r.noOrigin {
		hr.Header.Set("Origin", r.origin)
	}
	if r.token != "" {
		hr.Header.Set("Authorization", "Bearer "+r.token)
	}
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// pair makes a pairing code in the "window" and redeems it from origin.
func pair(t *testing.T, a *app.App, base, origin string) string {
	t.Helper()
	code, err := a.CapturePairingCode()
	if err != nil {
		t.Fatal(err)
	}
	res, body := capCall(t, base, capReq{path: "/capture/pair", origin: origin,
		body: `{"code":"` + code.Code + `","browser":"Chromium 156"}`})
	var out struct {
		Token     string `json:"token"`
		Workspace string `json:"workspace"`
		Door      string `json:"door"`
	}
	if res.StatusCode != 200 || json.Unmarshal([]byte(body), &out) != nil || len(out.Token) != 64 || out.Workspace != "w.mundaneum" {
		t.Fatalf("pair = %d %s", res.StatusCode, body)
	}
	return out.Token
}

func TestCaptureDoorPairsAndRefusesStrangers(t *testing.T) {
	a, _ := openApp(t)
	base := serveCapture(t, a)

	// Pairing: only an extension, only with the code.
	code, _ := a.CapturePairingCode()
	good := `{"code":"` + code.Code + `","browser":"x"}`
	for name, r := range map[string]capReq{
		"a web page":    {path: "/capture/pair", origin: foreignPage, body: good},
		"the app":       {path: "/capture/pair", origin: base, body: good},
		"no Origin":     {path: "/capture/pair", noOrigin: true, body: good},
		"a wrong code":  {path: "/capture/pair", body: `{"code":"2222-2222"}`},
		"a rebound DNS": {path: "/capture/pair", body: good, host: "rebound.example:" + strings.Split(base, ":")[2]},
	} {
		if res, body := capCall(t, base, r); res.StatusCode != 403 || !strings.Contains(body, `"code":"forbidden"`) {
			t.Errorf("pair from %s = %d %s", name, res.StatusCode, body)
		}
	}
	info, err := a.CaptureInfo()
	if err != nil || info.Code == nil || info.Code.Code != code.Code {
		t.Fatalf("the code did not survive refused attempts: %+v %v", info.Code, err)
	}
	token := pair(t, a, base, extOrigin)
	if info, _ := a.CaptureInfo(); info.Code != nil || len(info.Clients) != 1 || info.Clients[0].Origin != extOrigin {
		t.Errorf("after pairing: %+v", info)
	}

	res, body := capCall(t, base, capReq{path: "/capture/hello", token: token})
	if res.StatusCode != 200 || !strings.Contains(body, `"workspace":"w.mundaneum"`) || !strings.Contains(body, `"browser":"Chromium 156"`) {
		t.Fatalf("hello = %d %s", res.StatusCode, body)
	}
	if h := res.Header.Get("Access-Control-Allow-Origin"); h != "" {
		t.Errorf("the door sends CORS header %q: web pages could read its answers", h)
	}
	if res.Header.Get("Content-Security-Policy") == "" || res.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("headers = %v", res.Header)
	}

	port := strings.Split(base, ":")[2]
	for name, c := range map[string]struct {
		r      capReq
		status int
	}{
		"no token":             {capReq{path: "/capture/hello"}, 403},
		"a wrong token":        {capReq{path: "/capture/hello", token: strings.Repeat("ab", 32)}, 403},
		"another extension":    {capReq{path: "/capture/hello", token: token, origin: otherExt}, 403},
		"a web page":           {capReq{path: "/capture/hello", token: token, origin: foreignPage}, 403},
		"the app's own page":   {capReq{path: "/capture/hello", token: token, origin: base}, 403},
		"no Origin":            {capReq{path: "/capture/hello", token: token, noOrigin: true}, 403},
		"a rebound host":       {capReq{path: "/capture/hello", token: token, host: "rebound.example:" + port}, 403},
		"a GET":                {capReq{path: "/capture/hello", token: token, method: "GET"}, 405},
		"a form post":          {capReq{path: "/capture/hello", token: token, ctype: "application/x-www-form-urlencoded"}, 415},
		"an unknown field":     {capReq{path: "/capture/status", token: token, body: `{"url":"https://x.example/","x":1}`}, 400},
		"not JSON":             {capReq{path: "/capture/status", token: token, body: `{"url":`}, 400},
		"an unknown call":      {capReq{path: "/capture/delete", token: token}, 404},
		"a javascript: page":   {capReq{path: "/capture/status", token: token, body: `{"url":"javascript:alert(1)"}`}, 400},
		"the page API from it": {capReq{path: "/api/App.Status", token: token, body: "[]"}, 403},
	} {
		if res, body := capCall(t, base, c.r); res.StatusCode != c.status {
			t.Errorf("%s = %d %s, want %d", name, res.StatusCode, body, c.status)
		}
	}
	// A token in the page API's header does not open the capture door, nor the page's
	// token this one.
	hr, _ := http.NewRequest("POST", base+"/capture/hello", strings.NewReader("{}"))
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Origin", extOrigin)
	hr.Header.Set(tokenHeader, token)
	if res, err := http.DefaultClient.Do(hr); err != nil || res.StatusCode != 403 {
		t.Errorf("X-Mundaneum-Token on the capture door: %v %v", res.StatusCode, err)
	}

	// Unpaired: refused from then on.
	info, _ = a.CaptureInfo()
	if err := a.CaptureUnpair(info.Clients[0].ID); err != nil {
		t.Fatal(err)
	}
	if res, _ := capCall(t, base, capReq{path: "/capture/hello", token: token}); res.StatusCode != 403 {
		t.Errorf("an unpaired browser = %d", res.StatusCode)
	}
}

func TestCaptureDoorAddsAndSavesPagesLiterallyAndSanitised(t *testing.T) {
	a, st := openApp(t)
	base := serveCapture(t, a)
	token := pair(t, a, base, firefoxExt)
	lib, err := a.LibraryCreate(1, app.LibInput{Title: "Reading"})
	if err != nil {
		t.Fatal(err)
	}

	res, body := capCall(t, base, capReq{path: "/capture/libraries", origin: firefoxExt, token: token, body: `{"query":"rea","limit":5}`})
	if res.StatusCode != 200 || body != `[{"id":`+strconv.FormatInt(lib.ID, 10)+`,"path":"/Reading","recent":false}]` {
		t.Fatalf("libraries = %d %s", res.StatusCode, body)
	}
	res, body = capCall(t, base, capReq{path: "/capture/status", origin: firefoxExt, token: token, body: `{"url":"https://news.example/a"}`})
	if res.StatusCode != 200 || body != `{"url":"https://news.example/a","places":[],"page":null}` {
		t.Fatalf("status before = %d %s", res.StatusCode, body)
	}

	title := `<img src=x onerror=alert(1)> "News" & more`
	notes := "<script>alert('selected')</script>\nthe selected sentence"
	dom := `<html><head><script>steal()</script></head><body><h1 onclick="x()">Built by script</h1>` +
		`<p>the capybara paragraph</p><iframe src="https://ads.example/"></iframe></body></html>`
	in, _ := json.Marshal(map[string]any{"url": "https://news.example/a#top", "title": title, "notes": notes, "tags": []string{"news"},
		"libraryId": lib.ID, "page": map[string]string{"title": title, "dom": dom}})
	res, body = capCall(t, base, capReq{path: "/capture/add", origin: firefoxExt, token: token, body: string(in)})
	var added struct {
		Place struct {
			ID      int64  `json:"id"`
			Library string `json:"library"`
		} `json:"place"`
		Existing bool `json:"existing"`
		Saved    *struct {
			PageID  int64 `json:"pageId"`
			Changed bool  `json:"changed"`
		} `json:"saved"`
	}
	if res.StatusCode != 200 || json.Unmarshal([]byte(body), &added) != nil || added.Place.Library != "/Reading" || added.Saved == nil || !added.Saved.Changed {
		t.Fatalf("add = %d %s", res.StatusCode, body)
	}
	d, err := a.LibraryPosting(added.Place.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d.Posting.Title != title || d.Posting.Notes != notes {
		t.Errorf("stored %q / %q, want them literally", d.Posting.Title, d.Posting.Notes)
	}
	stored, _, _, err := st.Body(context.Background(), added.Saved.PageID)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script", "steal()", "onclick", "<iframe", "<img"} {
		if strings.Contains(string(stored), bad) {
			t.Errorf("the stored page keeps %q:\n%s", bad, stored)
		}
	}
	if !strings.Contains(string(stored), "the capybara paragraph") {
		t.Errorf("the stored page lost its text:\n%s", stored)
	}

	res, body = capCall(t, base, capReq{path: "/capture/status", origin: firefoxExt, token: token, body: `{"url":"https://news.example/a"}`})
	if res.StatusCode != 200 || !strings.Contains(body, `"library":"/Reading"`) || !strings.Contains(body, `"copy":true`) {
		t.Errorf("status after = %d %s", res.StatusCode, body)
	}
	res, body = capCall(t, base, capReq{path: "/capture/save", origin: firefoxExt, token: token,
		body: `{"url":"https://news.example/a","title":"t","dom":"<p>the capybara paragraph, edited</p>"}`})
	if res.StatusCode != 200 || !strings.Contains(body, `"changed":true`) {
		t.Errorf("save = %d %s", res.StatusCode, body)
	}
	info, _ := a.CaptureInfo()
	if len(info.Clients) != 1 || info.Clients[0].Captures != 2 || info.Clients[0].LastUsed == "" {
		t.Errorf("clients after two captures: %+v", info.Clients)
	}
	if res, body := capCall(t, base, capReq{path: "/capture/add", origin: firefoxExt, token: token,
		body: `{"url":"https://news.example/b","library":"/Nowhere"}`}); res.StatusCode != 404 {
		t.Errorf("add to no library = %d %s", res.StatusCode, body)
	}
}

func TestCaptureDoorBoundsBodies(t *testing.T) {
	defer func(big, small int64) { maxCaptureBody, maxSmallBody = big, small }(maxCaptureBody, maxSmallBody)
	maxCaptureBody, maxSmallBody = 1<<20, 1<<10
	a, _ := openApp(t)
	base := serveCapture(t, a)
	token := pair(t, a, base, extOrigin)
	huge := `{"url":"https://x.example/","dom":"` + strings.Repeat("a", 2<<20) + `"}`
	if res, body := capCall(t, base, capReq{path: "/capture/save", token: token, body: huge}); res.StatusCode != 413 {
		t.Errorf("a 2 MiB save = %d %s", res.StatusCode, body)
	}
	if res, body := capCall(t, base, capReq{path: "/capture/status", token: token, body: `{"url":"` + strings.Repeat("a", 2<<10) + `"}`}); res.StatusCode != 413 {
		t.Errorf("a 2 KiB status = %d %s", res.StatusCode, body)
	}
	// The pairing call is bounded before the code is read.
	if res, body := capCall(t, base, capReq{path: "/capture/pair", body: `{"code":"` + strings.Repeat("A", 4<<10) + `"}`}); res.StatusCode != 413 {
		t.Errorf("a 4 KiB pairing = %d %s", res.StatusCode, body)
	}
}

func TestLoopbackServesTheCaptureDoorOnly(t *testing.T) {
	a, _ := openApp(t)
	lb := NewLoopback(app.CaptureAPI(a), t.Logf)
	addr, err := lb.Start(0)
	if err != nil {
		t.Fatal(err)
	}
	base := strings.TrimSuffix(addr, "/")
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("address %q", addr)
	}
	if _, err := lb.Start(0); err == nil {
		t.Error("a second Start opened another door")
	}
	token := pair(t, a, base, extOrigin)
	if res, body := capCall(t, base, capReq{path: "/capture/hello", token: token}); res.StatusCode != 200 {
		t.Errorf("hello = %d %s", res.StatusCode, body)
	}
	for _, p := range []string{"/", "/index.html", "/api/App.Status", "/api/events", "/files/x", "/exchange/soif"} {
		for _, m := range []string{"GET", "POST"} {
			if res, _ := capCall(t, base, capReq{method: m, path: p, token: token, noOrigin: m == "GET"}); res.StatusCode != 404 {
				t.Errorf("%s %s = %d, want 404", m, p, res.StatusCode)
			}
		}
	}
	port := strings.Split(base, ":")[2]
	if res, _ := capCall(t, base, capReq{path: "/capture/hello", token: token, host: "attacker.example:" + port}); res.StatusCode != 403 {
		t.Errorf("a foreign Host = %d", res.StatusCode)
	}
	if err := lb.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), time.Second); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("the closed door still answers: %v", err)
	}
	n, _ := strconv.Atoi(port)
	again, err := lb.Start(n)
	if err != nil || again != addr {
		t.Errorf("reopened on the same port: %q %v", again, err)
	}
	if err := lb.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := lb.Stop(); err != nil {
		t.Errorf("stopping a closed door: %v", err)
	}
}

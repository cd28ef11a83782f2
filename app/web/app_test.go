package web

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"mundaneum/app"
)

// TestRealApp binds the real API over a fresh workspace: every exported method of *app.App
// must be callable over JSON, and its errors keep their codes.
func TestRealApp(t *testing.T) {
	a, st := openApp(t)
	srv, err := New(Options{Assets: testAssets(), Bind: []any{a}, Logf: t.Logf})
	if err != nil {
		t.Fatalf("New with *app.App: %v", err)
	}
	bridge := string(srv.static.bridge)
	typ := reflect.TypeOf(a)
	for i := range typ.NumMethod() {
		if m := typ.Method(i).Name; !strings.Contains(bridge, `"`+m+`"`) {
			t.Errorf("bridge lacks App.%s", m)
		}
	}
	if !strings.Contains(bridge, `{"app":{"App":[`) {
		t.Errorf("bridge does not bind window.go.app.App")
	}
	h := &handlerClient{t: t, srv: srv}
	status, body := h.call("App.Status", "[]")
	var s app.Status
	if status != 200 || json.Unmarshal([]byte(body), &s) != nil || s.Path != st.Path() {
		t.Fatalf("App.Status = %d %s", status, body)
	}
	status, body = h.call("App.Crawls", `[]`)
	if status != 200 || strings.TrimSpace(body) != "[]" {
		t.Fatalf("App.Crawls = %d %s", status, body)
	}
	status, body = h.call("App.StartCrawl", `[{"seeds":["ftp://example.org/"],"scope":"site"}]`)
	if status != 400 || !strings.Contains(body, `"code":"invalid"`) {
		t.Errorf("StartCrawl with a bad seed = %d %s", status, body)
	}
	status, body = h.call("App.StartCrawl", `[{"seeds":["http://127.0.0.1:1/"],"scope":"site","unknown":1}]`)
	if status != 400 {
		t.Errorf("StartCrawl with an unknown field = %d %s", status, body)
	}
	status, body = h.call("App.ResumeCrawl", `[424242]`)
	if status != 404 || !strings.Contains(body, `"code":"not-found"`) {
		t.Errorf("ResumeCrawl of no crawl = %d %s", status, body)
	}
}

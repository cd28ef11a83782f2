package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"mundaneum/app"
)

// serve's dispatcher is the boundary for whatever it binds: a nil list a method returns
// leaves as [].
func TestServeListsNotNull(t *testing.T) {
	srv, err := New(Options{Assets: testAssets(), Bind: []any{&Calc{}}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	h := &handlerClient{t: t, srv: srv}
	status, body := h.call("Calc.Echo", `[{"inner":{"n":1}}]`)
	if status != 200 || strings.TrimSpace(body) != `{"words":[],"inner":{"n":1}}` {
		t.Fatalf("Calc.Echo = %d %s", status, body)
	}
}

// Bound methods returning nothing on an empty workspace answer [] and not null, both over
// serve and as the Wails window gets them: Wails v2 calls the bound method by reflection
// and marshals its first result with encoding/json (internal/binding/boundMethod.go,
// internal/frontend/dispatcher/calls.go), which the second half does the same way.
func TestEmptyListsAreLists(t *testing.T) {
	a, _ := openApp(t)
	srv, err := New(Options{Assets: testAssets(), Bind: []any{a}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	h := &handlerClient{t: t, srv: srv}
	calls := map[string]string{
		"Views": "[]", "CheckTasks": "[]", "Sources": "[]", "ExchangeTokens": "[]", "ArchiveJobs": "[]",
		"LibraryTags": "[]", "RobotsSites": "[]", "CheckRuns": "[10]", "PageVersions": "[1]",
	}
	for name, args := range calls {
		status, body := h.call("App."+name, args)
		if status != 200 || strings.TrimSpace(body) != "[]" {
			t.Errorf("serve: App.%s = %d %s, want []", name, status, body)
		}
		m := reflect.ValueOf(a).MethodByName(name)
		var in []reflect.Value
		var raw []json.RawMessage
		if err := json.Unmarshal([]byte(args), &raw); err != nil {
			t.Fatal(err)
		}
		for i, r := range raw {
			v := reflect.New(m.Type().In(i))
			if err := json.Unmarshal(r, v.Interface()); err != nil {
				t.Fatal(err)
			}
			in = append(in, v.Elem())
		}
		out := m.Call(in)
		if len(out) == 2 && !out[1].IsNil() {
			t.Errorf("window: App.%s: %v", name, out[1].Interface())
			continue
		}
		b, err := json.Marshal(struct {
			Result any `json:"result"`
		}{out[0].Interface()})
		if err != nil || string(b) != `{"result":[]}` {
			t.Errorf("window: App.%s sends %s, want []", name, b)
		}
	}
}

// Events on serve's stream carry their empty lists as [], as the window's do: they leave
// the App through the same place (app's eventsOut). A link check without notices is one.
func TestServeEventListsNotNull(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<title>ok</title>"))
	}))
	defer site.Close()
	a, _ := openApp(t)
	srv, err := New(Options{Assets: testAssets(), Bind: []any{a}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	base := serveOn(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	app.Attach(ctx, a, srv.Emit)
	res, lines := openStream(t, ctx, srv, base)
	defer res.Body.Close()
	if _, err := a.CheckLinks([]string{site.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() {
		if l := lines.Text(); strings.HasPrefix(l, `data: {"name":"check:done"`) {
			if !strings.Contains(l, `"notices":[]`) {
				t.Fatalf("check:done on the stream: %s", l)
			}
			return
		}
	}
	t.Fatalf("the stream ended before check:done: %v", lines.Err())
}

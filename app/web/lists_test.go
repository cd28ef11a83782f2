package web

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"mundaneum/app"
	"mundaneum/backend/store"
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
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(st)
	if err != nil {
		t.Fatal(err)
	}
	defer app.Detach(a)
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

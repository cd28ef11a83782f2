package app

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mundaneum/backend/store"
)

// sentEvent is an event as a transport got it, and its JSON.
type sentEvent struct {
	name    string
	payload any
	json    []byte
}

// An event whose payload holds a list with nothing in it sends [] and not null, as a bound
// result does: the events of a crawl, of its export and import (an import without problems
// leaves its report's Problems nil) and of a link check, as a transport gets them.
func TestEventListsNotNull(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>ok</title><a href="/a">a</a>`))
	}))
	defer site.Close()
	dir := t.TempDir()
	st, err := store.Open(context.Background(), filepath.Join(dir, "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var sent []sentEvent
	ended := make(chan string, 16)
	Attach(context.Background(), a, func(name string, payload any) {
		b, err := json.Marshal(payload)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		mu.Lock()
		sent = append(sent, sentEvent{name, payload, b})
		mu.Unlock()
		if j, ok := payload.(ArchiveJob); name == EventCrawlDone || name == EventCheckDone || ok && j.State != JobRunning {
			ended <- name
		}
	})
	defer Detach(a)
	wait := func(name string) {
		t.Helper()
		for {
			select {
			case got := <-ended:
				if got == name {
					return
				}
			case <-time.After(time.Minute):
				t.Fatalf("no %s", name)
			}
		}
	}
	set, err := a.Settings()
	if err != nil {
		t.Fatal(err)
	}
	set.DelayMs = 0
	if _, err := a.SaveSettings(set); err != nil {
		t.Fatal(err)
	}
	c, err := a.StartCrawl(CrawlRequest{Seeds: []string{site.URL + "/"}, DelayMs: 0})
	if err != nil {
		t.Fatal(err)
	}
	wait(EventCrawlDone)
	file := filepath.Join(dir, "c.warc.gz")
	if _, err := a.StartExport(c.ID, "warc", file); err != nil {
		t.Fatal(err)
	}
	wait(EventArchiveJob)
	if _, err := a.StartImport(file); err != nil {
		t.Fatal(err)
	}
	wait(EventArchiveJob)
	if _, err := a.CheckLinks([]string{site.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	wait(EventCheckDone)

	mu.Lock()
	defer mu.Unlock()
	names := map[string]bool{}
	for _, e := range sent {
		names[e.name] = true
		var v any
		if err := json.Unmarshal(e.json, &v); err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
		if nulls := nullLists(reflect.TypeOf(e.payload), v, e.name); len(nulls) > 0 {
			t.Errorf("%s sends null for the lists %s: %s", e.name, strings.Join(nulls, ", "), e.json)
		}
		if j, ok := e.payload.(ArchiveJob); ok && j.Import != nil && j.State == JobDone && !strings.Contains(string(e.json), `"problems":[]`) {
			t.Errorf("an import without problems sends %s", e.json)
		}
	}
	for _, n := range []string{EventCrawlDone, EventArchiveJob, EventCheckDone} {
		if !names[n] {
			t.Errorf("no %s recorded", n)
		}
	}
}

// nullLists returns the paths under v (JSON decoded into any) where a Go value of type t
// holds a list that came out as null.
func nullLists(t reflect.Type, v any, path string) []string {
	if t == nil {
		return nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if marshalsItself(t) {
		return nil
	}
	var out []string
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return nil
		}
		if v == nil && t.Kind() == reflect.Slice {
			return []string{path}
		}
		items, _ := v.([]any)
		for i, e := range items {
			out = append(out, nullLists(t.Elem(), e, path+"["+strconv.Itoa(i)+"]")...)
		}
	case reflect.Map:
		m, _ := v.(map[string]any)
		for k, e := range m {
			out = append(out, nullLists(t.Elem(), e, path+"."+k)...)
		}
	case reflect.Struct:
		m, _ := v.(map[string]any)
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if f.Anonymous && name == "" {
				out = append(out, nullLists(f.Type, v, path)...)
				continue
			}
			if name == "" {
				name = f.Name
			}
			if e, ok := m[name]; ok {
				out = append(out, nullLists(f.Type, e, path+"."+name)...)
			}
		}
	}
	return out
}

// Events reach a transport only through eventsOut: Wails' EventsEmit is called in one
// place of the whole module (windowEvents, the window's transport), which is only handed to
// startup, and startup is the only place that sets the App's emit, to eventsOut of what it
// is given. serve's transport (web.Server.Emit) reaches the App through Attach, which is
// startup.
func TestEventsOnlyLeaveThroughOut(t *testing.T) {
	const wailsRuntime = `"github.com/wailsapp/wails/v2/pkg/runtime"`
	fset := token.NewFileSet()
	calls := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", "frontend", "build", "testdata", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rt := ""
		for _, im := range f.Imports {
			if im.Path.Value == wailsRuntime {
				rt = "runtime"
				if im.Name != nil {
					rt = im.Name.Name
				}
			}
		}
		inApp := filepath.Dir(path) == filepath.Join("..", "app")
		for _, decl := range f.Decls {
			fn, _ := decl.(*ast.FuncDecl)
			ast.Inspect(decl, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.SelectorExpr:
					if id, ok := n.X.(*ast.Ident); ok && rt != "" && id.Name == rt && n.Sel.Name == "EventsEmit" {
						calls++
						if fn == nil || fn.Name.Name != "windowEvents" || !inApp {
							t.Errorf("%s: EventsEmit outside windowEvents", fset.Position(n.Pos()))
						}
					}
				case *ast.CallExpr:
					if !inApp {
						return true
					}
					for _, arg := range n.Args {
						c, ok := arg.(*ast.CallExpr)
						if !ok {
							continue
						}
						if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "windowEvents" {
							if s, ok := n.Fun.(*ast.SelectorExpr); !ok || s.Sel.Name != "startup" {
								t.Errorf("%s: windowEvents handed to something other than startup", fset.Position(n.Pos()))
							}
						}
					}
				case *ast.AssignStmt:
					if !inApp {
						return true
					}
					for i, l := range n.Lhs {
						s, ok := l.(*ast.SelectorExpr)
						if !ok || s.Sel.Name != "emit" {
							continue
						}
						c, ok := n.Rhs[i].(*ast.CallExpr)
						id, _ := func() (*ast.Ident, bool) {
							if !ok {
								return nil, false
							}
							id, ok := c.Fun.(*ast.Ident)
							return id, ok
						}()
						if id == nil || id.Name != "eventsOut" || fn == nil || fn.Name.Name != "startup" {
							t.Errorf("%s: the App's emit set other than to eventsOut in startup", fset.Position(n.Pos()))
						}
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 {
		t.Fatalf("EventsEmit called %d times in the module, want once (windowEvents)", calls)
	}
}

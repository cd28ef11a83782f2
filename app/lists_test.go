package app

import (
	"encoding/json"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"reflect"
	"testing"
)

// TestListsNotNull: nil lists become [] wherever they sit; bytes, raw JSON and absent
// objects keep printing as they did.
func TestListsNotNull(t *testing.T) {
	type leaf struct {
		Tags []string `json:"tags"`
	}
	type doc struct {
		Items  []leaf          `json:"items"`
		Nested []leaf          `json:"nested"`
		ByName map[string]leaf `json:"byName"`
		Ptr    *leaf           `json:"ptr"`
		Absent *leaf           `json:"absent"`
		Any    any             `json:"any"`
		Bytes  []byte          `json:"bytes"`
		Raw    json.RawMessage `json:"raw"`
	}
	in := doc{Nested: []leaf{{}}, ByName: map[string]leaf{"a": {}}, Ptr: &leaf{}, Any: leaf{}}
	b, err := json.Marshal(ListsNotNull(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"items":[],"nested":[{"tags":[]}],"byName":{"a":{"tags":[]}},"ptr":{"tags":[]},"absent":null,"any":{"tags":[]},"bytes":null,"raw":null}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	if b, _ := json.Marshal(ListsNotNull([]leaf(nil))); string(b) != "[]" {
		t.Fatalf("a nil list at the top prints %s", b)
	}
}

// ListsNotNull writes nothing through what it is given: a result may share its slices,
// maps and pointees with what the App keeps while other calls read them.
func TestListsNotNullCopies(t *testing.T) {
	type leaf struct {
		Tags []string `json:"tags"`
	}
	type doc struct {
		Items  []leaf          `json:"items"`
		ByName map[string]leaf `json:"byName"`
		Ptr    *leaf           `json:"ptr"`
		Arr    [1]leaf         `json:"arr"`
		Flat   []int           `json:"flat"`
	}
	items := []leaf{{}, {Tags: []string{"x"}}}
	byName := map[string]leaf{"a": {}}
	ptr := &leaf{}
	flat := []int{1}
	in := doc{Items: items, ByName: byName, Ptr: ptr, Flat: flat}
	out := ListsNotNull(in)
	if items[0].Tags != nil || byName["a"].Tags != nil || ptr.Tags != nil || in.Arr[0].Tags != nil {
		t.Fatal("wrote through the value it was given")
	}
	if out.Items[0].Tags == nil || out.ByName["a"].Tags == nil || out.Ptr.Tags == nil || out.Arr[0].Tags == nil {
		t.Fatalf("left a nil list: %+v", out)
	}
	if &out.Items[1] == &items[1] || &out.Flat[0] != &flat[0] {
		t.Fatal("a changed list is not a copy, or an unchanged one was copied")
	}
	b, _ := json.Marshal(out)
	if want := `{"items":[{"tags":[]},{"tags":["x"]}],"byName":{"a":{"tags":[]}},"ptr":{"tags":[]},"arr":[{"tags":[]}],"flat":[1]}`; string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}

// Every bound method whose result can hold a list hands it over through lists: Wails v2
// marshals bound results itself (no hook), so a method that forgets sends the window null.
// The source says it: `defer lists(&result)` first, the result named.
func TestBoundResultsListsNotNull(t *testing.T) {
	fset := token.NewFileSet()
	pkg, err := build.Default.ImportDir(".", 0) // the files this build compiles
	if err != nil {
		t.Fatal(err)
	}
	decls := map[string]*ast.FuncDecl{}
	for _, name := range pkg.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
				continue
			}
			if star, ok := fd.Recv.List[0].Type.(*ast.StarExpr); ok {
				if id, ok := star.X.(*ast.Ident); ok && id.Name == "App" {
					decls[fd.Name.Name] = fd
				}
			}
		}
	}
	typ := reflect.TypeFor[*App]()
	checked := 0
	for i := range typ.NumMethod() {
		m := typ.Method(i)
		if m.Type.NumOut() == 0 || m.Type.Out(0) == reflect.TypeFor[error]() || !holdsLists(m.Type.Out(0)) {
			continue
		}
		checked++
		fd := decls[m.Name]
		if fd == nil {
			t.Errorf("%s: no declaration found", m.Name)
			continue
		}
		if !defersLists(fd) {
			t.Errorf("%s returns %s, which can hold a list, without `defer lists(&result)` first", m.Name, m.Type.Out(0))
		}
	}
	if checked < 20 {
		t.Fatalf("only %d bound methods return lists: the walk is broken", checked)
	}
}

// defersLists reports whether fd starts with `defer lists(&r)`, r its first named result.
func defersLists(fd *ast.FuncDecl) bool {
	res := fd.Type.Results
	if res == nil || len(res.List) == 0 || len(res.List[0].Names) == 0 || fd.Body == nil || len(fd.Body.List) == 0 {
		return false
	}
	d, ok := fd.Body.List[0].(*ast.DeferStmt)
	if !ok || len(d.Call.Args) != 1 {
		return false
	}
	if fn, ok := d.Call.Fun.(*ast.Ident); !ok || fn.Name != "lists" {
		return false
	}
	u, ok := d.Call.Args[0].(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return false
	}
	id, ok := u.X.(*ast.Ident)
	return ok && id.Name == res.List[0].Names[0].Name
}

package app

import (
	"encoding"
	"encoding/json"
	"reflect"
	"sync"
)

// ListsNotNull is v as it leaves for a reader of JSON (the window, `serve`, the command
// line's --json): every nil slice it holds (in its fields, its elements and map values,
// through pointers and interfaces) made an empty one, so that a list with nothing in it
// arrives as [] and never as null. Go leaves slices nil when nothing was appended; the
// frontend's types and a script's jq expect a list. Each transport calls it once, where
// results become JSON: the CLI's printer, serve's dispatcher, and the bound methods the
// Wails window calls (Wails v2 marshals their results itself, with no hook: see lists).
// Byte slices (base64 strings, raw JSON) and types that marshal themselves are left as
// they are, and so are nil maps and pointers (absent objects).
//
// v is not written to: what changes is copied (a result may share its slices with what
// the App keeps, and other calls read them meanwhile).
func ListsNotNull[T any](v T) T {
	rv := reflect.ValueOf(&v).Elem()
	if out, changed := fillLists(rv, 0); changed {
		rv.Set(out)
	}
	return v
}

// lists is how a bound method with a result hands it to the window: `defer lists(&res)`
// first thing, the result named. Wails v2 (internal/frontend/dispatcher/calls.go) marshals
// what a bound method returns with encoding/json and offers no hook but for errors, so the
// window's one place is here; TestBoundResultsListsNotNull checks that every bound method
// whose result can hold a list does it.
func lists[T any](res *T) { *res = ListsNotNull(*res) }

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// marshalsItself reports whether encoding/json leaves t's shape to t's own methods.
func marshalsItself(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return t.Implements(jsonMarshaler) || pt.Implements(jsonMarshaler) ||
		t.Implements(textMarshaler) || pt.Implements(textMarshaler)
}

// maxListDepth bounds the walk: results are trees a few levels deep, and a cycle of
// pointers (which encoding/json refuses anyway) must not recurse for ever.
const maxListDepth = 100

// holdsLists reports whether a value of type t may hold a slice that encoding/json prints
// as a list: the walk leaves alone what cannot (numbers, strings, maps of them), so that it
// costs nothing on flat results.
func holdsLists(t reflect.Type) bool {
	if v, ok := listTypes.Load(t); ok {
		return v.(bool)
	}
	listTypes.Store(t, true) // a recursive type: assume it may, while its fields are looked at
	may := false
	switch {
	case marshalsItself(t):
	case t.Kind() == reflect.Slice:
		may = t.Elem().Kind() != reflect.Uint8
	case t.Kind() == reflect.Interface:
		may = true
	case t.Kind() == reflect.Pointer, t.Kind() == reflect.Array, t.Kind() == reflect.Map:
		may = holdsLists(t.Elem())
	case t.Kind() == reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && holdsLists(f.Type) {
				may = true
				break
			}
		}
	}
	listTypes.Store(t, may)
	return may
}

var listTypes sync.Map // reflect.Type → bool, for holdsLists

// fillLists returns v with the nil slices under it made empty, and whether anything
// changed; what changes is a copy (a new slice, map, pointee or struct), never a write
// through v.
func fillLists(v reflect.Value, depth int) (reflect.Value, bool) {
	if depth > maxListDepth || !holdsLists(v.Type()) {
		return v, false
	}
	t := v.Type()
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		e, changed := fillLists(v.Elem(), depth+1)
		if !changed {
			return v, false
		}
		if v.Kind() == reflect.Pointer { // a new pointee
			p := reflect.New(t.Elem())
			p.Elem().Set(e)
			return p, true
		}
		out := reflect.New(t).Elem() // an interface holding the copy
		out.Set(e)
		return out, true
	case reflect.Struct:
		var cp reflect.Value
		for i := range v.NumField() {
			if !t.Field(i).IsExported() {
				continue
			}
			f, changed := fillLists(v.Field(i), depth+1)
			if !changed {
				continue
			}
			if !cp.IsValid() {
				cp = reflect.New(t).Elem()
				cp.Set(v)
			}
			cp.Field(i).Set(f)
		}
		return cp, cp.IsValid()
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return v, false
		}
		if v.IsNil() {
			return reflect.MakeSlice(t, 0, 0), true
		}
		return fillElems(v, reflect.MakeSlice(t, v.Len(), v.Len()), depth)
	case reflect.Array:
		return fillElems(v, reflect.New(t).Elem(), depth)
	case reflect.Map:
		var cp reflect.Value
		iter := v.MapRange()
		for iter.Next() {
			e, changed := fillLists(iter.Value(), depth+1)
			if !changed {
				continue
			}
			if !cp.IsValid() {
				cp = reflect.MakeMapWithSize(t, v.Len())
				for it := v.MapRange(); it.Next(); {
					cp.SetMapIndex(it.Key(), it.Value())
				}
			}
			cp.SetMapIndex(iter.Key(), e)
		}
		return cp, cp.IsValid()
	}
	return v, false
}

// fillElems fills the elements of v (a slice or an array) into cp, a fresh value of v's
// type and length, when any of them changes.
func fillElems(v, cp reflect.Value, depth int) (reflect.Value, bool) {
	copied := false
	for i := range v.Len() {
		e, changed := fillLists(v.Index(i), depth+1)
		if !changed {
			continue
		}
		if !copied {
			reflect.Copy(cp, v)
			copied = true
		}
		cp.Index(i).Set(e)
	}
	if !copied {
		return v, false
	}
	return cp, true
}

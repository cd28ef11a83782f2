package cli

import (
	"encoding"
	"encoding/json"
	"reflect"
	"sync"
)

// listsNotNull is v as --json prints it: every nil slice it holds (in its fields, its
// elements and map values, through pointers and interfaces) made an empty one, so that a
// list with nothing in it prints as [] and never as null. Go leaves slices nil when nothing
// was appended; a reader of the output (jq, a script, the frontend's types) expects a
// list. This is the one place the CLI's output gets that right, for every verb. Byte
// slices (base64 strings, raw JSON) and types that marshal themselves are left as they are.
// Nil slices are replaced in place where v points to them: v is printed, not kept.
func listsNotNull(v any) any {
	if v == nil {
		return nil
	}
	rv := reflect.ValueOf(v)
	cp := reflect.New(rv.Type()).Elem()
	cp.Set(rv)
	fillLists(cp, 0)
	return cp.Interface()
}

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

// maxListDepth bounds the walk: output values are trees a few levels deep, and a cycle of
// pointers (which encoding/json refuses anyway) must not recurse for ever.
const maxListDepth = 100

// holdsLists reports whether a value of type t may hold a slice that encoding/json prints
// as a list: the walk leaves alone what cannot (numbers, strings, maps of them), and so
// never writes to a map it need not touch.
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

// fillLists makes the nil slices under v empty; v is settable.
func fillLists(v reflect.Value, depth int) {
	if depth > maxListDepth || !holdsLists(v.Type()) {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			fillLists(v.Elem(), depth+1)
		}
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		e := v.Elem()
		cp := reflect.New(e.Type()).Elem()
		cp.Set(e)
		fillLists(cp, depth+1)
		v.Set(cp)
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				fillLists(f, depth+1)
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		if v.IsNil() {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			return
		}
		for i := range v.Len() {
			fillLists(v.Index(i), depth+1)
		}
	case reflect.Array:
		for i := range v.Len() {
			fillLists(v.Index(i), depth+1)
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			cp := reflect.New(v.Type().Elem()).Elem()
			cp.Set(iter.Value())
			fillLists(cp, depth+1)
			v.SetMapIndex(iter.Key(), cp)
		}
	}
}

package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"reflect"
	"runtime/debug"
	"sort"
	"strings"

	"mundaneum/app"
)

// codeInvalid answers a malformed call (app.CodeInvalid).
const codeInvalid = app.CodeInvalid

var errorType = reflect.TypeFor[error]()

// method is one bound method callable over HTTP.
type method struct {
	fn     reflect.Value // bound to its receiver
	obj    any           // the receiver
	index  int           // the method's index in the receiver's type
	in     []reflect.Type
	result bool // returns a value before the optional error
	err    bool // last result is an error
}

// callAs says how to make one call: as whom, and what to tell a caller refused for too
// many wrong passwords. The zero value calls the bound objects as they are.
type callAs struct {
	// recv returns the receiver to call a method of obj on (obj's own type).
	recv func(obj any) any
	// limited adds to a 429 answer (Retry-After).
	limited func(w http.ResponseWriter)
}

// api dispatches "Type.Method" to the bound objects' exported methods.
type api struct {
	methods map[string]method
	ns      map[string]map[string][]string // package -> type -> method names, for the bridge
}

// newAPI reflects over the bound objects as Wails does: every exported method of each is
// API. A method that cannot be called over JSON (variadic, a chan or func argument, more
// than two results, a second result other than error) is refused.
func newAPI(bind []any) (*api, error) {
	a := &api{methods: map[string]method{}, ns: map[string]map[string][]string{}}
	for _, obj := range bind {
		v := reflect.ValueOf(obj)
		t := v.Type()
		if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct || v.IsNil() {
			return nil, fmt.Errorf("web: bind %T: want a non-nil pointer to a struct", obj)
		}
		typ, pkg := t.Elem().Name(), path.Base(t.Elem().PkgPath())
		if a.ns[pkg] == nil {
			a.ns[pkg] = map[string][]string{}
		}
		if _, dup := a.ns[pkg][typ]; dup {
			return nil, fmt.Errorf("web: %s.%s bound twice", pkg, typ)
		}
		names := []string{}
		for i := range t.NumMethod() {
			m := t.Method(i)
			if !m.IsExported() {
				continue
			}
			bm, err := newMethod(v.Method(i))
			if err != nil {
				return nil, fmt.Errorf("web: %s.%s: %w", typ, m.Name, err)
			}
			bm.obj, bm.index = obj, i
			if _, dup := a.methods[typ+"."+m.Name]; dup {
				return nil, fmt.Errorf("web: two bound types named %s", typ)
			}
			a.methods[typ+"."+m.Name] = bm
			names = append(names, m.Name)
		}
		sort.Strings(names)
		a.ns[pkg][typ] = names
	}
	return a, nil
}

func newMethod(fn reflect.Value) (method, error) {
	t := fn.Type()
	if t.IsVariadic() {
		return method{}, errors.New("variadic methods cannot be bound")
	}
	m := method{fn: fn}
	for i := range t.NumIn() {
		in := t.In(i)
		if !jsonable(in, 0) {
			return method{}, fmt.Errorf("argument %d (%s) cannot come from JSON", i+1, in)
		}
		m.in = append(m.in, in)
	}
	switch n := t.NumOut(); {
	case n > 2:
		return method{}, errors.New("more than two results")
	case n == 2:
		if t.Out(1) != errorType {
			return method{}, errors.New("the second result must be an error")
		}
		m.result, m.err = true, true
	case n == 1:
		m.err = t.Out(0) == errorType
		m.result = !m.err
	}
	return m, nil
}

// jsonable reports whether JSON can be decoded into a value of type t.
func jsonable(t reflect.Type, depth int) bool {
	if depth > 8 {
		return true
	}
	switch t.Kind() {
	case reflect.Chan, reflect.Func, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer:
		return false
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return jsonable(t.Elem(), depth+1)
	case reflect.Map:
		return jsonable(t.Elem(), depth+1)
	}
	return true
}

// namespaces returns package -> type -> method names.
func (a *api) namespaces() map[string]map[string][]string { return a.ns }

// serve calls the method named by name ("Type.Method") with the JSON array in the body and
// writes its result as JSON, or an error {"code", "message"} with a 4xx/5xx status.
func (a *api) serve(w http.ResponseWriter, r *http.Request, name string, logf func(string, ...any), as callAs) {
	m, ok := a.methods[name]
	if !ok {
		fail(w, http.StatusNotFound, app.CodeNotFound, "no such method: "+name)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			fail(w, http.StatusRequestEntityTooLarge, codeTooLarge, fmt.Sprintf("the body exceeds %d bytes", maxBody))
			return
		}
		fail(w, http.StatusBadRequest, codeInvalid, "read body: "+err.Error())
		return
	}
	args, err := decodeArgs(body, m.in)
	if err != nil {
		fail(w, http.StatusBadRequest, codeInvalid, name+": "+err.Error())
		return
	}
	if as.recv != nil {
		recv := reflect.ValueOf(as.recv(m.obj))
		if recv.Type() != reflect.TypeOf(m.obj) {
			logf("web: %s: the receiver of a call is a %s, not a %T", name, recv.Type(), m.obj)
			fail(w, http.StatusInternalServerError, app.CodeInternal, "internal error")
			return
		}
		m.fn = recv.Method(m.index)
	}
	out, err := call(m, args)
	if err != nil {
		status, code, msg := httpError(err)
		if status >= 500 {
			logf("web: %s: %v", name, err)
		}
		if status == http.StatusTooManyRequests && as.limited != nil {
			as.limited(w)
		}
		fail(w, status, code, msg)
		return
	}
	// The boundary of this transport: a nil list leaves as [] (bound methods already hand
	// theirs over so for the window; a method bound only here is covered all the same).
	b, err := json.Marshal(app.ListsNotNull(out))
	if err != nil {
		logf("web: %s: encode result: %v", name, err)
		fail(w, http.StatusInternalServerError, app.CodeInternal, "encode result: "+err.Error())
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.Write(b)
}

// decodeArgs decodes body, a JSON array with one element per parameter, strictly: no
// trailing data, no unknown object fields, no values that do not fit their types. A null
// (a JavaScript undefined argument) gives the zero value.
func decodeArgs(body []byte, in []reflect.Type) ([]reflect.Value, error) {
	var raw []json.RawMessage
	if err := strictDecode(body, &raw); err != nil {
		return nil, err
	}
	if raw == nil {
		return nil, errors.New("the body must be a JSON array of arguments")
	}
	if len(raw) != len(in) {
		return nil, fmt.Errorf("takes %d argument(s), got %d", len(in), len(raw))
	}
	args := make([]reflect.Value, len(in))
	for i, t := range in {
		v := reflect.New(t)
		if err := strictDecode(raw[i], v.Interface()); err != nil {
			return nil, fmt.Errorf("argument %d: %w", i+1, err)
		}
		args[i] = v.Elem()
	}
	return args, nil
}

func strictDecode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("bad JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("bad JSON: data after the value")
	}
	return nil
}

// errPanic marks a bound method that panicked.
var errPanic = errors.New("internal error")

// call runs the method, turning a panic into an error.
func call(m method, args []reflect.Value) (out any, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: panic: %v\n%s", errPanic, p, debug.Stack())
		}
	}()
	res := m.fn.Call(args)
	if m.err {
		if e, _ := res[len(res)-1].Interface().(error); e != nil {
			return nil, e
		}
	}
	if m.result {
		return res[0].Interface(), nil
	}
	return nil, nil
}

// httpError maps an error from a bound method to a status, a code and a message.
func httpError(err error) (int, string, string) {
	var ae *app.Error
	if errors.As(err, &ae) {
		switch ae.Code {
		case app.CodeInvalid:
			return http.StatusBadRequest, ae.Code, ae.Message
		case app.CodeNotFound:
			return http.StatusNotFound, ae.Code, ae.Message
		case app.CodeConflict:
			return http.StatusConflict, ae.Code, ae.Message
		case app.CodeForbidden:
			return http.StatusForbidden, ae.Code, ae.Message
		case app.CodeLimited:
			return http.StatusTooManyRequests, ae.Code, ae.Message
		}
		return http.StatusInternalServerError, ae.Code, ae.Message
	}
	if errors.Is(err, errPanic) {
		msg, _, _ := strings.Cut(err.Error(), "\n")
		return http.StatusInternalServerError, app.CodeInternal, msg
	}
	return http.StatusInternalServerError, app.CodeInternal, err.Error()
}

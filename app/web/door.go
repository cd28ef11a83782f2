package web

import (
	"context"
	"strings"

	"mundaneum/app"
)

// Door is what the access control of `serve --public` needs from the app: who may come
// in, what a guest may call, and the bound objects acting for one caller.
type Door interface {
	// Access returns the owner's password hash ("" none set yet) and what guests may do
	// (app.GuestsNone or app.GuestsRead).
	Access(ctx context.Context) (app.Access, error)
	// GuestMay reports whether a guest may call the bound method "Type.Method".
	GuestMay(method string) bool
	// For returns the bound object obj acting for c (of obj's own type).
	For(obj any, c app.Caller) any
}

// AppDoor is the Door of an App.
func AppDoor(a *app.App) Door { return appDoor{a} }

type appDoor struct{ a *app.App }

func (d appDoor) Access(ctx context.Context) (app.Access, error) { return app.DoorAccess(ctx, d.a) }

func (d appDoor) GuestMay(method string) bool {
	typ, name, ok := strings.Cut(method, ".")
	return ok && typ == "App" && app.GuestMay(name)
}

func (d appDoor) For(obj any, c app.Caller) any {
	if a, ok := obj.(*app.App); ok {
		return app.ActingFor(a, c)
	}
	return obj
}

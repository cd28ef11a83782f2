package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"mundaneum/backend/library"
	"mundaneum/backend/store"
)

// The people of `serve --public` (issue 29, item 5). The workspace has an owner, who signs
// in with the owner's password (set at serve's first public start, or in Settings; kept as
// an argon2id hash like the library's), and guests, who may do nothing (Guests "none", the
// default) or read (Guests "read": search, pages, crawls, the library) and post only in the
// libraries the owner opened to guests. The browser door (app/web) says who calls; an App
// copy made by ActingFor carries it into every call, so that the library knows whose change
// it is (Undo takes back only a person's own) and meters their password checks.
//
// The window, the command line and a loopback `serve` have one user, the owner: nothing here
// applies to them.

// Guest access levels.
const (
	GuestsNone = "none" // only the owner, signed in, uses the workspace
	GuestsRead = "read" // guests read everything and post where the owner opened the library
)

// accessKey is where the access settings live in the workspace's settings table.
const accessKey = "serve.access"

// Access is how `serve --public` lets people in, as stored in the workspace.
type Access struct {
	OwnerHash string `json:"ownerHash"` // argon2id; "" until an owner password is set
	Guests    string `json:"guests"`    // GuestsNone or GuestsRead
}

// LoadAccess reads the workspace's access settings.
func LoadAccess(ctx context.Context, st *store.Store) (Access, error) {
	a := Access{Guests: GuestsNone}
	b, ok, err := st.LoadSetting(ctx, accessKey)
	if err != nil || !ok {
		return a, err
	}
	if err := json.Unmarshal(b, &a); err != nil {
		return Access{Guests: GuestsNone}, err
	}
	if a.Guests != GuestsRead {
		a.Guests = GuestsNone
	}
	return a, nil
}

// SaveAccess stores the workspace's access settings.
func SaveAccess(ctx context.Context, st *store.Store, a Access) error {
	b, err := json.Marshal(a)
	if err != nil {
		return err
	}
	return st.SaveSetting(ctx, accessKey, b)
}

// CheckOwnerPassword checks a password against the owner's hash. An empty password (or
// none set) never opens.
func CheckOwnerPassword(a Access, pw string) bool {
	return a.OwnerHash != "" && pw != "" && library.CheckPassword(a.OwnerHash, pw)
}

// MinOwnerPassword is the shortest owner password accepted.
const MinOwnerPassword = 8

// HashOwnerPassword checks a new owner password and hashes it (an error wraps
// library.ErrInvalid).
func HashOwnerPassword(pw string) (string, error) {
	if len(pw) < MinOwnerPassword {
		return "", fmt.Errorf("the owner's password must have at least %d characters: %w", MinOwnerPassword, library.ErrInvalid)
	}
	if strings.TrimSpace(pw) != pw {
		return "", fmt.Errorf("the owner's password must not start or end with a space: %w", library.ErrInvalid)
	}
	return library.HashPassword(pw)
}

// Caller is who calls the API through the door of `serve --public`.
type Caller struct {
	ID    string // "" the owner; a guest's own id otherwise
	Name  string // how messages name a guest ("guest 3f2a")
	Guest bool
	Gate  library.Gate // meters their password checks (nil: none)
}

// person is who an App's calls come from.
type person struct {
	lib   library.Person
	gate  library.Gate
	guest bool
}

// ActingFor returns the API acting for c under `serve --public`: the same state, its calls
// made as c (the library's journal records them; Undo takes back only c's own changes).
func ActingFor(a *App, c Caller) *App {
	return &App{core: a.core, person: person{
		lib:   library.Person{ID: c.ID, Name: c.Name, Guest: c.Guest, Shared: true},
		gate:  c.Gate,
		guest: c.Guest,
	}}
}

// guestMethods are the API a guest may call (with GuestsRead): reading, and the library's
// changes, which the library itself limits to the libraries open to guests. Everything
// else (crawls, settings, tasks, archives, the exchange, workspaces) is the owner's; a
// method added later is the owner's until it is listed here.
var guestMethods = map[string]bool{
	"Search": true, "SearchFacets": true, "Status": true, "IndexStatus": true, "Workspace": true, "Settings": true,
	"Page": true, "OfflineCopy": true, "PageVersions": true, "ComparePageVersions": true, "VersionCopy": true,
	"Crawls": true, "CrawlPages": true, "Views": true, "DocumentTypes": true,
	"GraphLinks": true, "GraphPath": true, "GraphTree": true, "GraphView": true, "Orphans": true,
	"LibraryPage": true, "LibraryPosting": true, "LibraryRecent": true, "LibraryResolve": true,
	"LibrarySearch": true, "LibraryTags": true, "LibraryPreview": true, "LibraryExport": true,
	"LibraryPreviewDelete": true,
	"LibraryCreate":        true, "LibraryPoint": true, "LibraryReport": true, "LibraryPlaceView": true,
	"LibraryEdit": true, "LibraryDelete": true, "LibraryMove": true, "LibraryCopy": true, "LibraryUndo": true, "LibraryRedo": true,
	"LibraryImport": true, "LibraryAcceptRedirect": true, "LibraryChoices": true,
}

// GuestMay reports whether a guest of `serve --public` may call the App method name.
func GuestMay(name string) bool { return guestMethods[name] }

// Sharing is what the owner sees of the access settings in Settings.
type Sharing struct {
	OwnerPasswordSet bool   `json:"ownerPasswordSet"`
	Guests           string `json:"guests"` // none | read
}

// Sharing returns the access settings of `serve --public`.
func (a *App) Sharing() (Sharing, error) {
	ac, err := LoadAccess(context.Background(), a.ws().st)
	if err != nil {
		return Sharing{}, apiError(err)
	}
	return Sharing{OwnerPasswordSet: ac.OwnerHash != "", Guests: ac.Guests}, nil
}

// SetOwnerPassword sets the password the owner signs in with under `serve --public`;
// changing one needs the current one.
func (a *App) SetOwnerPassword(current, next string) error {
	ctx := context.Background()
	st := a.ws().st
	ac, err := LoadAccess(ctx, st)
	if err != nil {
		return apiError(err)
	}
	if ac.OwnerHash != "" {
		ok, err := a.checkGated(ctx, func() bool { return CheckOwnerPassword(ac, current) })
		if err != nil {
			return err
		}
		if !ok {
			return &Error{Code: CodeForbidden, Message: "that is not the owner's current password"}
		}
	}
	h, err := HashOwnerPassword(next)
	if err != nil {
		return apiError(err)
	}
	ac.OwnerHash = h
	return apiError(SaveAccess(ctx, st, ac))
}

// checkGated runs a password check through the caller's gate, if any.
func (a *App) checkGated(ctx context.Context, check func() bool) (bool, error) {
	g := a.person.gate
	if g == nil {
		return check(), nil
	}
	leave, err := g.Enter(ctx)
	if err != nil {
		return false, apiError(err)
	}
	ok := check()
	leave()
	if !ok {
		g.Wrong()
	}
	return ok, nil
}

// SetGuestAccess sets what the guests of `serve --public` may do: "none" or "read" (read
// everything, post in the libraries open to guests).
func (a *App) SetGuestAccess(level string) (Sharing, error) {
	if level != GuestsNone && level != GuestsRead {
		return Sharing{}, &Error{Code: CodeInvalid, Message: `guest access is "none" or "read"`}
	}
	ctx := context.Background()
	st := a.ws().st
	ac, err := LoadAccess(ctx, st)
	if err != nil {
		return Sharing{}, apiError(err)
	}
	ac.Guests = level
	if err := SaveAccess(ctx, st, ac); err != nil {
		return Sharing{}, apiError(err)
	}
	return a.Sharing()
}

// DoorAccess reads the access settings of the workspace the App has open, for the door.
func DoorAccess(ctx context.Context, a *App) (Access, error) { return LoadAccess(ctx, a.ws().st) }

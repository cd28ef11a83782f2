package app

import (
	"mundaneum/backend/check"
	"mundaneum/backend/store"
)

// CheckLibrary is where library tasks read a library subtree's pointers: the window, serve
// and the command line all take it from here. Nil until the workspace has a library: then a
// library task fails alone with check.ErrNoLibrary.
func CheckLibrary(st *store.Store) check.LibrarySource { return nil }

package app

import (
	"context"

	"mundaneum/backend/check"
	"mundaneum/backend/library"
	"mundaneum/backend/store"
)

// CheckLibrary is where library tasks read a library subtree's pointers: the window, serve
// and the command line all take it from here. The library finds them
// (library.PointerFolders); this only hands them over in check's terms.
func CheckLibrary(st *store.Store) check.LibrarySource {
	lib := library.New(st)
	return check.LibraryFunc(func(ctx context.Context, path string) ([]check.LibraryFolder, error) {
		folders, err := lib.PointerFolders(ctx, path)
		if err != nil || folders == nil {
			return nil, err
		}
		out := make([]check.LibraryFolder, len(folders))
		for i, f := range folders {
			out[i].Path = f.Path
			for _, n := range f.Pointers {
				out[i].Pointers = append(out[i].Pointers, check.LibraryPointer{ID: n.ID, Title: n.Title, URL: n.URL})
			}
		}
		return out, nil
	})
}

package app

import (
	"context"
	"strings"

	"mundaneum/backend/check"
	"mundaneum/backend/library"
	"mundaneum/backend/store"
)

// CheckLibrary is where library tasks read a library subtree's pointers: the window, serve
// and the command line all take it from here.
func CheckLibrary(st *store.Store) check.LibrarySource {
	return check.LibraryFunc(func(ctx context.Context, path string) ([]check.LibraryFolder, error) {
		return pointerFolders(ctx, st, path)
	})
}

// pointerFolders lists the libraries at or below path (a pointer's path names its library
// and that pointer alone) with their pointers, in the library's own order; libraries
// without a pointer are left out.
func pointerFolders(ctx context.Context, st *store.Store, path string) ([]check.LibraryFolder, error) {
	lib := library.New(st)
	top, err := lib.Resolve(ctx, path)
	if err != nil {
		return nil, err
	}
	if top.Kind != library.KindLibrary {
		parent, err := st.LibNode(ctx, top.Parent)
		if err != nil {
			return nil, err
		}
		p, err := lib.PathOf(ctx, parent)
		if err != nil {
			return nil, err
		}
		if top.URL == "" {
			return nil, nil
		}
		return []check.LibraryFolder{{Path: p, Pointers: []check.LibraryPointer{{ID: top.ID, Title: top.Title, URL: top.URL}}}}, nil
	}
	nodes, err := st.LibSubtree(ctx, top.ID)
	if err != nil {
		return nil, err
	}
	topPath, err := lib.PathOf(ctx, top)
	if err != nil {
		return nil, err
	}
	paths := map[int64]string{top.ID: topPath}
	index := map[int64]int{} // library id -> folder, once it has a pointer
	var out []check.LibraryFolder
	for _, n := range nodes {
		parent, ok := paths[n.Parent]
		switch {
		case n.ID == top.ID:
		case !ok:
			continue // below a posting that is not a library
		case n.Kind == library.KindLibrary:
			paths[n.ID] = strings.TrimSuffix(parent, "/") + "/" + library.EscapeTitle(n.Title)
		case n.Kind == library.KindPointer && n.URL != "":
			i, ok := index[n.Parent]
			if !ok {
				i = len(out)
				index[n.Parent] = i
				out = append(out, check.LibraryFolder{Path: parent})
			}
			out[i].Pointers = append(out[i].Pointers, check.LibraryPointer{ID: n.ID, Title: n.Title, URL: n.URL})
		}
	}
	return out, nil
}

package library

import (
	"context"
	"strings"
)

// PointerFolder is one library of a subtree with its pointers, in the library's own order:
// what a link check of that subtree tests, folder by folder.
type PointerFolder struct {
	Path     string // the library's path
	Pointers []Node // its pointers that have a URL
}

// PointerFolders lists the libraries at or below path (a pointer's path names its library
// and that pointer alone) with their pointers, in the library's own order; libraries
// without a pointer are left out.
func (l *Library) PointerFolders(ctx context.Context, path string) ([]PointerFolder, error) {
	top, err := l.Resolve(ctx, path)
	if err != nil {
		return nil, err
	}
	if top.Kind != KindLibrary {
		parent, err := l.st.LibNode(ctx, top.Parent)
		if err != nil {
			return nil, err
		}
		p, err := l.PathOf(ctx, parent)
		if err != nil {
			return nil, err
		}
		if top.URL == "" {
			return nil, nil
		}
		return []PointerFolder{{Path: p, Pointers: []Node{top}}}, nil
	}
	nodes, err := l.st.LibSubtree(ctx, top.ID)
	if err != nil {
		return nil, err
	}
	topPath, err := l.PathOf(ctx, top)
	if err != nil {
		return nil, err
	}
	paths := map[int64]string{top.ID: topPath}
	index := map[int64]int{} // library id -> folder, once it has a pointer
	var out []PointerFolder
	for _, n := range nodes {
		parent, ok := paths[n.Parent]
		switch {
		case n.ID == top.ID:
		case !ok:
			continue // below a posting that is not a library
		case n.Kind == KindLibrary:
			paths[n.ID] = strings.TrimSuffix(parent, "/") + "/" + EscapeTitle(n.Title)
		case n.Kind == KindPointer && n.URL != "":
			i, ok := index[n.Parent]
			if !ok {
				i = len(out)
				index[n.Parent] = i
				out = append(out, PointerFolder{Path: parent})
			}
			out[i].Pointers = append(out[i].Pointers, n)
		}
	}
	return out, nil
}
